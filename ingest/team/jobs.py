"""Ingestion jobs of a team library, in PostgreSQL (``footnote_jobs``): the queued file is a bytea in
its row, stored in the same statement that queues it.

Workers on any machines claim with ``SELECT ... FOR UPDATE SKIP LOCKED`` (the oldest queued job,
or a running one whose lease ran out): two claims never take the same row, and neither waits for
the other. A queue engine (procrastinate, pgqueuer) was not used: it would bring its own tables,
migrations and worker process, while a job here must commit in the same transaction as the
library rows it writes (its words; its vectors), which one table in our own schema gives for
free. Each of a job's writes holds the library's write lock and locks the job's row, checking that
this worker's attempt still holds it; the two writes are ingest.local.jobs's, in one transaction each.
"""

from __future__ import annotations

import logging
from dataclasses import replace
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
from ingest.local.jobs import now_text, unlock_for_queue
from ingest.prepare import PreparedWords
from ingest.team import read as pg_read
from ingest.team import store as pg_store
from ingest.types import Chunk, Document

log = logging.getLogger(__name__)
_COLUMNS = (
    "job_id, doc_id, file_name, size_bytes, stage, done, total, message, error, created_at, "
    "updated_at, attempts, worker, cancel"
)
_CLAIM = f"""
UPDATE footnote_jobs SET stage = CASE WHEN stage = %(queued)s THEN %(reading)s ELSE stage END,
    worker = %(worker)s, attempts = attempts + 1, updated_at = %(now)s,
    lease_until = now() + make_interval(secs => %(lease)s)
WHERE job_id = (
    SELECT job_id FROM footnote_jobs
    WHERE stage = %(queued)s OR (stage = ANY(%(running)s) AND lease_until < now())
    ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED
) RETURNING {_COLUMNS}
"""


