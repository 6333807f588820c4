"""Ingestion jobs of a local library: rows in its SQLite (``jobs``), queued files in ``queue/``.

A job's file is written (atomically) to ``queue/<job_id>.pdf`` before its row, so every row has
its file; the file goes once the job is finished. The two writes a job makes keep the library's
crash-safe order (ingest.local.library) under its write lock, each in one transaction with the job's
own row, so the job's stage always says which of them happened:
1. words: PDF file -> document (status 'embedding'), pages, chunks and job stage 'embedding' in
   one transaction, generation bumped: searchable by words from here on;
2. vectors: index file replaced with the document's vectors -> status 'ready', generation bumped
   and job 'done' in one transaction. A crash between the two leaves vectors the next attempt
   replaces (the ids are the chunks' own), never a second copy.
Readers list 'embedding' documents and search their chunks by words; ``check`` counts their
vectors as on their way, not missing.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from ingest.errors import IngestError, ReadOnlyLibrary
from ingest.ids import doc_id_for
from ingest.jobs import (
    ACTIVE,
    ALREADY_STORED,
    CANCELLED,
    DONE,
    EMBEDDING,
    FAILED,
    QUEUED,
    READING,
    RUNNING,
    Job,
    JobLost,
    gone_from_this_host,
    new_job_id,
    outcome,
)
from ingest.local import maintenance, store, vectors
from ingest.pdf.reader import read_pdf
from ingest.prepare import PreparedWords
from ingest.types import Chunk, Document

log = logging.getLogger(__name__)
_COLUMNS = (
    "job_id, doc_id, file_name, size_bytes, stage, done, total, message, error, created_at, "
    "updated_at, attempts, worker, cancel"
)


def now_text() -> str:
    """The time now, as jobs record it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def unlock_for_queue(data: bytes, file_name: str, password: str | None) -> bytes:
    """What a queued file stores: the bytes as given, or their decrypted copy when a password is
    given (the password itself is never stored); IngestError when it is wrong."""
    if not password:
        return data
    return read_pdf(data, file_name, password=password).unlocked or data


