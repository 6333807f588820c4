"""Runs one benchmark in its own process and records what happened, measured or not.

Every benchmark module offers `run(quick: bool = False) -> dict`; the dict may carry a
"markdown" string, which becomes its README section. bench/eval.py may instead offer only
`run_eval(qa_path, limit)` and `render(result)`, or only `main(argv)` (for `python -m bench eval
--qa PATH.jsonl`); then `all` runs it on the squad-dev questions. A module that is missing or
fails is recorded as such, with the reason, and the other benchmarks still run.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import time
import traceback
from dataclasses import asdict, dataclass
from typing import Any

from bench.common import CORPUS, ROOT, machine_info, run_child

RESULTS_DIR = ROOT / "bench" / "results"
DEFAULT_QA = CORPUS / "squad-dev" / "questions.jsonl"
CHILD_TIMEOUT_S = 1800
QUICK_EVAL_QUESTIONS = 10


@dataclass(frozen=True)
class Benchmark:
    """One benchmark: its command name, README title and module."""

    name: str
    title: str
    module: str
    timeout_s: float = 1800.0  # the child process's limit (CHILD_TIMEOUT_S)


BENCHMARKS = (
    Benchmark("ingest", "Ingestion: this pipeline vs the plain LangChain recipe", "bench.ingest"),
    Benchmark("retrieval", "Retrieval at scale", "bench.retrieval"),
    Benchmark("citations", "Streaming citation parsing", "bench.citations"),
    Benchmark("answer", "Answer latency (offline extractive answerer)", "bench.answer"),
    Benchmark("reopen", "Reopen: first question with the saved BM25 index vs a rebuild", "bench.reopen"),
    Benchmark("ui", "Chat page: footnote click to side panel", "bench.ui"),
    Benchmark(
        "eval", "Answer quality: squad-dev, real filings (filings-dev) and generated filings", "bench.eval"
    ),
    Benchmark(
        "ingest_filings",
        "Ingesting the 24 filings-dev filings: today beside before issue 20",
        "bench.ingest_filings",
    ),
    Benchmark(
        "ingest_filings_38",
        "Ingesting the 24 filings-dev filings with the local model: today beside before issue 38",
        "bench.ingest_filings_38",
        timeout_s=3 * 3600.0,
    ),
    Benchmark(
        "attribution", "Attribution: matching uncited sentences, flagging cited ones", "bench.attribution"
    ),
    Benchmark(
        "local_model", "A real local model in the loop (llama.cpp server, SmolLM2-135M)", "bench.local_model"
    ),
    Benchmark(
        "answer_check", "Answer check: declining what the documents do not answer", "bench.answer_check"
    ),
    Benchmark(
        "check_rules",
        "Answer check, rule by rule: each rule turned off alone",
        "bench.check_rules",
        3 * 3600.0,  # 1,400 questions retrieved on 2 shared cores, then answered up to 21 times
    ),
    Benchmark("text_layer", "Text layer: usable or mojibake (which pages OCR reads)", "bench.text_layer"),
    # OCR reads about a page in 3-10 s on these 2 cores: the 80-page scan and the squad-dev scans
    # at two resolutions alone take 20-40 minutes.
    Benchmark("ocr", "Scanned pages: OCR engines, accuracy, speed and memory", "bench.ocr", 3 * 3600),
    Benchmark("pg_calibrate", "Team mode: synthetic vectors beside real embeddings", "bench.pg_calibrate"),
    Benchmark("pg_search", "Team mode: pgvector HNSW beside the local FAISS index", "bench.pg_search"),
    Benchmark("pg_users", "Team mode: 8 users at once, 2 app processes against 1", "bench.pg_users"),
    Benchmark("pg_ingest", "Team mode: 2 ingest workers into one database against 1", "bench.pg_ingest"),
    Benchmark(
        "pg_cold",
        "Team mode: first answer after opening 100,000 chunks, PostgreSQL vs local",
        "bench.pg_cold",
    ),
    Benchmark(
        "jobs",
        "Background ingestion: a new filing answerable by words, and the queue against synchronous",
        "bench.jobs",
        4 * 3600.0,  # 4,589 pages embedded twice on 2 shared cores
    ),
    Benchmark("pg_jobs", "Team mode: 2 queue workers against 1, no job run twice", "bench.pg_jobs"),
)
BY_NAME = {b.name: b for b in BENCHMARKS}


@dataclass(frozen=True)
class Record:
    """What one benchmark run produced: status ok / missing / failed, and the result or reason."""

    name: str
    status: str
    seconds: float
    command: str
    quick: bool
    machine: dict[str, Any]
    result: dict[str, Any] | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return asdict(self)


def call_benchmark(name: str, quick: bool = False, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Child-process body: import the module and run it; a missing module is reported, not raised.
    options (such as ``million=True`` from ``--million``) go to run() as keywords."""
    bench = BY_NAME[name]
    try:
        module = importlib.import_module(bench.module)
    except ModuleNotFoundError as exc:
        if exc.name == bench.module:
            return {"status": "missing", "reason": f"{bench.module.replace('.', '/')}.py is not there yet"}
        raise
    if hasattr(module, "run"):
        return {"status": "ok", "result": module.run(quick=quick, **(options or {}))}
    if name == "eval" and hasattr(module, "run_eval"):
        return _call_run_eval(module, quick)
    if name == "eval" and hasattr(module, "main"):
        return _call_eval_main(module, quick)
    return {"status": "missing", "reason": f"{bench.module} has no run(quick) function"}


