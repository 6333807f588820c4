"""Team mode, ingestion: two ingest workers into one PostgreSQL database against one worker, the
same PDFs: wall-time ratio.

What runs: the product's command line, ``python -m cli.ingest --json PDF...`` with
FOOTNOTE_DATABASE_URL set, the default local embeddings (all-MiniLM-L6-v2 int8, ONNX) and
chunk settings, as an operator starts workers by hand. One worker gets every PDF; two workers
each get half of them (split by file size, largest first, to the lighter worker), started at
once. Each configuration writes into a fresh database of the same server (PostgreSQL 16 +
pgvector, pgserver), alternating which goes first; wall time is from starting the processes
until the last one exits, so it includes each process's imports and model load, as a worker pays
them. Afterwards every database must hold every file exactly once with the same chunks, and a
re-ingest of every file by one worker (all skipped) is timed: the fixed cost of a worker.
Inputs: the generated 10-K-style filings of bench/filings (synthetic, about 25 pages each).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import ROOT, median

ROUNDS, QUICK_ROUNDS = 3, 1
QUICK_COMPANIES = 2
WORKER_TIMEOUT_S = 900


def split(paths: list[Path], workers: int) -> list[list[Path]]:
    """paths shared among workers by size: each file, largest first, to the lightest worker."""
    groups: list[list[Path]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for path in sorted(paths, key=lambda p: (-p.stat().st_size, p.name)):
        lightest = loads.index(min(loads))
        groups[lightest].append(path)
        loads[lightest] += path.stat().st_size
    return [sorted(g) for g in groups if g]


def worker_env(url: str, provider: str = "local") -> dict[str, str]:
    """The environment of an ingest worker: this database, the embeddings (local unless a test
    asks for the fake ones), no other FOOTNOTE_ setting."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FOOTNOTE_")}
    return env | {"FOOTNOTE_DATABASE_URL": url, "FOOTNOTE_EMBEDDING_PROVIDER": provider}


def run_workers(url: str, groups: list[list[Path]], provider: str = "local") -> dict[str, Any]:
    """Start one `python -m cli.ingest --json` per group at once; seconds until the last exits, and
    the status of every file."""
    started = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "cli.ingest", "--json", *map(str, group)],
            cwd=ROOT,
            env=worker_env(url, provider),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for group in groups
    ]
    outputs = [p.communicate(timeout=WORKER_TIMEOUT_S) for p in procs]
    wall = time.perf_counter() - started
    statuses: dict[str, str] = {}
    for proc, (out, err) in zip(procs, outputs, strict=True):
        if proc.returncode != 0:
            raise RuntimeError(f"ingest worker exited with {proc.returncode}: {err.strip()[-800:]}")
        for line in out.splitlines():
            if line.startswith("{"):
                row = json.loads(line)
                statuses[Path(row["file"]).name] = row["status"]
    return {"wall_s": wall, "statuses": statuses}


def library_contents(url: str) -> list[tuple[str, int]]:
    """(file name, chunks) of every stored document, sorted; raises when chunk rows disagree."""
    from ingest.team import connect as pg_connect

    with pg_connect.connect(url, read_only=True) as conn:
        docs = conn.execute("SELECT file_name, chunks FROM footnote_documents ORDER BY file_name").fetchall()
        rows = conn.execute("SELECT COUNT(*) FROM footnote_chunks").fetchone()[0]
    if rows != sum(c for _, c in docs):
        raise RuntimeError(f"{rows} chunk rows for documents that say {sum(c for _, c in docs)}")
    return [(str(f), int(c)) for f, c in docs]


