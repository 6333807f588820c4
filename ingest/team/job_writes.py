"""The writes an ingestion job of a team library makes into it (ingest.team.jobs): its words, its
vectors, or the removal of its words when it fails or is cancelled, each in one transaction that
locks the job's row and checks this worker's attempt still holds it. PgJobs is the queue and takes
these from PgJobWrites.
"""

from __future__ import annotations

import numpy as np

from ingest.jobs import (
    CANCELLED,
    DONE,
    EMBEDDING,
    Job,
    JobLost,
    now_text,
    outcome,
)
from ingest.prepare import PreparedWords
from ingest.team import read as pg_read
from ingest.team import store as pg_store
from ingest.types import Chunk, Document


class PgJobWrites:
    """A team library's job writes; PgJobs supplies ``library``, ``_connect`` and ``_write_transaction``."""

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
