"""The command line of ingestion jobs: ``python -m cli.ingest --queue PATH...`` (enqueue and
return), ``python -m cli.ingest worker`` (take jobs until stopped), ``python -m cli.ingest jobs``
(list them) and ``python -m cli.ingest cancel JOB_ID``. cli.ingest dispatches here; both read the
settings the same way (cli.arguments.settings_for).

Exit status: 0 when done, 1 when a file could not be queued (or the library cannot be used),
2 on usage errors.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from cli.arguments import PROG, UsageError, settings_for
from cli.output import print_notes
from ingest.errors import IngestError
from ingest.jobs import DONE, FAILED, Job

COMMANDS = ("worker", "jobs", "cancel")
STATUS = {"queued": "queued", DONE: "skipped", FAILED: "error"}  # how --queue names a job just made


def job_record(job: Job) -> dict:
    """A job as one JSON object (the fields scripts read)."""
    return {
        "job_id": job.job_id,
        "file": job.file_name,
        "stage": job.stage,
        "done": job.done,
        "total": job.total,
        "message": job.message,
        "doc_id": job.doc_id,
        "attempts": job.attempts,
        "created_at": job.created_at,
        "updated_at": job.updated_at,
    }


def job_line(job: Job) -> str:
    """A job as one line: id, stage (with progress while running), file, outcome."""
    stage = job.stage
    if job.active and job.total:
        stage += f" {job.done}/{job.total}"
    return f"{job.job_id[:12]}  {stage:<20} {job.file_name}" + (f"  ({job.message})" if job.message else "")


def queue_files(library: Any, pdfs: list[Path], password: str | None, as_json: bool) -> int:
    """``--queue``: store each file and queue a job for it; one line (or JSON object) per file."""
    failed = 0
    for path in pdfs:
        record = {"file": str(path), "status": "error", "job_id": None, "doc_id": None, "error": None}
        try:
            job = library.jobs.enqueue(path.read_bytes(), path.name, password)
        except OSError as exc:
            record["error"] = f"{path.name}: cannot be read ({exc.strerror or exc})"
        else:
            status = STATUS.get(job.stage, job.stage)
            record.update(status=status, job_id=job.job_id, doc_id=job.doc_id)
            record["error"] = job.message if status == "error" else None
        failed += record["status"] == "error"
        if as_json:
            print(json.dumps(record, ensure_ascii=False), flush=True)
        else:
            detail = record["error"] or (f"job {record['job_id'][:12]}" if record["job_id"] else "")
            if record["status"] == "skipped":
                detail = "already in the library"
            print(f"{record['status']:<8} {record['file']}  ({detail})", flush=True)
    return 1 if failed else 0


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Arguments of ``worker``, ``jobs`` and ``cancel``."""
    parser = argparse.ArgumentParser(prog=PROG, description="Ingestion jobs.")
    commands = parser.add_subparsers(dest="command", required=True)
    worker = commands.add_parser("worker", help="take queued jobs and run them until stopped (Ctrl-C)")
    worker.add_argument("--until-idle", action="store_true", help="exit once no job is queued or running")
    worker.add_argument("--lease-seconds", type=float, help="FOOTNOTE_JOB_LEASE_S (60)")
    worker.add_argument("--jobs", type=int, help="jobs run at once, FOOTNOTE_WORKER_JOBS (2)")
    jobs = commands.add_parser("jobs", help="list jobs: running and queued first, then the latest finished")
    jobs.add_argument("--limit", type=int, default=50)
    cancel = commands.add_parser("cancel", help="cancel a queued or running job")
    cancel.add_argument("job_id", help="a job id (or the start of one, as `jobs` prints it)")
    for sub in (worker, jobs, cancel):
        sub.add_argument(
            "--data-dir", type=Path, help="library folder (default: FOOTNOTE_DATA_DIR or ./data)"
        )
        sub.add_argument("--json", action="store_true", help="one JSON object per job")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    """Run ``worker``, ``jobs`` or ``cancel``: exit 2 on a bad setting or folder, 1 when the
    library cannot be opened."""
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    try:
        settings = settings_for(args.data_dir)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        library = _open(settings, read_only=args.command == "jobs")
        if args.command == "worker":
            return _work(
                library, args, args.lease_seconds or settings.job_lease_s, args.jobs or settings.worker_jobs
            )
        if args.command == "cancel":
            return _cancel(library, args.job_id)
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for job in library.jobs.list(args.limit):
        print(json.dumps(job_record(job), ensure_ascii=False) if args.json else job_line(job))
    return 0


def _open(settings: Any, *, read_only: bool) -> Any:
    """The library for ``worker`` (a writer), ``jobs`` and ``cancel``; raises IngestError."""
    from ingest.backend import library_class
    from wiring import library_inputs, open_reader

    if read_only:
        return open_reader(settings)
    embeddings, config = library_inputs(settings)
    library = library_class(settings).open(settings.data_dir, embeddings, config=config)
    print_notes(library)
    return library


def _work(library: Any, args: argparse.Namespace, lease_s: float, at_once: int) -> int:
    import threading

    from ingest.worker import Worker

    worker = Worker(library, lease_s=lease_s, at_once=at_once)
    printing = threading.Lock()  # the worker's loops end jobs in threads of their own
    # SIGTERM (a service manager) stops as Ctrl-C does: the job running is released, not lost.
    signal.signal(signal.SIGTERM, lambda *_: worker.stop(timeout=0))
    print(f"worker {worker.name} on {library.data_dir}", file=sys.stderr, flush=True)

    def done(job: Job) -> None:
        with printing:
            print(json.dumps(job_record(job), ensure_ascii=False) if args.json else job_line(job), flush=True)

    try:
        worker.run(until_idle=args.until_idle, on_job=done)
    except KeyboardInterrupt:
        worker.stop(timeout=0)
    return 0


def _cancel(library: Any, prefix: str) -> int:
    found = [j for j in library.jobs.list(10_000) if j.job_id.startswith(prefix)]
    if len(found) != 1:
        print(
            f"error: {'no job' if not found else 'more than one job'} starts with {prefix!r}", file=sys.stderr
        )
        return 1
    if not library.jobs.cancel(found[0].job_id):
        print(f"error: {found[0].file_name} has already finished ({found[0].stage})", file=sys.stderr)
        return 1
    print(
        f"cancelled {found[0].file_name}"
        if found[0].stage == "queued"
        else f"cancelling {found[0].file_name}"
    )
    return 0