class PgJobs:
    """The jobs of one PostgreSQL library (ingest.team.library.PgLibrary): ingest.local.jobs's surface."""

    def __init__(self, library: Any) -> None:
        self.library = library

    # -- for the app and the CLI ------------------------------------------------------------

    def enqueue(self, data: bytes, file_name: str, password: str | None = None) -> Job:
        """Store the file in the job's row and queue it (finished at once when already stored,
        or failed with its sentence when the password is wrong)."""
        self._writable()
        job = Job(new_job_id(), doc_id_for(data), file_name, len(data), QUEUED, created_at=now_text())
        if self.library.document(job.doc_id) is not None:
            return self._insert(job, None, DONE, ALREADY_STORED)
        try:
            stored = unlock_for_queue(data, file_name, password)
        except IngestError as exc:
            return self._insert(job, None, FAILED, exc.message, type(exc).__name__)
        return self._insert(job, stored, QUEUED)

    def list(self, limit: int = 100) -> list[Job]:
        """Active jobs first (in queue order), then the latest finished ones, at most ``limit``."""
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {_COLUMNS} FROM footnote_jobs ORDER BY stage <> ALL(%s), "
                "CASE WHEN stage = ANY(%s) THEN seq ELSE -seq END LIMIT %s",
                (list(ACTIVE), list(ACTIVE), limit),
            ).fetchall()
        return [_job(r) for r in rows]

    def get(self, job_id: str) -> Job | None:
        """One job, or None."""
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM footnote_jobs WHERE job_id = %s", (job_id,)
            ).fetchone()
        return _job(row) if row else None

    def cancel(self, job_id: str) -> bool:
        """Cancel a queued job at once, or ask the worker running one to stop; False when finished."""
        self._writable()
        with self._connect() as conn, conn.transaction():
            queued = conn.execute(
                "UPDATE footnote_jobs SET stage = %s, message = 'cancelled', pdf = NULL, updated_at = %s "
                "WHERE job_id = %s AND stage = %s",
                (CANCELLED, now_text(), job_id, QUEUED),
            ).rowcount
            running = conn.execute(
                "UPDATE footnote_jobs SET cancel = true WHERE job_id = %s AND stage = ANY(%s)",
                (job_id, list(RUNNING)),
            ).rowcount
        return bool(queued or running)

    def vector_progress(self) -> dict[str, float]:
        """For each document whose words are in and whose vectors are not: the share embedded."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT d.doc_id, MAX(CASE WHEN j.stage = %s AND j.total > 0 THEN j.done::float / j.total "
                "ELSE 0 END) FROM footnote_documents d LEFT JOIN footnote_jobs j ON j.doc_id = d.doc_id "
                "WHERE d.status = %s GROUP BY d.doc_id",
                (EMBEDDING, EMBEDDING),
            ).fetchall()
        return {doc_id: float(share or 0.0) for doc_id, share in rows}

    # -- for workers (ingest.worker) ----------------------------------------------------------

    def claim(self, worker: str, lease_s: float) -> Job | None:
        """Take the oldest queued job, or a running one whose lease ran out (SKIP LOCKED)."""
        self._writable()
        params = {"queued": QUEUED, "reading": READING, "running": list(RUNNING)}
        with self._connect() as conn, conn.transaction():
            row = conn.execute(
                _CLAIM, params | {"worker": worker, "now": now_text(), "lease": lease_s}
            ).fetchone()
        return _job(row) if row else None

    def release_dead(self) -> int:
        """Let the next claim take, at once, running jobs whose worker's process on this machine is gone."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT job_id, worker FROM footnote_jobs WHERE stage = ANY(%s)", (list(RUNNING),)
            ).fetchall()
            dead = [(job_id, worker) for job_id, worker in rows if gone_from_this_host(worker)]
            for job_id, worker in dead:
                conn.execute(
                    "UPDATE footnote_jobs SET lease_until = 'epoch' WHERE job_id = %s AND worker = %s",
                    (job_id, worker),
                )
        return len(dead)

    def sweep(self) -> int:
        """Nothing to remove: a job's file is in its row, cleared when the job ends."""
        return 0

    def touch(self, job: Job, lease_s: float, done: int | None = None, total: int | None = None) -> bool:
        """Renew the lease (and record progress); JobLost when another worker holds the job.
        Returns whether a cancel was asked for."""
        with self._connect() as conn:
            row = conn.execute(
                "UPDATE footnote_jobs SET lease_until = now() + make_interval(secs => %s), updated_at = %s, "
                "done = COALESCE(%s, done), total = COALESCE(%s, total) "
                "WHERE job_id = %s AND worker = %s AND attempts = %s RETURNING cancel",
                (lease_s, now_text(), done, total, job.job_id, job.worker, job.attempts),
            ).fetchone()
        if row is None:
            raise JobLost(job.job_id)
        return bool(row[0])

    def release(self, job: Job) -> None:
        """Give a held job back to the queue at once (its worker is stopping)."""
        with self._connect() as conn:
            conn.execute(
                "UPDATE footnote_jobs SET lease_until = 'epoch' WHERE job_id = %s AND worker = %s AND attempts = %s",
                (job.job_id, job.worker, job.attempts),
            )

    def read_file(self, job: Job) -> bytes:
        """The job's stored file."""
        with self._connect() as conn:
            row = conn.execute("SELECT pdf FROM footnote_jobs WHERE job_id = %s", (job.job_id,)).fetchone()
        if row is None or row[0] is None:
            raise FileNotFoundError(f"the stored file of {job.file_name} is gone")
        return bytes(row[0])

    def stored_chunks(self, job: Job) -> tuple[str | None, list[Chunk]]:
        """The status of the job's document, and its chunks when that is 'embedding'."""
        with self._connect() as conn:
            status = _status(conn, job.doc_id)
            return status, (pg_read.chunks(conn, [job.doc_id]) if status == EMBEDDING else [])

    def store_words(self, job: Job, words: PreparedWords) -> Document | None:
        """Write the document, pages and chunks without vectors (searchable by words) and move the
        job to 'embedding', in one transaction; returns the document already stored instead."""
        library, doc = self.library, words.doc
        with self._write_transaction() as conn:
            _hold(conn, job)
            existing = pg_read.document(conn, doc.doc_id)
            if existing is not None:
                return existing
            if conn.execute("SELECT 1 FROM footnote_chunks LIMIT 1").fetchone() is None:
                pg_store.write_meta(conn, library.config.recorded())  # the first document's settings
            library._verify_settings(conn, None)
            conn.execute(
                "INSERT INTO footnote_documents (doc_id, title, file_name, pages, size_bytes, chunks, added_at, "
                "warnings, pdf, status) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (*pg_store.document_row(doc, words.pdf), EMBEDDING),
            )
            pg_store.insert_pages(conn, doc.doc_id, words.pages)
            pg_store.insert_chunks(conn, words.chunks, None)
            pg_store.bump_generation(conn)
            conn.execute(
                "UPDATE footnote_jobs SET stage = %s, done = 0, total = %s, updated_at = %s WHERE job_id = %s",
                (EMBEDDING, len(words.chunks), now_text(), job.job_id),
            )
        return None

    def store_vectors(self, job: Job, chunks: list[Chunk], matrix: np.ndarray) -> str:
        """Fill in the document's vectors, mark it ready and the job done, in one transaction."""
        with self._write_transaction() as conn:
            _hold(conn, job)
            doc = pg_read.document(conn, job.doc_id)
            status = _status(conn, job.doc_id)
            if doc is None or status != EMBEDDING:  # deleted meanwhile, or re-indexed
                stage = CANCELLED if doc is None else DONE
                message = "deleted from the library while it was being added" if doc is None else ""
                message = message or outcome(doc.pages, doc.chunks, doc.warnings)
                _finish_row(conn, job, stage, message)
                return message
            self.library._verify_settings(conn, matrix.shape[1])
            conn.cursor().executemany(
                "UPDATE footnote_chunks SET embedding = %s WHERE chunk_id = %s AND doc_id = %s",
                [(row, c.chunk_id, job.doc_id) for c, row in zip(chunks, matrix)],
            )
            conn.execute("UPDATE footnote_documents SET status = 'ready' WHERE doc_id = %s", (job.doc_id,))
            pg_store.bump_generation(conn)
            message = outcome(doc.pages, doc.chunks, doc.warnings)
            _finish_row(conn, job, DONE, message)
        return message

    def finish(self, job: Job, stage: str, message: str, error: str = "") -> None:
        """End a job that failed or was cancelled, removing what it had added (its words)."""
        with self._write_transaction() as conn:
            current = _hold(conn, job)
            if current == EMBEDDING and _status(conn, job.doc_id) == EMBEDDING:
                pg_store.delete_document(conn, job.doc_id)
                pg_store.bump_generation(conn)
            _finish_row(conn, job, stage, message, error)

    # -- internals ---------------------------------------------------------------------------

    def _insert(self, job: Job, pdf: bytes | None, stage: str, message: str = "", error: str = "") -> Job:
        with self._connect() as conn:
            conn.execute(
                "INSERT INTO footnote_jobs (job_id, doc_id, file_name, size_bytes, pdf, stage, message, error, "
                "created_at, updated_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    job.job_id,
                    job.doc_id,
                    job.file_name,
                    job.size_bytes,
                    pdf,
                    stage,
                    message,
                    error,
                    *[job.created_at] * 2,
                ),
            )
        return replace(job, stage=stage, message=message, error=error)

    def _connect(self):
        return self.library._connect()

    def _write_transaction(self):
        return self.library._write_transaction()

    def _writable(self) -> None:
        if self.library.read_only:
            raise ReadOnlyLibrary(self.library.data_dir)


def _hold(conn, job: Job) -> str:
    """The job's stage, its row locked; JobLost unless this worker's attempt still holds it."""
    row = conn.execute(
        "SELECT stage FROM footnote_jobs WHERE job_id = %s AND worker = %s AND attempts = %s FOR UPDATE",
        (job.job_id, job.worker, job.attempts),
    ).fetchone()
    if row is None:
        raise JobLost(job.job_id)
    return row[0]


def _status(conn, doc_id: str) -> str | None:
    row = conn.execute("SELECT status FROM footnote_documents WHERE doc_id = %s", (doc_id,)).fetchone()
    return row[0] if row else None


def _finish_row(conn, job: Job, stage: str, message: str, error: str = "") -> None:
    conn.execute(
        "UPDATE footnote_jobs SET stage = %s, message = %s, error = %s, pdf = NULL, lease_until = 'epoch', "
        "done = CASE WHEN %s THEN total ELSE done END, updated_at = %s WHERE job_id = %s",
        (stage, message, error, stage == DONE, now_text(), job.job_id),
    )


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
