"""Sections, one home: the section a question names and what it asks of it (`question`), its chunks
first among the evidence (`retrieval`), and the offline answer from the headings under it (`answer`).
Each module stands on the layer of its stage (tests/test_layers.py)."""
