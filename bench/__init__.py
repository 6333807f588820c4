"""Benchmarks: speed and scale beside the baselines a user would otherwise pick.

`python -m bench all` (what `make bench` runs) runs each one in its own process and writes
bench/README.md; `python -m bench NAME` runs one; `--quick` runs tiny inputs and writes nothing.
One module per benchmark (bench/runner.py lists them); bench/README.md holds the figures and, by
hand above them, how the rules and constants of the code were measured.
"""
