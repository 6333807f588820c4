"""Judgement questions, one home: the analyst's concept a question names (`question`), the statement
rows retrieval brings for it (`rows`), and the offline answer that quotes them and leaves the
judgement to the reader (`answer`). Each module stands on the layer of its stage (tests/test_layers.py)."""