class LocalJobs:
    """The jobs of one local library (ingest.local.library.Library), for the app, the CLI and workers."""

    def __init__(self, library: Any) -> None:
        self.library = library
        self.queue_dir = Path(library.data_dir) / "queue"

    # -- for the app and the CLI ------------------------------------------------------------

    def enqueue(self, data: bytes, file_name: str, password: str | None = None) -> Job:
        """Store the file and queue a job for it; one already in the library, or a wrong password,
        gives a job finished at once (done as already stored, or failed with its sentence)."""
        self._writable()
        job = Job(new_job_id(), doc_id_for(data), file_name, len(data), QUEUED, created_at=now_text())
        if self.library.document(job.doc_id) is not None:
            return self._insert(job, DONE, ALREADY_STORED)
        try:
            stored = unlock_for_queue(data, file_name, password)
        except IngestError as exc:
            return self._insert(job, FAILED, exc.message, type(exc).__name__)
        self.queue_dir.mkdir(exist_ok=True)
        maintenance.write_file(self._file(job), stored)
        return self._insert(job, QUEUED)

    def list(self, limit: int = 100) -> list[Job]:
        """Active jobs first (in queue order), then the latest finished ones, at most ``limit``."""
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM jobs ORDER BY stage NOT IN ({_marks(ACTIVE)}), "
                "CASE WHEN stage IN (" + _marks(ACTIVE) + ") THEN rowid ELSE -rowid END LIMIT ?",
                (*ACTIVE, *ACTIVE, limit),
            ).fetchall()
        return [_job(r) for r in rows]

    def get(self, job_id: str) -> Job | None:
        """One job, or None."""
        with self._connect() as conn:
            row = conn.execute(f"SELECT {_COLUMNS} FROM jobs WHERE job_id = ?", (job_id,)).fetchone()
        return _job(row) if row else None

    def cancel(self, job_id: str) -> bool:
        """Cancel a queued job at once, or ask the worker running one to stop; False when finished."""
        self._writable()
        with self._connect() as conn, store.transaction(conn):
            queued = conn.execute(
                "UPDATE jobs SET stage = ?, message = 'cancelled', updated_at = ? WHERE job_id = ? AND stage = ?",
                (CANCELLED, now_text(), job_id, QUEUED),
            ).rowcount
            running = conn.execute(
                f"UPDATE jobs SET cancel = 1 WHERE job_id = ? AND stage IN ({_marks(RUNNING)})",
                (job_id, *RUNNING),
            ).rowcount
        if queued:
            (self.queue_dir / f"{job_id}.pdf").unlink(missing_ok=True)
        return bool(queued or running)

    def vector_progress(self) -> dict[str, float]:
        """For each document whose words are in and whose vectors are not: the share embedded."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT d.doc_id, MAX(CASE WHEN j.stage = ? AND j.total > 0 THEN 1.0 * j.done / j.total "
                "ELSE 0 END) FROM documents d LEFT JOIN jobs j ON j.doc_id = d.doc_id "
                "WHERE d.status = ? GROUP BY d.doc_id",
                (EMBEDDING, store.EMBEDDING),
            ).fetchall()
        return {doc_id: float(share or 0.0) for doc_id, share in rows}

    # -- for workers (ingest.worker) ----------------------------------------------------------

    def claim(self, worker: str, lease_s: float) -> Job | None:
        """Take the oldest queued job, or a running one whose lease ran out; None when there is none."""
        self._writable()
        now = time.time()
        with self._connect() as conn, store.transaction(conn):
            row = conn.execute(
                f"SELECT job_id FROM jobs WHERE stage = ? OR (stage IN ({_marks(RUNNING)}) AND lease_until < ?) "
                "ORDER BY rowid LIMIT 1",
                (QUEUED, *RUNNING, now),
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                "UPDATE jobs SET stage = CASE stage WHEN ? THEN ? ELSE stage END, worker = ?, "
                "attempts = attempts + 1, lease_until = ?, updated_at = ? WHERE job_id = ?",
                (QUEUED, READING, worker, now + lease_s, now_text(), row[0]),
            )
            return _job(conn.execute(f"SELECT {_COLUMNS} FROM jobs WHERE job_id = ?", row).fetchone())

    def release_dead(self) -> int:
        """Let the next claim take, at once, running jobs whose worker's process on this machine is
        gone (killed, or the machine restarted); returns how many."""
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT job_id, worker FROM jobs WHERE stage IN ({_marks(RUNNING)})", RUNNING
            ).fetchall()
            dead = [(job_id, worker) for job_id, worker in rows if gone_from_this_host(worker)]
            for job_id, worker in dead:
                conn.execute(
                    "UPDATE jobs SET lease_until = 0 WHERE job_id = ? AND worker = ?", (job_id, worker)
                )
        return len(dead)

    def sweep(self, older_than_s: float = 3600.0) -> int:
        """Remove stored copies that no active job needs (left by a crash between writing the copy
        and its row, or before a finished job removed it); only files older than ``older_than_s``,
        so a copy being queued right now is never taken. Returns how many."""
        if not self.queue_dir.is_dir():
            return 0
        with self._connect() as conn:
            active = {
                r[0]
                for r in conn.execute(f"SELECT job_id FROM jobs WHERE stage IN ({_marks(ACTIVE)})", ACTIVE)
            }
        now, removed = time.time(), 0
        for path in self.queue_dir.iterdir():
            if path.stem not in active and now - path.stat().st_mtime > older_than_s:
                path.unlink(missing_ok=True)
                removed += 1
        return removed

    def touch(self, job: Job, lease_s: float, done: int | None = None, total: int | None = None) -> bool:
        """Renew the lease (and record progress); raises JobLost when another worker holds the job.
        Returns whether a cancel was asked for."""
        with self._connect() as conn:
            # Not worth an fsync: a progress or lease update lost to a power cut is only stale.
            conn.execute("PRAGMA synchronous=NORMAL")
            row = conn.execute(
                "UPDATE jobs SET lease_until = ?, updated_at = ?, done = COALESCE(?, done), "
                "total = COALESCE(?, total) WHERE job_id = ? AND worker = ? AND attempts = ? RETURNING cancel",
                (time.time() + lease_s, now_text(), done, total, job.job_id, job.worker, job.attempts),
            ).fetchone()
        if row is None:
            raise JobLost(job.job_id)
        return bool(row[0])

    def release(self, job: Job) -> None:
        """Give a held job back to the queue at once (its worker is stopping)."""
        with self._connect() as conn:
            conn.execute(
                "UPDATE jobs SET lease_until = 0 WHERE job_id = ? AND worker = ? AND attempts = ?",
                (job.job_id, job.worker, job.attempts),
            )

    def read_file(self, job: Job) -> bytes:
        """The job's stored file."""
        return self._file(job).read_bytes()

    def stored_chunks(self, job: Job) -> tuple[str | None, list[Chunk]]:
        """The status of the job's document, and its chunks when that is 'embedding'."""
        with self._connect() as conn:
            found = store.document(conn, job.doc_id)
            if found is None or found[1] != store.EMBEDDING:
                return (found[1] if found else None), []
            rows = conn.execute(
                "SELECT vec_id FROM chunks WHERE doc_id = ? ORDER BY ordinal", (job.doc_id,)
            ).fetchall()
            chunks = dict(store.chunks_where(conn, "vec_id", [r[0] for r in rows]))
        return store.EMBEDDING, [chunks[r[0]] for r in rows]

    def store_words(self, job: Job, words: PreparedWords) -> Document | None:
        """Write the document's file, rows and chunks (searchable by words) and move the job to
        'embedding', in one transaction; returns the document already listed instead, if any."""
        library, doc = self.library, words.doc
        with library._write_lock(), store.connect(library.db_path) as conn:
            found = store.document(conn, doc.doc_id)
            if found is not None and found[1] in store.LISTED:
                return found[0]
            library._verify_settings(conn, None)
            maintenance.write_file(library.files_dir / f"{doc.doc_id}.pdf", words.pdf)
            with store.transaction(conn):
                _hold(conn, job)
                store.delete_document(conn, doc.doc_id)  # a stale half-done row from a crash, if any
                store.insert_document(conn, doc, words.pages, store.EMBEDDING)
                store.insert_chunks(conn, words.chunks, store.take_vec_ids(conn, len(words.chunks)))
                store.bump_generation(conn)
                conn.execute(
                    "UPDATE jobs SET stage = ?, done = 0, total = ?, updated_at = ? WHERE job_id = ?",
                    (EMBEDDING, len(words.chunks), now_text(), job.job_id),
                )
        return None

    def store_vectors(self, job: Job, chunks: list[Chunk], matrix: np.ndarray) -> str:
        """Add the document's vectors, mark it ready and the job done; returns the job's message."""
        library = self.library
        with library._write_lock(), store.connect(library.db_path) as conn:
            _hold(conn, job)
            found = store.document(conn, job.doc_id)
            if found is None or found[1] != store.EMBEDDING:  # deleted meanwhile, or re-indexed
                return self._end_early(conn, job, found)
            library._verify_settings(conn, matrix.shape[1])
            ids = dict(conn.execute("SELECT chunk_id, vec_id FROM chunks WHERE doc_id = ?", (job.doc_id,)))
            vec_ids = [ids[c.chunk_id] for c in chunks]
            index = library._loaded.from_disk(conn, dim=matrix.shape[1])
            vectors.remove_vectors(index, vec_ids)  # an earlier attempt's, saved before it died
            vectors.add_vectors(index, matrix, vec_ids)
            vectors.save_index(index, library.index_path)
            doc = found[0]
            message = outcome(doc.pages, doc.chunks, doc.warnings)
            with store.transaction(conn):
                _hold(conn, job)
                store.set_status(conn, job.doc_id, store.READY)
                generation = store.bump_generation(conn)
                _finish_row(conn, job, DONE, message)
            library.use_index(index, generation)
        self._file(job).unlink(missing_ok=True)
        return message

    def finish(self, job: Job, stage: str, message: str, error: str = "") -> None:
        """End a job that failed or was cancelled, removing what it had added (its words)."""
        library = self.library
        with library._write_lock(), store.connect(library.db_path) as conn:
            found = store.document(conn, job.doc_id)
            ours = job.stage == EMBEDDING or _stage(conn, job) == EMBEDDING
            vec_ids: list[int] = []
            with store.transaction(conn):
                _hold(conn, job)
                if ours and found is not None and found[1] == store.EMBEDDING:
                    vec_ids = store.delete_document(conn, job.doc_id)
                    store.bump_generation(conn)
                _finish_row(conn, job, stage, message, error)
            if vec_ids:
                index = vectors.load_index(library.index_path)
                if index is not None and vectors.remove_vectors(index, vec_ids):
                    library.save_index(conn, index)
                (library.files_dir / f"{job.doc_id}.pdf").unlink(missing_ok=True)
        self._file(job).unlink(missing_ok=True)

    # -- internals ---------------------------------------------------------------------------

    def _end_early(self, conn, job: Job, found: tuple[Document, str] | None) -> str:
        if found is None:
            stage, message = CANCELLED, "deleted from the library while it was being added"
        else:
            stage, message = DONE, outcome(found[0].pages, found[0].chunks, found[0].warnings)
        with store.transaction(conn):
            _hold(conn, job)
            _finish_row(conn, job, stage, message)
        self._file(job).unlink(missing_ok=True)
        return message

    def _insert(self, job: Job, stage: str, message: str = "", error: str = "") -> Job:
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO jobs (job_id, doc_id, file_name, size_bytes, stage, message, error, created_at, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    job.job_id,
                    job.doc_id,
                    job.file_name,
                    job.size_bytes,
                    stage,
                    message,
                    error,
                    *[job.created_at] * 2,
                ),
            )
        return replace(job, stage=stage, message=message, error=error)

    def _file(self, job: Job) -> Path:
        return self.queue_dir / f"{job.job_id}.pdf"

    def _connect(self):
        return store.connect(self.library.db_path, read_only=self.library.read_only)

    def _writable(self) -> None:
        if self.library.read_only:
            raise ReadOnlyLibrary(str(self.library.data_dir))


