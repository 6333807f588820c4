"""Ingestion jobs in PostgreSQL with real worker processes: two workers share the queue without
taking one job twice, a worker that stops renewing its lease has its job taken over (and writes
nothing when it wakes up), words are searchable before vectors, bad inputs fail their own job, and
a finished job's row is final (tests/ingest/test_job_outcome.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import psycopg
import pytest

from ingest.embeddings import GatedEmbeddings, HashEmbeddings
from ingest.team.library import PgLibrary
from ingest.worker import Worker
from tests.ingest.pdfs import long_pages, make_image_pdf, make_pdf
from tests.ingest.test_job_outcome import (
    FailingSecondBatch,
    check_a_late_progress_note_never_replaces_the_outcome,
    check_a_stale_heartbeat_cannot_touch_a_finished_job,
)
from tests.ingest.test_jobs import wait_for

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = {"embedding_name": "fake:hash:384", "chunk_size": 300, "chunk_overlap": 30, "batch_size": 4}


def _pdf(n: int) -> bytes:
    return make_pdf(
        long_pages(3, words=f"Report {n} counts the harbour cranes of port {n}. "), title=f"Port {n}"
    )


def _library(url: str, embeddings=None) -> PgLibrary:
    return PgLibrary.open(url, embeddings or HashEmbeddings(), **OPTIONS)


def _worker(url: str, *extra: str, gate: Path | None = None) -> subprocess.Popen:
    env = os.environ | {
        "FOOTNOTE_DATABASE_URL": url,
        "FOOTNOTE_EMBEDDING_PROVIDER": "fake",
        "FOOTNOTE_CHUNK_SIZE": "300",
        "FOOTNOTE_CHUNK_OVERLAP": "30",
        "FOOTNOTE_EMBED_BATCH_SIZE": "4",
    }
    if gate is not None:
        env["FOOTNOTE_FAKE_EMBED_GATE"] = str(gate)
    return subprocess.Popen(
        [sys.executable, "-m", "cli.ingest", "worker", "--until-idle", "--json", *extra],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _rows_equal_vectors(url: str) -> None:
    with psycopg.connect(url) as conn:
        chunks, vectors = conn.execute("SELECT COUNT(*), COUNT(embedding) FROM footnote_chunks").fetchone()
        listed = conn.execute("SELECT COALESCE(SUM(chunks), 0) FROM footnote_documents").fetchone()[0]
        statuses = {r[0] for r in conn.execute("SELECT status FROM footnote_documents")}
    assert chunks == vectors == listed > 0 and statuses == {"ready"}


def test_two_workers_take_each_job_once(pg_url: str) -> None:
    library = _library(pg_url)
    files = [_pdf(n) for n in range(6)]
    jobs = [library.jobs.enqueue(data, f"port{n}.pdf") for n, data in enumerate(files)]
    jobs.append(library.jobs.enqueue(files[0], "port0-again.pdf"))  # the same file queued twice
    workers = [_worker(pg_url), _worker(pg_url)]
    outputs = [w.communicate(timeout=300) for w in workers]
    for worker, (_, err) in zip(workers, outputs):
        assert worker.returncode == 0, err
    ran = [line for out, _ in outputs for line in out.splitlines()]
    assert sorted(json.loads(line)["job_id"] for line in ran) == sorted(j.job_id for j in jobs)
    ended = [library.jobs.get(j.job_id) for j in jobs]
    assert [j.attempts for j in ended] == [1] * 7  # no job ran twice
    assert [j.stage for j in ended] == ["done"] * 7
    names = sorted(d.file_name for d in library.documents())
    assert len(names) == 6 and names[1:] == [f"port{n}.pdf" for n in range(1, 6)]
    assert names[0] in ("port0.pdf", "port0-again.pdf")  # whichever worker stored it first
    assert [ended[0].message, ended[-1].message].count("already in the library") == 1
    assert "already in the library" not in [j.message for j in ended[1:-1]]
    _rows_equal_vectors(pg_url)


def test_a_job_whose_lease_ran_out_is_taken_over_and_its_first_worker_writes_nothing(
    pg_url: str, tmp_path: Path
) -> None:
    gate = tmp_path / "gate"
    library = _library(pg_url)
    job = library.jobs.enqueue(_pdf(1), "port1.pdf")
    first = _worker(pg_url, "--lease-seconds", "2", gate=gate)
    try:
        wait_for(lambda: library.vector_progress().get(job.doc_id), "the first worker's first vectors")
        first.send_signal(signal.SIGSTOP)  # frozen: alive (so not "gone"), but renewing nothing
        second = _worker(pg_url, "--lease-seconds", "2", gate=gate)
        wait_for(lambda: library.jobs.get(job.job_id).attempts == 2, "the lease to run out and a takeover")
        gate.touch()
        _, err = second.communicate(timeout=120)
        assert second.returncode == 0, err
    finally:
        gate.touch()
        first.send_signal(signal.SIGCONT)
    _, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    assert "taken over by another worker" in err
    ended = library.jobs.get(job.job_id)
    assert ended.stage == "done" and ended.attempts == 2 and ended.worker != ""
    assert [d.file_name for d in library.documents()] == ["port1.pdf"]
    _rows_equal_vectors(pg_url)


def test_words_first_then_vectors_on_postgres(pg_url: str, tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    library = _library(pg_url, GatedEmbeddings(gate))
    job = library.jobs.enqueue(_pdf(7), "port7.pdf")
    worker = Worker(library, poll_s=0.05).start()
    try:
        wait_for(lambda: library.vector_progress().get(job.doc_id), "the first batch of vectors")
        reader = PgLibrary.open_reader(pg_url, HashEmbeddings(), **OPTIONS)
        assert [d.file_name for d in reader.documents()] == ["port7.pdf"]
        assert reader.lexical_search("cranes of port 7", 3)[0][0].doc_id == job.doc_id
        query = reader.embeddings.embed_query("harbour cranes of port 7")
        assert reader.search_vector(query, 3) == []  # no vector yet
    finally:
        gate.touch()
    wait_for(lambda: not library.jobs.get(job.job_id).active, "the job to finish")
    worker.stop()
    assert reader.search_vector(query, 3)[0][0].doc_id == job.doc_id
    _rows_equal_vectors(pg_url)


def test_bad_inputs_fail_their_own_job_on_postgres(pg_url: str) -> None:
    library = _library(pg_url)
    good = library.jobs.enqueue(_pdf(2), "good.pdf")
    scan = library.jobs.enqueue(make_image_pdf(), "scan.pdf")
    junk = library.jobs.enqueue(b"%PDF-1.7 truncated", "junk.pdf")
    thread = threading.Thread(target=Worker(library).run, kwargs={"until_idle": True}, daemon=True)
    thread.start()
    thread.join(120)
    assert library.jobs.get(good.job_id).stage == "done"
    assert library.jobs.get(scan.job_id).message == (
        "scan.pdf: has no text layer (scanned or image-only; OCR is not done)"
    )
    assert library.jobs.get(junk.job_id).message.startswith("junk.pdf: is damaged or truncated")
    assert [d.file_name for d in library.documents()] == ["good.pdf"]
    _rows_equal_vectors(pg_url)


def test_a_late_progress_note_never_replaces_the_outcome_on_postgres(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    embeddings = FailingSecondBatch()
    library = _library(pg_url, embeddings)
    check_a_late_progress_note_never_replaces_the_outcome(library, embeddings, monkeypatch)


def test_a_stale_heartbeat_cannot_touch_a_finished_job_on_postgres(pg_url: str) -> None:
    check_a_stale_heartbeat_cannot_touch_a_finished_job(_library(pg_url))
