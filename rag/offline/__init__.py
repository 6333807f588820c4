"""The offline answerer: a chat model that quotes evidence sentences and table rows, and the check that a quote answers this question before it is presented as the answer."""