def _hold(conn, job: Job) -> None:
    """JobLost unless this worker's attempt still holds the job (inside the caller's transaction)."""
    row = conn.execute(
        "SELECT 1 FROM jobs WHERE job_id = ? AND worker = ? AND attempts = ?",
        (job.job_id, job.worker, job.attempts),
    ).fetchone()
    if row is None:
        raise JobLost(job.job_id)


def _stage(conn, job: Job) -> str | None:
    row = conn.execute("SELECT stage FROM jobs WHERE job_id = ?", (job.job_id,)).fetchone()
    return row[0] if row else None


def _finish_row(conn, job: Job, stage: str, message: str, error: str = "") -> None:
    conn.execute(
        "UPDATE jobs SET stage = ?, message = ?, error = ?, done = CASE WHEN ? THEN total ELSE done END, "
        "lease_until = 0, updated_at = ? WHERE job_id = ?",
        (stage, message, error, stage == DONE, now_text(), job.job_id),
    )


def _marks(values: tuple[str, ...]) -> str:
    return ",".join("?" * len(values))


def _job(row) -> Job:
    (job_id, doc_id, file_name, size, stage, done, total, message, error, created, updated, attempts) = row[
        :12
    ]
    worker, cancel = row[12:]
    return Job(
        job_id,
        doc_id,
        file_name,
        size,
        stage,
        done,
        total,
        message,
        error,
        created,
        updated,
        attempts,
        worker,
        bool(cancel),
    )
