"""A question read once (read.py: read_question and the Question every later stage takes), from its
parts: what to search for and which statements it names (request), analysts' shorthand
(shorthand), its concepts (asked) and what it asks for (terms)."""
