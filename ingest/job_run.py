"""One attempt at one ingestion job (ingest.worker runs it): its progress reports, written by a
heartbeat thread that also renews the job's lease, and the exceptions that stop it."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from ingest.jobs import BY_OCR, EMBEDDING, Job, JobCancelled, JobLost, JobStopped
from ingest.types import IngestProgress

log = logging.getLogger(__name__)
REPORT_EVERY_S = 0.5  # progress is written at most this often (each write is a transaction)
THREAD_NAME = "footnote-ingest-worker"


class JobRun:
    """One attempt at one job: records its progress, which a heartbeat thread writes at most every
    REPORT_EVERY_S (and at each change of stage, at once) while renewing the lease, and raises
    JobCancelled or JobLost from the next report once either happened."""

    def __init__(self, jobs: Any, job: Job, lease_s: float, stopping: threading.Event | None = None) -> None:
        self.jobs, self.job, self.lease_s = jobs, job, lease_s
        self._stage, self._note, self._last = job.stage, "", time.monotonic()
        self._pending: tuple[int, int, str] | None = None  # progress (and its note) not written yet
        self._lock = threading.Lock()
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
        with self._lock:
            pending, self._pending = self._pending, None
        self._last = time.monotonic()
        done, total, note = pending if pending is not None else (None, None, None)
        try:
            if self.jobs.touch(self.job, self.lease_s, done, total, note):
                self._problem = JobCancelled(self.job.job_id)
        except JobLost as exc:
            self._problem = exc
        except Exception:  # a database hiccup: the next beat tries again
            log.warning("could not record the progress of %s", self.job.file_name, exc_info=True)


class WorkerStopping(JobStopped):
    """The worker is being stopped: the job is left for the next claim, at once."""
