"""Benchmarks: speed and scale beside the baselines a user would otherwise pick.

`python -m bench all` (what `make bench` runs) runs each one in its own process and writes
bench/README.md; `python -m bench NAME` runs one; `--quick` runs tiny inputs and writes nothing.
Modules: citations, retrieval, answer (issue 7), ingest (issue 3), ui (issue 5), eval (issue 4).
"""