def run(quick: bool = False) -> dict[str, Any]:
    """Generate the filings, then alternate one and two workers, each into a fresh database."""
    from bench.filings import COMPANIES, generate
    from bench.pg_common import new_database, pg_server, server_versions

    rounds = QUICK_ROUNDS if quick else ROUNDS
    with tempfile.TemporaryDirectory(prefix="footnote-bench-pg-ingest-") as tmp:
        filings = generate(Path(tmp), COMPANIES[:QUICK_COMPANIES] if quick else COMPANIES)
        pdfs = sorted(filings.pdfs)
        groups = split(pdfs, 2)
        walls: dict[str, list[float]] = {"one": [], "two": []}
        reingest: list[float] = []
        contents = None
        with pg_server() as server:
            for r in range(rounds):
                order = ("one", "two") if r % 2 == 0 else ("two", "one")
                for config in order:
                    url = new_database(server)
                    done = run_workers(url, [pdfs] if config == "one" else groups)
                    if sorted(done["statuses"].values()) != ["ok"] * len(pdfs):
                        raise RuntimeError(f"{config}: not every file was added: {done['statuses']}")
                    found = library_contents(url)
                    if contents is not None and found != contents:
                        raise RuntimeError(f"{config} stored {found}, another run {contents}")
                    contents = found
                    walls[config].append(done["wall_s"])
                    if config == "one":
                        again = run_workers(url, [pdfs])
                        if set(again["statuses"].values()) != {"skipped"} or library_contents(url) != found:
                            raise RuntimeError(f"re-ingest changed the library: {again['statuses']}")
                        reingest.append(again["wall_s"])
            versions = server_versions(url)
    one, two = median(walls["one"]), median(walls["two"])
    result = {
        "pdfs": len(pdfs),
        "pages_note": "generated filings (bench/filings)",
        "chunks": sum(c for _, c in contents or []),
        "groups": [[p.name for p in g] for g in groups],
        "rounds": rounds,
        "one_worker_s": round(one, 2),
        "two_workers_s": round(two, 2),
        "one_worker_runs_s": [round(w, 2) for w in walls["one"]],
        "two_workers_runs_s": [round(w, 2) for w in walls["two"]],
        "ratio_one_over_two": round(one / two, 3),
        "reingest_skipped_s": round(median(reingest), 2),
        "cores": os.cpu_count(),
        **versions,
    }
    return {**result, "markdown": render(result)}


def render(r: dict[str, Any]) -> str:
    """The README section body."""
    sizes = " and ".join(f"{len(g)}" for g in r["groups"])
    return (
        "| workers | wall time (median) | runs | speed-up against one worker |\n"
        "|---:|---:|---|---:|\n"
        f"| 1 | {r['one_worker_s']:.1f} s | {', '.join(f'{w:.1f}' for w in r['one_worker_runs_s'])} | 1.00x |\n"
        f"| 2 | {r['two_workers_s']:.1f} s | {', '.join(f'{w:.1f}' for w in r['two_workers_runs_s'])} | "
        f"**{r['ratio_one_over_two']:.2f}x** |\n\n"
        f"{r['pdfs']} generated 10-K-style filings (synthetic, `bench/filings`), {r['chunks']:,} chunks, into "
        f"PostgreSQL {r.get('postgresql')} + pgvector {r.get('pgvector')} (pgserver, one server, a fresh "
        "database per run), through the product's command line `python -m cli.ingest --json PDF...` with "
        "FOOTNOTE_DATABASE_URL set and the default local embeddings (all-MiniLM-L6-v2 int8). One worker "
        f"takes every file; two workers, started at once, take {sizes} of them (split by file size). Wall "
        "time runs from starting the processes to the last exit (imports and model load included, as a "
        f"worker pays them); median of {r['rounds']} runs, the two configurations alternating. Every run "
        "stored every file exactly once with the same chunks. A second pass of one worker over the same "
        f"files (all skipped: re-ingest is a no-op) took {r['reingest_skipped_s']:.1f} s, the fixed cost "
        f"of a worker process. On {r['cores']} cores embedding is CPU-bound, so two workers on one "
        "machine share the same cores; on two machines each would have its own."
    )
