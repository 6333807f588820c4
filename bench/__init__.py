"""Benchmarks: speed and scale beside the baselines a user would otherwise pick.

`python -m bench all` (what `make bench` runs) runs each one in its own process and writes
bench/README.md; `python -m bench NAME` runs one; `--quick` runs tiny inputs and writes nothing.
Modules: citations, retrieval, answer, ingest, ui (footnote click to panel), eval (answer quality).
"""
