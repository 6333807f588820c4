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

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from ingest.errors import IngestError, ReadOnlyLibrary
from ingest.ids import doc_id_for
from ingest.jobs import (
    ACTIVE,
    ALREADY_STORED,
    CANCELLED,
    DONE,
    EMBEDDING,
    FAILED,
    FINISHED,
    JOB_COLUMNS,
    QUEUED,
    READING,
    RUNNING,
    Job,
    JobLost,
    gone_from_this_host,
    job_from_row,
    new_job_id,
    now_text,
    unlock_for_queue,
)
from ingest.local import maintenance, store
from ingest.local.job_writes import JobWrites


class LocalJobs(JobWrites):
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
                f"SELECT {JOB_COLUMNS} FROM jobs ORDER BY stage NOT IN ({_marks(ACTIVE)}), "
                "CASE WHEN stage IN (" + _marks(ACTIVE) + ") THEN rowid ELSE -rowid END LIMIT ?",
                (*ACTIVE, *ACTIVE, limit),
            ).fetchall()
        return [job_from_row(r) for r in rows]

    def get(self, job_id: str) -> Job | None:
        """One job, or None."""
        with self._connect() as conn:
            row = conn.execute(f"SELECT {JOB_COLUMNS} FROM jobs WHERE job_id = ?", (job_id,)).fetchone()
        return job_from_row(row) if row else None

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
            return job_from_row(
                conn.execute(f"SELECT {JOB_COLUMNS} FROM jobs WHERE job_id = ?", row).fetchone()
            )

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

    def touch(
        self,
        job: Job,
        lease_s: float,
        done: int | None = None,
        total: int | None = None,
        note: str | None = None,
    ) -> bool:
        """Renew the lease (and record progress, and the running job's ``note``: ingest.jobs.BY_OCR or
        ""); raises JobLost when another worker holds the job, or it has ended (a finished row is
        final: a late heartbeat never replaces its outcome). Returns whether a cancel was asked for."""
        holder = (job.job_id, job.worker, job.attempts)
        with self._connect() as conn:
            # Not worth an fsync: a progress or lease update lost to a power cut is only stale.
            conn.execute("PRAGMA synchronous=NORMAL")
            row = conn.execute(
                "UPDATE jobs SET lease_until = ?, updated_at = ?, done = COALESCE(?, done), "
                "total = COALESCE(?, total), message = COALESCE(?, message) "
                f"WHERE job_id = ? AND worker = ? AND attempts = ? AND stage NOT IN ({_marks(FINISHED)}) "
                "RETURNING cancel",
                (time.time() + lease_s, now_text(), done, total, note, *holder, *FINISHED),
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


def _marks(values: tuple[str, ...]) -> str:
    return ",".join("?" * len(values))
