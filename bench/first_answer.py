"""Only issue 21's first-answer measurement of bench/jobs.py, repeated: ``python -m bench jobs
--first-answer [N]`` (N = 3 by default). Printed, never saved: the saved ``bench jobs`` record
(and its README section, with the 24 filings through the queue against synchronous) stays the
full run's.

One library of the NEIGHBOURS smaller filings is built once (default local embeddings, as the app
embeds). Each run then takes a fresh copy of it and, alternating which goes first: uploads the
long filing to a worker thread started as the app starts it (bench.jobs._first_answer: the
question asked through the app's answer stream as soon as the words are in; the worker is
stopped after the answer, so the vectors' end is not timed), and ingests the same file
synchronously into an empty library (its full ingest time in the same run). Each run's ratio is
its first answer over its own full ingest; the medians are reported beside every run.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from bench.common import ROOT
from bench.jobs import (
    FILINGS,
    GOAL_FIRST_ANSWER_RATIO,
    LONG,
    NEIGHBOURS,
    QUESTION,
    WORKER_HEAD_START_S,
    _first_answer,
    _neighbours,
    _open,
    _synchronous,
)

RUNS = 3
MEASURED = ("words_s", "first_answer_s", "sync_s", "ratio")


def run_first_answer(runs: int = RUNS) -> dict[str, Any]:
    """``runs`` first answers, each beside the same file's full synchronous ingest, alternating."""
    from ingest.embeddings import make_embeddings

    paths = sorted(FILINGS.glob("*.pdf"))
    long = next(p for p in paths if p.name == LONG)
    local, local_name = make_embeddings("local")
    local.embed_query("warm up")
    rows = []
    with tempfile.TemporaryDirectory(prefix="footnote-bench-first-answer-") as tmp:
        base = Path(tmp) / "base"
        others = _open(base, local, local_name)
        for path in _neighbours(paths, long):
            others.add_pdf(path.read_bytes(), path.name)
        for n in range(max(1, runs)):
            rows.append(
                _one_run(Path(tmp) / f"run-{n}", base, long, local, local_name, sync_first=n % 2 == 1)
            )
    result = {
        "runs": rows,
        "median": {key: _median([r[key] for r in rows]) for key in MEASURED},
        "long_file": long.name,
        "pages": rows[0]["pages"],
        "neighbours": NEIGHBOURS,
        "cores": os.cpu_count(),
        "commit": _commit(),
        "full_run": _full_run(),
    }
    return {**result, "markdown": render(result)}


def _one_run(
    folder: Path, base: Path, long: Path, embeddings: Any, name: str, sync_first: bool
) -> dict[str, Any]:
    load = os.getloadavg()[0]
    shutil.copytree(base, folder / "queue")
    sync_s = _synchronous(_open(folder / "sync", embeddings, name), long) if sync_first else None
    library = _open(folder / "queue", embeddings, name)
    first = _first_answer(folder / "queue", library, long, embeddings, name, until_done=False)
    if sync_s is None:
        sync_s = _synchronous(_open(folder / "sync", embeddings, name), long)
    shutil.rmtree(folder, ignore_errors=True)
    return {
        "words_s": first["words_s"],
        "first_answer_s": first["first_answer_s"],
        "sync_s": round(sync_s, 1),
        "ratio": round(first["first_answer_s"] / sync_s, 3),
        "sync_first": sync_first,
        "cited_pages": first["cited_pages"],
        "cited_last_pages": first["cited_last_pages"],
        "pages": first["pages"],
        "load": [round(load, 2), round(os.getloadavg()[0], 2)],
    }


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True, timeout=10
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _full_run() -> str:
    """Where the full run's other figures come from (its saved record), in words."""
    import json

    path = ROOT / "bench" / "results" / "jobs.json"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        machine = record["machine"]
        return f"commit {machine['git_commit']}, {machine['date_utc']}"
    except (OSError, ValueError, KeyError):
        return "no saved full run"


def render(r: dict[str, Any]) -> str:
    """The runs, their medians, and what was not measured here."""
    head = "| run | first | words stored | first cited answer | full synchronous ingest | ratio | cited | load (start, end) |"
    lines = [head, "|---:|---|---:|---:|---:|---:|---|---|"]
    for n, row in enumerate(r["runs"], 1):
        lines.append(
            f"| {n} | {'synchronous' if row['sync_first'] else 'upload'} | {row['words_s']:.2f} | "
            f"{row['first_answer_s']:.2f} | {row['sync_s']:.1f} | {row['ratio']:.3f} | "
            f"p. {', '.join(str(p) for p in row['cited_pages']) or 'none'}"
            f"{'' if row['cited_last_pages'] else ' (**not the last pages**)'} | "
            f"{row['load'][0]}, {row['load'][1]} |"
        )
    m = r["median"]
    met = all(x["cited_last_pages"] for x in r["runs"]) and m["ratio"] <= GOAL_FIRST_ANSWER_RATIO
    lines.append(
        f"| median | | {m['words_s']:.2f} | {m['first_answer_s']:.2f} | {m['sync_s']:.1f} | "
        f"**{m['ratio']:.3f}** | goal <= {GOAL_FIRST_ANSWER_RATIO} ({'met' if met else '**not met**'}) | |"
    )
    return "\n".join(lines) + (
        f"\n\n`python -m bench jobs --first-answer {len(r['runs'])}` at {r['commit']}, on {r['cores']} "
        f"cores: {r['long_file']} ({r['pages']} pages) uploaded to a copy of a library of "
        f"{r['neighbours']} smaller filings, the worker thread started as the app starts it, "
        f"{WORKER_HEAD_START_S:g} s before the upload (the app's starts with the library, before any "
        "upload: bench.jobs.WORKER_HEAD_START_S); the question "
        f"(\u201c{QUESTION}\u201d) asked as soon as its words were in. Seconds from the upload; the ratio "
        "is each run's first answer over its own full synchronous ingest of the same file. Only this "
        "was measured here: the 24 filings through the queue against synchronous, and the upload to "
        f"the job's end, are the full run's ({r['full_run']})."
    )
