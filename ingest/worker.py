"""The ingestion worker: takes jobs one by one from a library's queue (local or PostgreSQL) and
runs each: read and chunk, store the words (searchable at once), embed, store the vectors.

One worker per process serves a library: the app starts it in a thread once per server process
(components/shared/resources.py), ``python -m cli.ingest worker`` runs it in the foreground. A worker runs
``at_once`` jobs at a time, one loop each (the settings' worker_jobs, 2: a short upload queued
behind a long scan is added while the scan is read; README.md says why a second loop and not a
priority). Any number of workers may serve one library; the queue (ingest.local.jobs,
ingest.team.jobs) gives each job to one loop, and takes it back when its worker stops renewing the lease.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any

from ingest.errors import IngestError, LibraryError, UnreadableText
from ingest.jobs import (
    ALREADY_STORED,
    CANCELLED,
    DONE,
    EMBEDDING,
    FAILED,
    LEASE_S,
    THREAD_NAME,
    Job,
    JobCancelled,
    JobLost,
    JobRun,
    WorkerStopping,
    worker_name,
)
from ingest.pdf import page_pool
from ingest.prepare import prepare_words
from ingest.types import IngestProgress

log = logging.getLogger(__name__)
# What a job's row says when something of ours failed: the user reads no exception, the log has it.
INTERNAL_FAILURE = "could not be added because of an internal error (the server log has the details)"
IDLE_POLL_S = 1.0  # how often an idle worker looks for a job another process queued
OPEN_RETRY_S = 10.0  # a worker that could not open its library tries again after this long
# The app's worker embeds at this niceness: embedding in the background yields the cores to the
# questions asked meanwhile. On the 549-page PepsiCo 10-K (load 15, the same machine and hour as
# bench jobs), from its words stored to the first cited answer: 13.0 s at the same priority,
# 4.8 and 6.3 s with the whole worker thread niced.
BACKGROUND_NICENESS = 10


def run_job(
    library: Any,
    job: Job,
    lease_s: float = LEASE_S,
    stopping: threading.Event | None = None,
    niceness: int = 0,
) -> Job | None:
    """Run one claimed job to its end (done, failed or cancelled); returns it as it ended, or None
    when another worker took it over meanwhile or ``stopping`` was set (it is then released)."""
    jobs = library.jobs
    run = JobRun(jobs, job, lease_s, stopping)
    try:
        _attempt(library, job, run, niceness)
    except WorkerStopping:
        jobs.release(job)
        return None
    except JobCancelled:
        _finish(jobs, job, run, CANCELLED, "cancelled")
    except JobLost:
        log.warning("%s was taken over by another worker", job.file_name)
        return None
    except IngestError as exc:  # bad input or a failing embedding endpoint: this job's sentence
        _finish(jobs, job, run, FAILED, exc.message, type(exc).__name__)
    except UnicodeError:  # text ingest.text did not make valid: the file's problem, said as one
        log.exception("the ingest job of %s failed on its text", job.file_name)
        _finish(jobs, job, run, FAILED, UnreadableText(job.file_name).message, UnreadableText.__name__)
    except Exception:  # an internal failure must not stop the worker or the other jobs
        log.exception("the ingest job of %s failed", job.file_name)
        _finish(jobs, job, run, FAILED, f"{job.file_name}: {INTERNAL_FAILURE}", "")
    finally:
        run.stop()
    return jobs.get(job.job_id)


def embed_niced(embed: Callable[[], Any], niceness: int) -> Any:
    """``embed()`` in a thread of its own at a lower CPU priority (the threads it starts inherit
    it, on Linux), re-raising what it raised; called as is when ``niceness`` is 0."""
    if not niceness or not hasattr(os, "setpriority"):
        return embed()
    outcome: dict[str, Any] = {}

    def niced() -> None:
        try:  # on Linux a thread id here names only this thread
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), niceness)
        except OSError:
            log.warning("could not lower the priority of the ingest embedding", exc_info=True)
        try:
            outcome["value"] = embed()
        except BaseException as exc:  # JobStopped from a report, IngestError, anything: re-raised
            outcome["error"] = exc

    thread = threading.Thread(target=niced, name=f"{THREAD_NAME}-embed", daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def _attempt(library: Any, job: Job, run: JobRun, niceness: int = 0) -> None:
    jobs = library.jobs
    run.report(IngestProgress(job.file_name, "read", 0, 0))
    chunks = None
    if job.stage == EMBEDDING:  # taken over after its words were stored: embed its stored chunks
        status, chunks = jobs.stored_chunks(job)
        if status is None:
            _finish(jobs, job, run, CANCELLED, "deleted from the library while it was being added")
            return
        if status != EMBEDDING:  # a re-index embedded it meanwhile
            _finish(jobs, job, run, DONE, "added (embedded by a re-index)")
            return
    if chunks is None:
        data = jobs.read_file(job)
        words = prepare_words(library.config, data, job.file_name, None, run.report, doc_id=job.doc_id)
        run.checkpoint()
        if jobs.store_words(job, words) is not None:
            _finish(jobs, job, run, DONE, ALREADY_STORED)
            return
        chunks = words.chunks
    matrix = embed_niced(lambda: library.embed_chunks(job.file_name, chunks, run.report), niceness)
    run.report(IngestProgress(job.file_name, "index", len(chunks), len(chunks)))
    run.checkpoint()
    run.end()
    jobs.store_vectors(job, chunks, matrix)  # and the outcome: done


def _finish(jobs: Any, job: Job, run: JobRun, stage: str, message: str, error: str = "") -> None:
    run.end()  # no progress lands after the outcome: it would replace the outcome's message
    try:
        jobs.finish(job, stage, message, error)
    except JobLost:
        log.warning("%s was taken over by another worker before it ended", job.file_name)


class Worker:
    """Takes jobs from one library until stopped, ``at_once`` at a time: ``run`` in the foreground,
    ``start`` in a thread. Given an ``opener`` instead of a library, it opens the library itself, in
    its own thread, and again after OPEN_RETRY_S while that fails (busy, to be re-indexed): the app
    never waits for it."""

    def __init__(
        self,
        library: Any = None,
        *,
        opener: Callable[[], Any] | None = None,
        lease_s: float = LEASE_S,
        poll_s: float = IDLE_POLL_S,
        at_once: int = 1,
    ) -> None:
        self.library, self._opener, self.lease_s, self.poll_s = library, opener, lease_s, poll_s
        self.at_once = max(1, at_once)
        self.name = worker_name()  # one name for all its loops: the queue's leases name the process
        self.niceness = 0
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> Job | None:
        """Claim one job and run it; None when there was nothing to do."""
        jobs = self.library.jobs
        jobs.release_dead()
        job = jobs.claim(self.name, self.lease_s)
        if job is None:
            return None
        log.info("%s: %s (attempt %d)", self.name, job.file_name, job.attempts)
        ended = run_job(self.library, job, self.lease_s, self._stop, self.niceness)
        return ended or job

    def run(self, *, until_idle: bool = False, on_job: Callable[[Job], None] | None = None) -> None:
        """Run jobs until stopped (or, with ``until_idle``, until none is queued or running): in this
        thread's loop and ``at_once - 1`` more, each taking the next queued job when it is free."""
        page_pool.warm()  # the first long file need not wait for the page-reading processes
        while self.library is None and not self._stop.is_set():
            self._open()
        if self.library is None:
            return
        self._sweep()  # stored copies no job needs, once, when it starts
        others = [
            threading.Thread(
                target=self._loop, args=(until_idle, on_job), name=f"{THREAD_NAME}-{n}", daemon=True
            )
            for n in range(2, self.at_once + 1)
        ]
        for thread in others:
            thread.start()
        self._loop(until_idle, on_job)
        for thread in others:
            thread.join()

    def _loop(self, until_idle: bool, on_job: Callable[[Job], None] | None) -> None:
        while not self._stop.is_set():
            try:
                job = self.run_once()
            except LibraryError as exc:  # busy, or the library went away: say so, try again later
                log.warning("the ingest worker waits: %s", exc)
                job = None
            except Exception:
                log.exception("the ingest worker hit an error; it tries again")
                job = None
            if job is not None:
                if on_job is not None:
                    on_job(job)
                continue
            if until_idle and not any(j.active for j in self.library.jobs.list()):
                return
            self._wake.wait(self.poll_s)
            self._wake.clear()

    def _sweep(self) -> None:
        try:
            self.library.jobs.sweep()
        except Exception:  # housekeeping only: the jobs still run
            log.warning("could not remove stored copies no job needs", exc_info=True)

    def _open(self) -> None:
        try:
            self.library = self._opener()
        except Exception as exc:  # IngestError (busy, re-index, damaged) or worse: said, tried again
            log.warning("the ingest worker cannot open the library yet: %s", exc)
            self._stop.wait(OPEN_RETRY_S)

    def start(self, niceness: int = 0) -> Worker:
        """Run in a daemon thread (the app's: one per server process); returns self. A positive
        ``niceness`` lowers the CPU priority of its embedding (see ``embed_niced``), so questions
        asked meanwhile go first; reading, which makes a document searchable, keeps its own."""
        self.niceness = niceness
        self._thread = threading.Thread(target=self.run, name=THREAD_NAME, daemon=True)
        self._thread.start()
        return self

    def wake(self) -> None:
        """Look for a job now (one was just queued in this process)."""
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop at the current job's next report; that job is released for the next claim."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
