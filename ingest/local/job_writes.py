"""The writes an ingestion job of a local library makes into it, in the crash-safe order
ingest.local.jobs describes: its words (document, pages, chunks: searchable by words), then its
vectors (document ready, job done), or, when it fails or is cancelled, the removal of its words.
LocalJobs (ingest.local.jobs) is the queue and takes these from JobWrites.
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
from ingest.local import maintenance, queries, store, vectors
from ingest.prepare import PreparedWords
from ingest.types import Chunk, Document


class JobWrites:
    """A local library's job writes; LocalJobs supplies ``library``, ``_file`` and ``_connect``."""

    def read_file(self, job: Job) -> bytes:
        """The job's stored file."""
        return self._file(job).read_bytes()

    def stored_chunks(self, job: Job) -> tuple[str | None, list[Chunk]]:
        """The status of the job's document, and its chunks when that is 'embedding'."""
        with self._connect() as conn:
            found = queries.document(conn, job.doc_id)
            if found is None or found[1] != store.EMBEDDING:
                return (found[1] if found else None), []
            rows = conn.execute(
                "SELECT vec_id FROM chunks WHERE doc_id = ? ORDER BY ordinal", (job.doc_id,)
            ).fetchall()
            chunks = dict(queries.chunks_where(conn, "vec_id", [r[0] for r in rows]))
        return store.EMBEDDING, [chunks[r[0]] for r in rows]

    def store_words(self, job: Job, words: PreparedWords) -> Document | None:
        """Write the document's file, rows and chunks (searchable by words) and move the job to
        'embedding', in one transaction; returns the document already listed instead, if any."""
        library, doc = self.library, words.doc
        with library._write_lock(), store.connect(library.db_path) as conn:
            found = queries.document(conn, doc.doc_id)
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
            found = queries.document(conn, job.doc_id)
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
            found = queries.document(conn, job.doc_id)
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
