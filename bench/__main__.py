"""`python -m bench all|NAME [--quick] [--million]`, `python -m bench jobs --first-answer [N]`, and
`python -m bench eval --qa PATH.jsonl|--filings|--filings-dev|--docs-dev [...]`.

Full runs save bench/results/NAME.json and rewrite bench/README.md from every saved result;
--quick runs tiny inputs, prints the sections and writes nothing; so does --first-answer (only
the jobs benchmark's first answer, N times: bench/first_answer.py).
"""

from __future__ import annotations

import argparse
import sys

from bench.report import render_record, write_readme
from bench.runner import BENCHMARKS, BY_NAME, Record, load_records, run_benchmark, save_record

MILLION_TIMEOUT_S = 4 * 3600  # the 1,000,000-vector HNSW build alone may take an hour here


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("name", choices=["all", *BY_NAME], help="which benchmark (all: every one)")
    parser.add_argument("--quick", action="store_true", help="tiny inputs; print only, write nothing")
    parser.add_argument(
        "--million",
        action="store_true",
        help="pg_search: also 1,000,000 chunks (the HNSW build takes long on 2 cores)",
    )
    parser.add_argument(
        "--first-answer",
        type=int,
        nargs="?",
        const=3,
        default=0,
        metavar="N",
        help="jobs: only the first answer against the full ingest, N times (default 3); print only",
    )
    args = parser.parse_args(argv)
    if args.first_answer and args.name != "jobs":
        parser.error("--first-answer goes with the jobs benchmark only")
    if args.first_answer < 0:
        parser.error("--first-answer takes a positive number of runs")
    return args


def run_eval_command(argv: list[str]) -> int:
    """`python -m bench eval --qa ...`: bench/eval.py's own command line, saved when it returns data."""
    try:
        from bench import eval as evaluation
    except ModuleNotFoundError as exc:
        if exc.name != "bench.eval":
            raise
        print("bench/eval.py is not there yet", file=sys.stderr)
        return 2
    returned = evaluation.main(argv)
    return int(returned) if isinstance(returned, int) else 0


def run_names(
    names: list[str], quick: bool, command: str, million: bool = False, first_answer: int = 0
) -> list[Record]:
    """Run the benchmarks one after the other, each in its own process; save full runs."""
    records = []
    for name in names:
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        if million and name == "pg_search":
            record = run_benchmark(name, quick, command, {"million": True}, MILLION_TIMEOUT_S)
        elif first_answer and name == "jobs":
            record = run_benchmark(name, quick, command, {"first_answer": first_answer})
        else:
            record = run_benchmark(name, quick, command, timeout=BY_NAME[name].timeout_s)
        print(f"bench: {name} {record.status} in {record.seconds:g} s", file=sys.stderr, flush=True)
        records.append(record)
        if not quick and not first_answer and not save_record(record):
            print(f"bench: {name} failed; its last measurement is kept", file=sys.stderr, flush=True)
    return records


def main(argv: list[str] | None = None) -> int:
    """Run what was asked; exit 1 when a benchmark failed (missing ones are not failures)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["eval"] and any(a.startswith(("--qa", "--filings", "--docs-dev")) for a in argv[1:]):
        return run_eval_command(argv[1:])
    args = parse_args(argv)
    names = [b.name for b in BENCHMARKS] if args.name == "all" else [args.name]
    command = "python -m bench " + " ".join(argv)
    records = run_names(names, args.quick, command, args.million, args.first_answer)
    for record in records:
        print(f"\n## {BY_NAME[record.name].title}\n\n{render_record(record)}")
    if not args.quick and not args.first_answer:
        write_readme(load_records())
        print("\nbench: wrote bench/README.md", file=sys.stderr)
    return 1 if any(r.status == "failed" for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
