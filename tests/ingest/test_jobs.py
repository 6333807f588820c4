"""Ingestion jobs on a real local library (SQLite, FAISS, files): queue, words first, vectors
behind, cancel, bad inputs failing their own job, the same file twice, delete while embedding."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from ingest.embeddings import GatedEmbeddings, HashEmbeddings
from ingest.jobs import Job
from ingest.local.library import Library, LibrarySettings
from ingest.local.vectors import load_index
from ingest.worker import Worker, run_job
from rag.retrieval.lexical import LexicalIndex
from tests.ingest.pdfs import long_pages, make_image_pdf, make_pdf, rewrite
from tests.ingest.test_library import NAME, open_library

OPTIONS = {"chunk_size": 300, "chunk_overlap": 30, "batch_size": 4}
LONG = make_pdf(long_pages(6, words="The harbour crane lifts containers from the quay. "), title="Harbour")
LAST_PAGE_WORDS = "Page 5 ends"
DEADLINE_S = 60.0


def wait_for(condition: Callable[[], object], what: str, timeout: float = DEADLINE_S) -> object:
    """Poll until condition() is truthy (generous deadline; never a timing assert)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def assert_consistent(library: Library) -> None:
    """Rows = vectors, every chunk of every ready document has one, nothing to repair."""
    assert library.check() == []
    index = load_index(library.index_path)
    assert (index.ntotal if index is not None else 0) == library.chunk_count()
    assert sum(d.chunks for d in library.documents()) == library.chunk_count()
    assert sorted(p.stem for p in library.files_dir.iterdir()) == sorted(
        d.doc_id for d in library.documents()
    )


def gated_library(folder: Path, gate: Path) -> Library:
    return Library.open(folder, GatedEmbeddings(gate), embedding_name=NAME, **OPTIONS)


def finished(library: Library, job: Job) -> Job | None:
    found = library.jobs.get(job.job_id)
    return found if found is not None and not found.active else None


