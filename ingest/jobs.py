"""Ingestion jobs: the vocabulary shared by both backends (ingest.local.jobs, ingest.team.jobs) and the
worker (ingest.worker).

A job is one file added to the library. Its stages: ``queued`` (the file is stored, nobody has
taken it), ``reading`` (a worker reads and chunks it), ``embedding`` (its pages and chunks are
in the library, searchable by words; the worker embeds them), then one of ``done``, ``failed``
(with the one-sentence reason ingest.errors gives) or ``cancelled``. A worker holds a job it took
until ``lease_until``, renewing the lease while it works; a job whose lease ran out, or whose
worker's process is gone from this machine, is taken again by the next claim, from its stored
file (or, once its words are in, from its stored chunks). Every write a worker makes for a job
checks, in the same transaction, that it still holds it (same worker, same attempt), so a job
ends exactly once. ``JobRun`` is one attempt at a job as a worker (ingest.worker) runs it: its
progress reports, written by a heartbeat thread that also renews the lease.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ingest.pdf.reader import read_pdf
from ingest.types import IngestProgress

log = logging.getLogger(__name__)

QUEUED, READING, EMBEDDING, DONE, FAILED, CANCELLED = (
    "queued",
    "reading",
    "embedding",
    "done",
    "failed",
    "cancelled",
)
RUNNING = (READING, EMBEDDING)
ACTIVE = (QUEUED, *RUNNING)
FINISHED = (DONE, FAILED, CANCELLED)
# How long a worker holds a job without renewing it before another may take it. Renewed every
# quarter of it while the job runs (and on every progress report), so only a worker that is gone
# or frozen that long loses it; a worker on this machine whose process is gone loses it at once.
LEASE_S = 60.0
REPORT_EVERY_S = 0.5  # progress is written at most this often (each write is a transaction)
THREAD_NAME = "footnote-ingest-worker"
ALREADY_STORED = "already in the library"
# A running job's message while OCR reads its pages (its done and total then count those pages), so
# the job list can say "Reading pages by OCR (12 of 500)"; cleared by its next progress of another kind.
BY_OCR = "by OCR"


@dataclass(frozen=True)
class Job:
    """One file being added: where it is, how far, and who holds it (as of when it was read)."""

    job_id: str
    doc_id: str  # the content id of the file as uploaded (sha256 of its bytes)
    file_name: str
    size_bytes: int
    stage: str
    done: int = 0  # units of the current stage: pages while reading, chunks while embedding
    total: int = 0
    message: str = ""  # the outcome: "12 pages, 40 chunks", ALREADY_STORED, or the failure sentence;
    # while running, BY_OCR when OCR is reading its pages
    error: str = ""  # the failure's kind (an ingest.errors class name), for a UI that offers a fix
    created_at: str = ""
    updated_at: str = ""
    attempts: int = 0  # how many times a worker took it (more than one: taken over after a crash)
    worker: str = ""
    cancel: bool = False  # asked to stop; the worker holding it stops at its next report

    @property
    def active(self) -> bool:
        """Queued or running."""
        return self.stage in ACTIVE

    @property
    def fraction(self) -> float:
        """How far the current stage is, 0..1 (1 once finished)."""
        if self.stage in FINISHED:
            return 1.0
        return min(1.0, self.done / self.total) if self.total else 0.0


class JobStopped(Exception):
    """A running job must stop here (raised from its progress reports)."""


class JobCancelled(JobStopped):
    """Someone asked to cancel the job."""


class JobLost(JobStopped):
    """The worker no longer holds the job (its lease ran out and another worker took it)."""


def new_job_id() -> str:
    """A fresh random job id (jobs are events, not content: the same file may be queued twice)."""
    return uuid.uuid4().hex


def worker_name() -> str:
    """This process's worker id: host, process id and a random tag (process ids are reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def gone_from_this_host(worker: str) -> bool:
    """Whether ``worker`` (a worker_name) ran on this machine in a process that no longer exists."""
    host, _, rest = worker.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    try:
        os.kill(int(pid_text), 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except PermissionError:  # exists, under another user
        return False
    return False


def outcome(pages: int, chunks: int, warnings: tuple[str, ...]) -> str:
    """A finished job's message: what was added."""
    text = f"{pages} pages, {chunks} chunks"
    return text + (" (" + "; ".join(warnings) + ")" if warnings else "")


# The columns of a job's row, in Job's field order: both backends select them so, for job_from_row.
JOB_COLUMNS = (
    "job_id, doc_id, file_name, size_bytes, stage, done, total, message, error, created_at, "
    "updated_at, attempts, worker, cancel"
)


def job_from_row(row: tuple) -> Job:
    """A Job from a row of JOB_COLUMNS (either backend's: cancel is an integer in SQLite)."""
    return Job(*row[:13], bool(row[13]))


def now_text() -> str:
    """The time now, as jobs record it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def unlock_for_queue(data: bytes, file_name: str, password: str | None) -> bytes:
    """What a queued file stores: the bytes as given, or their decrypted copy when a password is
    given (the password itself is never stored); IngestError when it is wrong."""
    if not password:
        return data
    return read_pdf(data, file_name, password=password).unlocked or data


class JobRun:
    """One attempt at one job: records its progress, which a heartbeat thread writes at most every
    REPORT_EVERY_S (and at each change of stage, at once) while renewing the lease, and raises
    JobCancelled or JobLost from the next report once either happened. ``end`` comes before the
    job's outcome is written: no progress is written after it, so none can replace the outcome."""

    def __init__(self, jobs: Any, job: Job, lease_s: float, stopping: threading.Event | None = None) -> None:
        self.jobs, self.job, self.lease_s = jobs, job, lease_s
        self._stage, self._note, self._last = job.stage, "", time.monotonic()
        self._pending: tuple[int, int, str] | None = None  # progress (and its note) not written yet
        self._lock = threading.Lock()
        self._writing = threading.Lock()  # one write at a time, so end() waits for one in flight
        self._ended = False
        self._stop = threading.Event()
        self._stopping = stopping or threading.Event()
        self._problem: JobStopped | None = JobCancelled(job.job_id) if job.cancel else None
        self._beat = threading.Thread(target=self._heartbeat, name=f"{THREAD_NAME}-lease", daemon=True)
        self._beat.start()

    def report(self, progress: IngestProgress) -> None:
        """A progress callback for prepare_words and embed_chunks."""
        if self._stopping.is_set():
            raise WorkerStopping(self.job.job_id)
        if self._problem is not None:
            raise self._problem
        stage = EMBEDDING if progress.stage in ("embed", "index") else self._stage
        note = BY_OCR if progress.stage == "ocr" else ""
        with self._lock:
            self._pending = (progress.done, progress.total, note)
            changed = (stage, note) != (self._stage, self._note)
            self._stage, self._note = stage, note
        if changed:  # the page shows "embedding" (or "by OCR") from the moment it is
            self._flush()
        if self._problem is not None:
            raise self._problem

    def checkpoint(self) -> None:
        """Write the progress now and raise if the job was cancelled or lost (before a commit)."""
        self._flush()
        if self._problem is not None:
            raise self._problem

    def end(self) -> None:
        """The outcome is about to be written: progress not written yet is dropped, and a write in
        flight lands first. The heartbeat goes on renewing the lease only (the outcome may wait
        for the library's write lock longer than a lease), until ``stop``."""
        with self._writing:
            self._ended = True

    def stop(self) -> None:
        """End the heartbeat."""
        self._stop.set()
        self._beat.join(timeout=10)

    def _heartbeat(self) -> None:
        # Pages come by the hundred a second and fake embeddings by the thousand: each report is
        # only recorded, and written here (a write per batch cost the queue 10% on 24 filings).
        while not self._stop.wait(REPORT_EVERY_S):
            if self._pending is not None or time.monotonic() - self._last >= self.lease_s / 4:
                self._flush()

    def _flush(self) -> None:
        with self._writing:
            with self._lock:
                pending, self._pending = self._pending, None
            self._last = time.monotonic()
            if pending is None or self._ended:
                pending = (None, None, None)
            try:
                if self.jobs.touch(self.job, self.lease_s, *pending):
                    self._problem = JobCancelled(self.job.job_id)
            except JobLost as exc:
                self._problem = exc
            except Exception:  # a database hiccup: the next beat tries again
                log.warning("could not record the progress of %s", self.job.file_name, exc_info=True)


class WorkerStopping(JobStopped):
    """The worker is being stopped: the job is left for the next claim, at once."""
