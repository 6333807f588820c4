"""Team mode, background ingestion (issue 21): two queue workers against one on the same queued
files, wall-time ratio, and that no job ran twice.

What runs: the product's command line with FOOTNOTE_DATABASE_URL set, as an operator runs it:
``python -m cli.ingest --queue PDF...`` stores every file and its job in the database, then one or two
``python -m cli.ingest worker --until-idle`` processes, started at once, take the jobs (SELECT ... FOR
UPDATE SKIP LOCKED) until none is left. Wall time runs from starting the workers to the last exit
(imports and model load included). Each configuration uses a fresh database of one server
(PostgreSQL 16 + pgvector, pgserver), alternating which goes first. Afterwards every job must be
done after exactly one attempt and every file stored once, with a vector for every chunk.
Inputs: the generated 10-K-style filings of bench/filings (synthetic, about 25 pages each),
default local embeddings.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import ROOT, median
from bench.pg_ingest import worker_env

ROUNDS, QUICK_ROUNDS = 2, 1
QUICK_COMPANIES = 2
TIMEOUT_S = 1800


def enqueue(url: str, pdfs: list[Path]) -> None:
    """``python -m cli.ingest --queue`` every file (one process, as an operator would)."""
    done = subprocess.run(
        [sys.executable, "-m", "cli.ingest", "--queue", "--json", *map(str, pdfs)],
        cwd=ROOT,
        env=worker_env(url),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    if done.returncode != 0:
        raise RuntimeError(f"--queue exited with {done.returncode}: {done.stderr[-800:]}")


def run_workers(url: str, count: int) -> float:
    """Start ``count`` workers at once; seconds until the last one exits (the queue is empty)."""
    started = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cli.ingest", "worker", "--until-idle", "--json"],
            cwd=ROOT,
            env=worker_env(url),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(count)
    ]
    outputs = [p.communicate(timeout=TIMEOUT_S) for p in procs]
    wall = time.perf_counter() - started
    for proc, (_, err) in zip(procs, outputs, strict=True):
        if proc.returncode != 0:
            raise RuntimeError(f"worker exited with {proc.returncode}: {err.strip()[-800:]}")
    return wall


def check(url: str, pdfs: int) -> dict[str, Any]:
    """Every job done after one attempt, every file once, a vector for every chunk."""
    from ingest.team import connect as pg_connect

    with pg_connect.connect(url, read_only=True) as conn:
        jobs = conn.execute("SELECT stage, attempts, worker FROM footnote_jobs").fetchall()
        docs = conn.execute("SELECT COUNT(*), COALESCE(SUM(chunks), 0) FROM footnote_documents").fetchone()
        rows, vectors = conn.execute("SELECT COUNT(*), COUNT(embedding) FROM footnote_chunks").fetchone()
    if sorted((s, a) for s, a, _ in jobs) != [("done", 1)] * pdfs:
        raise RuntimeError(f"jobs did not each run once: {sorted((s, a) for s, a, _ in jobs)}")
    if docs[0] != pdfs or not (docs[1] == rows == vectors):
        raise RuntimeError(f"{docs[0]} documents, {docs[1]} chunks listed, {rows} rows, {vectors} vectors")
    return {"chunks": int(rows), "workers_used": len({w for _, _, w in jobs})}


def run(quick: bool = False) -> dict[str, Any]:
    """Generate the filings, then alternate one and two workers, each on a fresh database."""
    from bench.filings import COMPANIES, generate
    from bench.pg_common import new_database, pg_server, server_versions

    rounds = QUICK_ROUNDS if quick else ROUNDS
    walls: dict[int, list[float]] = {1: [], 2: []}
    used: dict[int, list[int]] = {1: [], 2: []}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="footnote-bench-pg-jobs-") as tmp:
        pdfs = sorted(generate(Path(tmp), COMPANIES[:QUICK_COMPANIES] if quick else COMPANIES).pdfs)
        with pg_server() as server:
            for r in range(rounds):
                for count in (1, 2) if r % 2 == 0 else (2, 1):
                    url = new_database(server)
                    enqueue(url, pdfs)
                    walls[count].append(run_workers(url, count))
                    found = check(url, len(pdfs))
                    used[count].append(found["workers_used"])
            versions = server_versions(url)
    one, two = median(walls[1]), median(walls[2])
    result = {
        "pdfs": len(pdfs),
        "chunks": found["chunks"],
        "rounds": rounds,
        "one_worker_s": round(one, 2),
        "two_workers_s": round(two, 2),
        "one_worker_runs_s": [round(w, 2) for w in walls[1]],
        "two_workers_runs_s": [round(w, 2) for w in walls[2]],
        "ratio_one_over_two": round(one / two, 3),
        "workers_that_took_jobs_with_two": used[2],
        "load_before": [round(x, 1) for x in load_before],
        "load_after": [round(x, 1) for x in os.getloadavg()],
        "cores": os.cpu_count(),
        **versions,
    }
    return {**result, "markdown": render(result)}


def render(r: dict[str, Any]) -> str:
    """The README section body."""
    return (
        "| queue workers | wall time (median) | runs | speed-up against one worker |\n"
        "|---:|---:|---|---:|\n"
        f"| 1 | {r['one_worker_s']:.1f} s | {', '.join(f'{w:.1f}' for w in r['one_worker_runs_s'])} | 1.00x |\n"
        f"| 2 | {r['two_workers_s']:.1f} s | {', '.join(f'{w:.1f}' for w in r['two_workers_runs_s'])} | "
        f"**{r['ratio_one_over_two']:.2f}x** |\n\n"
        f"{r['pdfs']} generated 10-K-style filings (synthetic, `bench/filings`), {r['chunks']:,} chunks, "
        f"queued with `python -m cli.ingest --queue` into PostgreSQL {r.get('postgresql')} + pgvector "
        f"{r.get('pgvector')} (pgserver, a fresh database per run), then taken by one or two `python -m "
        "ingest worker --until-idle` processes started at once (default local embeddings). No job ran "
        "twice: every job of every run was done after exactly one attempt and every file stored once "
        "with a vector for each chunk; with two workers, the jobs were taken by "
        f"{', '.join(map(str, r['workers_that_took_jobs_with_two']))} distinct workers per run. Median "
        f"of {r['rounds']} runs per configuration, alternating. Load average {r['load_before'][0]} before, "
        f"{r['load_after'][0]} after, on {r['cores']} cores shared with other work (and with PostgreSQL): "
        "two workers on one machine share its cores; on two machines each would have its own."
    )