def _call_run_eval(module: Any, quick: bool) -> dict[str, Any]:
    result = module.run_eval(DEFAULT_QA, QUICK_EVAL_QUESTIONS if quick else None)
    if hasattr(module, "render"):
        result = {**result, "markdown": module.render(result)}
    return {"status": "ok", "result": result}


def _call_eval_main(module: Any, quick: bool) -> dict[str, Any]:
    if quick:
        return {"status": "missing", "reason": "bench.eval has no run(quick=True); not run with --quick"}
    argv = ["--qa", str(DEFAULT_QA)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        returned = module.main(argv)
    if isinstance(returned, dict):
        return {"status": "ok", "result": returned}
    if returned not in (None, 0):
        reason = f"bench.eval.main({argv}) returned {returned}:\n{out.getvalue()}"
        return {"status": "failed", "reason": reason}
    return {"status": "ok", "result": {"markdown": "```\n" + out.getvalue().strip() + "\n```"}}


def child_entry(name: str, quick: bool = False, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run call_benchmark and turn an exception into a failed status with its traceback tail."""
    try:
        return call_benchmark(name, quick, options)
    except Exception as exc:
        tail = "".join(traceback.format_exception(exc)[-6:])
        return {"status": "failed", "reason": f"{type(exc).__name__}: {exc}", "traceback": tail}


def run_benchmark(
    name: str,
    quick: bool,
    command: str,
    options: dict[str, Any] | None = None,
    timeout: float | None = None,
) -> Record:
    """Run one benchmark in a child process and record the outcome, crash or not (stopped after
    ``timeout`` seconds, by default the benchmark's own timeout_s)."""
    timeout = timeout or (BY_NAME[name].timeout_s if name in BY_NAME else CHILD_TIMEOUT_S)
    start = time.perf_counter()
    load_at_start = round(os.getloadavg()[0], 2)
    kwargs = {"name": name, "quick": quick} | ({"options": options} if options else {})
    try:
        outcome = run_child("bench.runner:child_entry", kwargs, timeout)
    except Exception as exc:
        outcome = {"status": "failed", "reason": f"{type(exc).__name__}: {exc}"}
    reason = outcome.get("reason")
    if outcome.get("traceback"):
        reason = f"{reason}\n{outcome['traceback']}"
    return Record(
        name=name,
        status=outcome["status"],
        seconds=round(time.perf_counter() - start, 1),
        command=command,
        quick=quick,
        machine=machine_info() | {"load_average_1m_at_start": load_at_start},
        result=outcome.get("result"),
        reason=reason,
    )


def save_record(record: Record) -> bool:
    """Keep a full run's record in bench/results/NAME.json (quick runs are never saved), unless it
    failed where a measurement is kept: a run that failed to open its library does not erase the
    last figures (it is printed, not saved). Whether it was saved."""
    RESULTS_DIR.mkdir(exist_ok=True)
    path = RESULTS_DIR / f"{record.name}.json"
    kept = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    if record.status == "failed" and kept.get("status") == "ok":
        return False
    path.write_text(json.dumps(record.to_dict(), indent=1, default=str) + "\n", encoding="utf-8")
    return True


def load_records() -> dict[str, Record]:
    """The last saved record of every benchmark that has one."""
    records = {}
    for bench in BENCHMARKS:
        path = RESULTS_DIR / f"{bench.name}.json"
        if path.exists():
            records[bench.name] = Record(**json.loads(path.read_text(encoding="utf-8")))
    return records
