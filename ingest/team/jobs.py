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

from dataclasses import replace
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
from ingest.team.job_writes import PgJobWrites

_CLAIM = f"""
UPDATE footnote_jobs SET stage = CASE WHEN stage = %(queued)s THEN %(reading)s ELSE stage END,
    worker = %(worker)s, attempts = attempts + 1, updated_at = %(now)s,
    lease_until = now() + make_interval(secs => %(lease)s)
WHERE job_id = (
    SELECT job_id FROM footnote_jobs
    WHERE stage = %(queued)s OR (stage = ANY(%(running)s) AND lease_until < now())
    ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED
) RETURNING {JOB_COLUMNS}
"""


class PgJobs(PgJobWrites):
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
                f"SELECT {JOB_COLUMNS} FROM footnote_jobs ORDER BY stage <> ALL(%s), "
                "CASE WHEN stage = ANY(%s) THEN seq ELSE -seq END LIMIT %s",
                (list(ACTIVE), list(ACTIVE), limit),
            ).fetchall()
        return [job_from_row(r) for r in rows]

    def get(self, job_id: str) -> Job | None:
        """One job, or None."""
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {JOB_COLUMNS} FROM footnote_jobs WHERE job_id = %s", (job_id,)
            ).fetchone()
        return job_from_row(row) if row else None

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
        return job_from_row(row) if row else None

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

    def touch(
        self,
        job: Job,
        lease_s: float,
        done: int | None = None,
        total: int | None = None,
        note: str | None = None,
    ) -> bool:
        """Renew the lease (and record progress, and the running job's ``note``: ingest.jobs.BY_OCR or
        ""); JobLost when another worker holds the job, or it has ended (a finished row is final: a
        late heartbeat, waiting on the row's lock while the outcome commits, then matches nothing).
        Returns whether a cancel was asked for."""
        holder = (job.job_id, job.worker, job.attempts)
        with self._connect() as conn:
            row = conn.execute(
                "UPDATE footnote_jobs SET lease_until = now() + make_interval(secs => %s), updated_at = %s, "
                "done = COALESCE(%s, done), total = COALESCE(%s, total), message = COALESCE(%s, message) "
                "WHERE job_id = %s AND worker = %s AND attempts = %s AND stage <> ALL(%s) RETURNING cancel",
                (lease_s, now_text(), done, total, note, *holder, list(FINISHED)),
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