def test_a_queued_file_is_added_once_and_consistent(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    job = library.jobs.enqueue(LONG, "long.pdf")
    assert job.stage == "queued" and (tmp_path / "queue" / f"{job.job_id}.pdf").read_bytes() == LONG
    assert library.documents() == []  # nothing is added before a worker runs it
    ran = Worker(library).run_once()
    assert ran.stage == "done" and ran.message == f"6 pages, {library.chunk_count()} chunks"
    assert ran.attempts == 1 and ran.done == ran.total == library.chunk_count()
    assert [d.file_name for d in library.documents()] == ["long.pdf"]
    assert not (tmp_path / "queue" / f"{job.job_id}.pdf").exists()  # the stored copy went when done
    assert library.pdf_bytes(job.doc_id) == LONG
    assert_consistent(library)
    assert library.vector_progress() == {}


def test_words_are_searchable_before_the_vectors_and_both_after(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    library = gated_library(tmp_path / "lib", gate)
    job = library.jobs.enqueue(LONG, "long.pdf")
    worker = Worker(library, poll_s=0.05).start()
    try:
        wait_for(lambda: library.jobs.get(job.job_id).stage == "embedding", "the words to be stored")
        progress = wait_for(
            lambda: library.vector_progress().get(job.doc_id) and library.vector_progress(),
            "the first batch of vectors",
        )
        reader = Library.open_reader(
            tmp_path / "lib", GatedEmbeddings(gate), embedding_name=NAME, chunk_size=300, chunk_overlap=30
        )
        assert [d.file_name for d in reader.documents()] == ["long.pdf"]  # listed at once
        total = library.chunk_count()
        assert 0 < progress[job.doc_id] < 1 and library.jobs.get(job.job_id).total == total
        hits = LexicalIndex.for_library(reader).search(LAST_PAGE_WORDS, 3)
        assert hits and hits[0][0].last.page_index == 5  # the last page, by words
        query = reader.embeddings.embed_query("harbour crane lifts containers")
        assert reader.search_vector(query, 3) == []  # no vector is in yet
        assert library.check() == []  # the vectors on their way are not "missing"
    finally:
        gate.touch()
    wait_for(lambda: finished(library, job), "the job to finish")
    worker.stop()
    assert library.jobs.get(job.job_id).stage == "done"
    assert reader.search_vector(query, 3)[0][0].doc_id == job.doc_id  # by meaning too, no reopen
    assert reader.vector_progress() == {}
    assert_consistent(library)


def test_bad_inputs_fail_their_own_job_with_todays_sentence_and_the_rest_carry_on(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    locked = rewrite(make_pdf(["Secret plans."]), user_password="pw")
    files = {
        "good.pdf": LONG,
        "locked.pdf": locked,
        "broken.pdf": LONG[: len(LONG) // 3],
        "scan.pdf": make_image_pdf(),
        "other.pdf": make_pdf(["A second good document about bees. " * 30]),
    }
    jobs = {name: library.jobs.enqueue(data, name) for name, data in files.items()}
    Worker(library).run(until_idle=True)
    ended = {name: library.jobs.get(job.job_id) for name, job in jobs.items()}
    assert {n: j.stage for n, j in ended.items()} == {
        "good.pdf": "done",
        "locked.pdf": "failed",
        "broken.pdf": "failed",
        "scan.pdf": "failed",
        "other.pdf": "done",
    }
    assert ended["locked.pdf"].message == "locked.pdf: is password-protected; enter its password"
    assert ended["locked.pdf"].error == "PasswordRequired"
    assert ended["broken.pdf"].message.startswith("broken.pdf: is damaged or truncated and cannot be read")
    assert ended["scan.pdf"].message == "scan.pdf: has no text layer (scanned or image-only; OCR is not done)"
    assert sorted(d.file_name for d in library.documents()) == ["good.pdf", "other.pdf"]
    assert list((tmp_path / "queue").iterdir()) == []  # failed jobs' copies are gone too
    assert_consistent(library)


def test_a_password_is_used_at_the_upload_and_never_stored(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    locked = rewrite(make_pdf(["Secret plans for the harbour."]), user_password="pw")
    wrong = library.jobs.enqueue(locked, "locked.pdf", password="nope")
    assert wrong.stage == "failed" and wrong.message.startswith("locked.pdf: the password is wrong")
    job = library.jobs.enqueue(locked, "locked.pdf", password="pw")
    assert b"pw" not in (tmp_path / "library.sqlite3").read_bytes()
    assert Worker(library).run_once().stage == "done"
    (doc,) = library.documents()
    assert doc.doc_id == job.doc_id  # named by the bytes uploaded, as a synchronous add names it
    assert "Secret plans" in library.chunks()[0].text


def test_the_same_file_queued_twice_is_added_once(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    first, second = library.jobs.enqueue(LONG, "a.pdf"), library.jobs.enqueue(LONG, "b.pdf")
    Worker(library).run(until_idle=True)
    assert library.jobs.get(first.job_id).stage == library.jobs.get(second.job_id).stage == "done"
    assert library.jobs.get(second.job_id).message == "already in the library"
    assert [d.file_name for d in library.documents()] == ["a.pdf"]
    again = library.jobs.enqueue(LONG, "c.pdf")  # once stored, the job ends at once
    assert again.stage == "done" and again.message == "already in the library"
    assert_consistent(library)


def test_cancel_a_queued_job_and_a_running_one(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    library = gated_library(tmp_path / "lib", gate)
    running = library.jobs.enqueue(LONG, "long.pdf")
    queued = library.jobs.enqueue(make_pdf(["Bees and clover. " * 40]), "bees.pdf")
    assert library.jobs.cancel(queued.job_id)
    assert library.jobs.get(queued.job_id).stage == "cancelled"
    assert not (tmp_path / "lib" / "queue" / f"{queued.job_id}.pdf").exists()
    claimed = library.jobs.claim("test-worker", 60)
    thread = threading.Thread(target=run_job, args=(library, claimed, 60), daemon=True)
    thread.start()
    try:
        wait_for(lambda: library.vector_progress().get(running.doc_id), "the first batch of vectors")
        assert library.jobs.cancel(running.job_id)
    finally:
        gate.touch()
    thread.join(DEADLINE_S)
    assert library.jobs.get(running.job_id).stage == "cancelled"
    assert library.documents() == [] and library.chunk_count() == 0  # its words went too
    assert not library.jobs.cancel(running.job_id)  # finished: nothing to cancel
    assert_consistent(library)


def test_a_document_deleted_while_embedding_ends_its_job_cancelled(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    library = gated_library(tmp_path / "lib", gate)
    job = library.jobs.enqueue(LONG, "long.pdf")
    worker = Worker(library, poll_s=0.05).start()
    wait_for(lambda: library.vector_progress().get(job.doc_id), "the first batch of vectors")
    assert library.delete(job.doc_id)
    gate.touch()
    ended = wait_for(lambda: finished(library, job), "the job to end")
    worker.stop()
    assert ended.stage == "cancelled" and ended.message == "deleted from the library while it was being added"
    assert library.documents() == []
    assert_consistent(library)


def test_a_synchronous_add_of_a_file_a_job_is_embedding_is_skipped(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    library = gated_library(tmp_path / "lib", gate)
    job = library.jobs.enqueue(LONG, "long.pdf")
    worker = Worker(library, poll_s=0.05).start()
    wait_for(lambda: library.vector_progress().get(job.doc_id), "the first batch of vectors")
    assert library.add_pdf(LONG, "again.pdf").status == "skipped"
    gate.touch()
    wait_for(lambda: finished(library, job), "the job to end")
    worker.stop()
    assert [d.file_name for d in library.documents()] == ["long.pdf"]
    assert_consistent(library)


def test_a_stopped_worker_releases_its_job_for_the_next(tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    library = gated_library(tmp_path / "lib", gate)
    job = library.jobs.enqueue(LONG, "long.pdf")
    worker = Worker(library, poll_s=0.05).start()
    wait_for(lambda: library.vector_progress().get(job.doc_id), "the first batch of vectors")
    worker.stop(timeout=0)  # while its embedding waits at the gate
    gate.touch()
    worker._thread.join(DEADLINE_S)
    held = library.jobs.get(job.job_id)
    assert held.stage == "embedding" and held.attempts == 1  # left at its next report, not finished
    ended = Worker(library).run_once()  # taken again at once (released), from its stored chunks
    assert ended.job_id == job.job_id and ended.stage == "done" and ended.attempts == 2
    assert_consistent(library)


def test_a_job_of_a_library_with_other_settings_fails_with_the_mismatch(tmp_path: Path) -> None:
    open_library(tmp_path).add_pdf(make_pdf(["Some words about harbours. " * 40]), "h.pdf")
    other = Library(tmp_path, HashEmbeddings(), LibrarySettings(NAME, 500, 30, batch_size=4))
    job = other.jobs.enqueue(LONG, "long.pdf")
    assert Worker(other).run_once().stage == "failed"
    assert "re-index all documents" in other.jobs.get(job.job_id).message
    assert [d.file_name for d in open_library(tmp_path).documents()] == ["h.pdf"]
    assert_consistent(open_library(tmp_path))


def test_stored_copies_no_job_needs_are_swept(tmp_path: Path) -> None:
    import os

    library = open_library(tmp_path)
    job = library.jobs.enqueue(LONG, "long.pdf")
    orphan = tmp_path / "queue" / "0123abcd.pdf"  # as after a crash before its job's row
    orphan.write_bytes(b"%PDF-1.4 left behind")
    fresh = tmp_path / "queue" / "fedc3210.pdf"  # being queued right now: too new to touch
    fresh.write_bytes(b"%PDF-1.4 being queued")
    old = os.stat(orphan).st_mtime - 7200
    os.utime(orphan, (old, old))
    os.utime(tmp_path / "queue" / f"{job.job_id}.pdf", (old, old))
    assert library.jobs.sweep() == 1
    assert not orphan.exists() and fresh.exists()
    assert (tmp_path / "queue" / f"{job.job_id}.pdf").exists()  # its job still needs it


def test_niced_embedding_runs_at_low_priority_and_passes_its_outcome_back() -> None:
    import os

    from ingest.jobs import JobCancelled
    from ingest.worker import embed_niced

    def priority() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    base = priority()
    niced = embed_niced(priority, 10)
    assert niced == 10 or (base > 10 and niced == base)  # raised only if allowed (not root)
    assert priority() == base  # the calling thread keeps its own
    assert embed_niced(priority, 0) == base  # 0: called as is

    def cancelled() -> None:
        raise JobCancelled("j")

    with pytest.raises(JobCancelled):  # a report's stop reaches the worker
        embed_niced(cancelled, 10)
