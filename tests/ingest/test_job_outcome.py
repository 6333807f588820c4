"""A finished job's row is final: no progress note (ingest.jobs.JobRun's heartbeat) lands after its
outcome. The interleaving is forced, not hoped for: the heartbeat's write of a pending note is held
until the outcome is written or the run ends its progress, whichever comes first. The checks take
any library (tests/pg/test_pg_jobs.py runs them on PostgreSQL)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from ingest import worker
from ingest.embeddings import INGEST_BATCH, HashEmbeddings
from ingest.errors import EmbeddingFailed
from ingest.jobs import BY_OCR, FAILED, Job, JobLost, JobRun
from ingest.local.library import Library
from tests.ingest.test_jobs import DEADLINE_S, LONG, OPTIONS
from tests.ingest.test_library import NAME, open_library


class FailingSecondBatch(HashEmbeddings):
    """Embeds an ingest's first batch; at its second, once the heartbeat holds the progress the first
    reported (``holding``), fails as an endpoint that went away would."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = threading.Event()  # the next progress a write carries is the first batch's
        self.holding = threading.Event()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        batch = INGEST_BATCH.get()
        if batch == 0:
            self.armed.set()
        elif batch is not None:
            assert self.holding.wait(DEADLINE_S), "the heartbeat never took the pending progress"
            raise ConnectionError("the endpoint went away")
        return super().embed_documents(texts)


class HeldProgress:
    """A library's real jobs, but the first progress write once ``embeddings.armed`` is held until
    ``release`` (set when the outcome is written, or by the run ending its progress); records the
    progress writes begun after the outcome."""

    def __init__(self, jobs: Any, embeddings: FailingSecondBatch) -> None:
        self.jobs, self.embeddings = jobs, embeddings
        self.release, self.written = threading.Event(), threading.Event()
        self.late: list[tuple] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.jobs, name)

    def touch(self, job: Job, lease_s: float, done=None, total=None, note=None) -> bool:
        progress = (done, total, note)
        carries = progress != (None, None, None)  # not the lease alone
        if carries and self.embeddings.armed.is_set() and not self.embeddings.holding.is_set():
            self.embeddings.holding.set()
            assert self.release.wait(DEADLINE_S), "neither the outcome nor the end of the run came"
        if carries and self.written.is_set():
            self.late.append(progress)
        return self.jobs.touch(job, lease_s, done, total, note)

    def finish(self, job: Job, stage: str, message: str, error: str = "") -> None:
        self.jobs.finish(job, stage, message, error)
        self.written.set()
        self.release.set()


class WithJobs:
    """A library whose ``jobs`` are the given ones (run_job reads the queue through it)."""

    def __init__(self, library: Any, jobs: Any) -> None:
        self.library, self.jobs = library, jobs

    def __getattr__(self, name: str) -> Any:
        return getattr(self.library, name)


def check_a_late_progress_note_never_replaces_the_outcome(
    library: Any, embeddings: FailingSecondBatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A job fails at its second batch while the heartbeat holds the first batch's progress (a note
    of ""); the outcome is its failure sentence, and no progress write begins after it."""
    held = HeldProgress(library.jobs, embeddings)

    class Run(JobRun):  # the run ending its progress lets the held write go: it must land first
        def end(self) -> None:
            held.release.set()
            super().end()

    monkeypatch.setattr(worker, "JobRun", Run)
    job = library.jobs.enqueue(LONG, "long.pdf")
    ended = worker.run_job(WithJobs(library, held), library.jobs.claim("test-worker", 60), 60)
    expected = EmbeddingFailed("long.pdf", "the embedding endpoint could not be reached").message
    assert (ended.stage, ended.message, ended.error) == (FAILED, expected, "EmbeddingFailed")
    assert library.jobs.get(job.job_id) == ended
    assert held.late == []
    assert library.documents() == []  # its words went with it


def check_a_stale_heartbeat_cannot_touch_a_finished_job(library: Any) -> None:
    """A heartbeat's write (another worker's, or one in flight) after the outcome changes nothing."""
    job = library.jobs.enqueue(LONG, "long.pdf")
    claimed = library.jobs.claim("test-worker", 60)
    library.jobs.touch(claimed, 60, 1, 6, BY_OCR)
    library.jobs.finish(claimed, FAILED, "long.pdf: could not be read", "NoTextLayer")
    ended = library.jobs.get(job.job_id)
    assert (ended.stage, ended.message, ended.error) == (FAILED, "long.pdf: could not be read", "NoTextLayer")
    for progress in ((2, 6, BY_OCR), (None, None, "")):
        with pytest.raises(JobLost):
            library.jobs.touch(claimed, 60, *progress)
    with pytest.raises(JobLost):
        library.jobs.touch(claimed, 60)  # the lease alone
    assert library.jobs.get(job.job_id) == ended


def test_a_late_progress_note_never_replaces_the_outcome(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embeddings = FailingSecondBatch()
    library = Library.open(tmp_path, embeddings, embedding_name=NAME, **OPTIONS)
    check_a_late_progress_note_never_replaces_the_outcome(library, embeddings, monkeypatch)


def test_a_stale_heartbeat_cannot_touch_a_finished_job(tmp_path: Path) -> None:
    check_a_stale_heartbeat_cannot_touch_a_finished_job(open_library(tmp_path))
