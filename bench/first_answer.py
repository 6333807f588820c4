"""Only issue 21's first-answer measurement of bench/jobs.py, repeated: ``python -m bench jobs
--first-answer [N]`` (N = 3 by default). Printed, never saved: the saved ``bench jobs`` record
(and its README section, with the 24 filings through the queue against synchronous) stays the
full run's.

One library of the NEIGHBOURS smaller filings is built once (default local embeddings, as the app
embeds). Each run then, in an order that alternates from run to run: uploads the long filing to a
fresh copy of it with a worker thread started as the app starts it (bench.jobs._first_answer: the
question asked through the app's answer stream as soon as the words are in; the worker is stopped
after the answer, so the vectors' end is not timed), once cold and once with the library read
before the upload (its BM25 built, as the app's pages do on every run), each in a fresh process
(no stems, page facts or index left from another run); and ingests the same file synchronously
into an empty library (its full ingest time in the same run). Each run's ratios are its first
answers over its own full ingest; the medians are reported beside every run.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
from pathlib import Path
from typing import Any

from bench.common import ROOT, git_commit, run_child
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
CHILD_TIMEOUT_S = 600
MEASURED = ("words_s", "first_answer_s", "read_before_s", "sync_s", "ratio", "read_before_ratio")


def run_first_answer(runs: int = RUNS) -> dict[str, Any]:
    """``runs`` first answers (cold and read before), each beside the same file's full synchronous
    ingest, in alternating order."""
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
            order = ("cold", "read", "sync") if n % 2 == 0 else ("sync", "read", "cold")
            rows.append(_one_run(Path(tmp) / f"run-{n}", base, long, local, local_name, order))
    result = {
        "runs": rows,
        "median": {key: _median([r[key] for r in rows]) for key in MEASURED},
        "long_file": long.name,
        "pages": rows[0]["pages"],
        "neighbours": NEIGHBOURS,
        "cores": os.cpu_count(),
        "commit": git_commit(),
        "full_run": _full_run(),
    }
    return {**result, "markdown": render(result)}


def first_answer_child(base: str, folder: str, read_before: bool) -> dict[str, Any]:
    """One upload's first answer, in a fresh process: a copy of ``base`` at ``folder``."""
    from ingest.embeddings import make_embeddings

    local, local_name = make_embeddings("local")
    local.embed_query("warm up")
    shutil.copytree(base, folder)
    library = _open(Path(folder), local, local_name)
    return _first_answer(
        Path(folder), library, FILINGS / LONG, local, local_name, read_before=read_before, until_done=False
    )


def _one_run(
    folder: Path, base: Path, long: Path, embeddings: Any, name: str, order: tuple[str, ...]
) -> dict[str, Any]:
    load = os.getloadavg()[0]
    done: dict[str, Any] = {}
    for side in order:
        if side == "sync":
            done[side] = _synchronous(_open(folder / "sync", embeddings, name), long)
        else:
            kwargs = {"base": str(base), "folder": str(folder / side), "read_before": side == "read"}
            done[side] = run_child("bench.first_answer:first_answer_child", kwargs, CHILD_TIMEOUT_S)
    shutil.rmtree(folder, ignore_errors=True)
    cold, read, sync_s = done["cold"], done["read"], done["sync"]
    return {
        "words_s": cold["words_s"],
        "first_answer_s": cold["first_answer_s"],
        "read_before_s": read["first_answer_s"],
        "sync_s": round(sync_s, 1),
        "ratio": round(cold["first_answer_s"] / sync_s, 3),
        "read_before_ratio": round(read["first_answer_s"] / sync_s, 3),
        "order": list(order),
        "cited_pages": cold["cited_pages"],
        "read_before_cited_pages": read["cited_pages"],
        "cited_last_pages": cold["cited_last_pages"] and read["cited_last_pages"],
        "pages": cold["pages"],
        "load": [round(load, 2), round(os.getloadavg()[0], 2)],
    }


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


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
    lines = [
        "| run | order | words stored | first cited answer | the same, library read before | "
        "full synchronous ingest | ratio | ratio, read before | cited | load (start, end) |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for n, row in enumerate(r["runs"], 1):
        cited = f"p. {_pages(row['cited_pages'])}; p. {_pages(row['read_before_cited_pages'])}"
        lines.append(
            f"| {n} | {', '.join(row['order'])} | {row['words_s']:.2f} | {row['first_answer_s']:.2f} | "
            f"{row['read_before_s']:.2f} | {row['sync_s']:.1f} | {row['ratio']:.3f} | "
            f"{row['read_before_ratio']:.3f} | {cited}"
            f"{'' if row['cited_last_pages'] else ' (**not the last pages**)'} | "
            f"{row['load'][0]}, {row['load'][1]} |"
        )
    m = r["median"]
    met = all(x["cited_last_pages"] for x in r["runs"]) and m["ratio"] <= GOAL_FIRST_ANSWER_RATIO
    lines.append(
        f"| median | | {m['words_s']:.2f} | {m['first_answer_s']:.2f} | {m['read_before_s']:.2f} | "
        f"{m['sync_s']:.1f} | **{m['ratio']:.3f}** | {m['read_before_ratio']:.3f} | "
        f"goal <= {GOAL_FIRST_ANSWER_RATIO} ({'met' if met else '**not met**'}) | |"
    )
    return "\n".join(lines) + (
        f"\n\n`python -m bench jobs --first-answer {len(r['runs'])}` at {r['commit']}, on {r['cores']} "
        f"cores: {r['long_file']} ({r['pages']} pages) uploaded to a copy of a library of "
        f"{r['neighbours']} smaller filings, the worker thread started as the app starts it, "
        f"{WORKER_HEAD_START_S:g} s before the upload (the app's starts with the library, before any "
        "upload: bench.jobs.WORKER_HEAD_START_S); the question "
        f"(\u201c{QUESTION}\u201d) asked as soon as its words were in, each upload in a fresh process; "
        "cold (the goal's figure, as in the full run) and with the library's BM25 built before the "
        "upload, as the app's pages build it. Seconds from the upload; a ratio is that run's first "
        "answer over its own full synchronous ingest of the same file. Only this was measured here: "
        "the 24 filings through the queue against synchronous, and the upload to the job's end, are "
        f"the full run's ({r['full_run']})."
    )


def _pages(pages: list[int]) -> str:
    return ", ".join(str(p) for p in pages) or "none"
