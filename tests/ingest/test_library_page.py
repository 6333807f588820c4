"""The Library page in AppTest: samples, result lines, the table, delete with confirmation, re-index."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from components.shared import state
from ingest.local.library import Library
from ingest.worker import Worker, run_job
from tests.ingest.pdfs import long_pages, make_pdf
from tests.ingest.test_jobs import wait_for
from tests.ingest.test_library import NAME, open_library

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("FOOTNOTE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FOOTNOTE_EMBEDDING_PROVIDER", "fake")
    monkeypatch.setenv("FOOTNOTE_CHUNK_SIZE", "300")
    monkeypatch.setenv("FOOTNOTE_CHUNK_OVERLAP", "30")
    monkeypatch.chdir(ROOT)
    st.cache_resource.clear()
    yield tmp_path / "data"
    st.cache_resource.clear()


def _page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "library.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def _click(at: AppTest, label: str) -> AppTest:
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception, at.exception
    return at


def _jobs_finished(data_dir: Path) -> None:
    """Until the app's worker (a thread of this process, started by the page) has run every job."""
    library = open_library(data_dir)
    wait_for(lambda: not any(j.active for j in library.jobs.list()), "the worker to run the queued jobs")


def test_samples_load_once_and_show_in_the_table(data_dir: Path) -> None:
    # Changed with issue 21: the click queues the samples and the app's worker adds them; the job
    # list says how each ended (it used to be result lines of an add made inside the click's run).
    at = _page()
    assert "No documents yet" in at.info[0].value
    _click(at, "Load sample documents")
    _jobs_finished(data_dir)
    at.run()
    assert not at.exception, at.exception
    lines = [m.value for m in at.markdown if "kettle" in m.value or "larkspur" in m.value]
    assert [line.split(" ", 1)[1].split(r"\:")[0] for line in lines] == [
        r"larkspur\-remote\-work\-policy\.pdf",  # latest first
        r"kettle\-fen\-field\-guide\.pdf",
    ]
    assert "added\\: 3 pages" in lines[1]
    table = at.dataframe[0].value
    assert list(table["Title"]) == [
        "A Field Guide to the Birds of Kettle Fen",
        "Larkspur Instruments: Remote and Hybrid Work Policy",
    ]
    assert list(table["Pages"]) == [3, 2]
    assert list(table["Searched by"]) == ["words and meaning"] * 2
    chunks = int(table["Chunks"].sum())
    assert at.caption[0].value.replace("\\", "") == (  # markdown-escaped on the page
        f"{chunks:,} chunks in 2 document(s), up to 300 characters each with 30 overlap, "
        "embedded with fake:hash:384."
    )
    _click(at, "Load sample documents")
    lines = [m.value for m in at.markdown if "kettle" in m.value or "larkspur" in m.value]
    assert [line.split(" ", 1)[1] for line in lines[:2]] == [
        r"larkspur\-remote\-work\-policy\.pdf\: already in the library",
        r"kettle\-fen\-field\-guide\.pdf\: already in the library",
    ]
    assert len(open_library(data_dir).documents()) == 2


def test_the_job_list_shows_progress_and_cancels(data_dir: Path) -> None:
    from ingest.embeddings import GatedEmbeddings

    gate = data_dir.parent / "gate"
    library = Library.open(
        data_dir, GatedEmbeddings(gate), embedding_name=NAME, chunk_size=300, chunk_overlap=30, batch_size=4
    )
    held = library.jobs.enqueue(make_pdf(long_pages(6), title="Held"), "held.pdf")
    queued = library.jobs.enqueue(make_pdf(["Queued words. " * 50]), "queued.pdf")
    claimed = library.jobs.claim("test:0:worker", 60)
    thread = threading.Thread(target=run_job, args=(library, claimed, 60), daemon=True)
    thread.start()
    try:
        wait_for(lambda: library.vector_progress().get(held.doc_id), "the first batch of vectors")
        at = _page()  # the app's own worker waits: the first job is held by another
        bars = [p.proto.text.replace("\\", "") for p in at.get("progress")]  # markdown-escaped
        assert "Searchable by words; embedding chunks (4 of 42)" in bars, bars
        assert list(at.dataframe[0].value["Searched by"]) == ["words only: vectors 9% done"]  # 4 of 42
        next(b for b in at.button if b.key == f"cancel_{held.job_id}").click().run()
        assert library.jobs.get(held.job_id).cancel
    finally:
        gate.touch()
    thread.join(60)
    assert library.jobs.get(held.job_id).stage == "cancelled"
    _jobs_finished(data_dir)
    assert library.jobs.get(queued.job_id).stage == "done"
    assert [d.file_name for d in library.documents()] == ["queued.pdf"]


def test_delete_asks_first(data_dir: Path) -> None:
    library = open_library(data_dir)
    keep = library.add_pdf(make_pdf(["Keep this one."], title="Keeper"), "keep.pdf").doc
    gone = library.add_pdf(
        make_pdf(["Delete this one."], title="[Goner](javascript:x) **bold**"), "gone.pdf"
    ).doc
    at = _page()
    at.selectbox(key=state.LIBRARY_DELETE_CHOICE).set_value(gone.doc_id).run()
    _click(at, "Delete")
    assert r"\[Goner\]\(javascript\:x\) \*\*bold\*\*" in at.warning[0].value  # escaped, not a link
    assert len(open_library(data_dir).documents()) == 2
    _click(at, "Yes, delete")
    assert [d.doc_id for d in open_library(data_dir).documents()] == [keep.doc_id]
    assert list(at.dataframe[0].value["File"]) == ["keep.pdf"]


def test_changed_settings_offer_reindex(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    open_library(data_dir).add_pdf(make_pdf(["Some words about harbours. " * 40]), "h.pdf")
    monkeypatch.setenv("FOOTNOTE_CHUNK_SIZE", "500")
    at = _page()
    assert "re\\-index" in at.warning[0].value
    _click(at, "Re-index all documents")
    assert not at.warning and list(at.dataframe[0].value["File"]) == ["h.pdf"]
    assert open_library(data_dir, chunk_size=500).chunk_count() >= 1


def test_a_re_index_whose_embeddings_fail_says_so_and_changes_nothing(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.openai_server import Error, ScriptedOpenAIServer

    open_library(data_dir).add_pdf(make_pdf(["Some words about harbours. " * 40]), "h.pdf")
    with ScriptedOpenAIServer() as server:
        server.push_embedding_error(Error(503, "embedding backend is down"))
        monkeypatch.setenv("FOOTNOTE_EMBEDDING_PROVIDER", "openai")
        monkeypatch.setenv("FOOTNOTE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("FOOTNOTE_LLM_API_KEY", "sk-test")
        monkeypatch.setenv("FOOTNOTE_LLM_RETRIES", "0")
        at = _page()
        assert "re\\-index" in at.warning[0].value
        _click(at, "Re-index all documents")
    assert "could not be embedded" in at.error[0].value and "embedding backend is down" in at.error[0].value
    assert [d.file_name for d in open_library(data_dir).documents()] == ["h.pdf"]  # still the old index


def test_job_lines_name_the_file_once(tmp_path: Path) -> None:
    # Changed with issue 21: the sentences of result_line (gone with the synchronous upload) are
    # now those of jobs_view.describe, on jobs that a worker ran.
    from components.library.jobs_view import describe
    from tests.ingest.pdfs import make_image_pdf, rewrite

    library = open_library(tmp_path)
    locked = rewrite(make_pdf(["Secret."]), user_password="pw")
    jobs = [
        library.jobs.enqueue(locked, "l.pdf"),
        library.jobs.enqueue(locked, "l.pdf", password="no"),
        library.jobs.enqueue(make_image_pdf(), "s.pdf"),
        library.jobs.enqueue(locked, "l.pdf", password="pw"),
    ]
    Worker(library).run(until_idle=True)
    lines = [describe(library.jobs.get(j.job_id)) for j in jobs]
    assert lines[0] == "is password-protected: type its password in the Password field and add it again"
    assert lines[1] == "the password is wrong: type its password in the Password field and add it again"
    assert lines[2] == "has no text layer (scanned or image-only; OCR is not done)"
    assert lines[3] == "added: 1 pages, 1 chunks"


def test_missing_vectors_are_offered_as_a_repair_not_re_embedded_on_open(data_dir: Path) -> None:
    from tests.ingest.test_library import FOG

    open_library(data_dir).add_pdf(FOG, "fog.pdf")
    (data_dir / "index.faiss").unlink()  # as after an interrupted re-index: rows without vectors
    at = _page()
    assert any("have no vectors" in w.value for w in at.warning)
    (button,) = [b for b in at.button if b.label.startswith("Repair: re-embed")]
    assert open_library(data_dir, repair=False).missing_vectors > 0  # opening the page repaired nothing
    button.click().run()
    assert not at.exception and not at.error, at.exception or at.error
    assert not any("have no vectors" in w.value for w in at.warning)
    assert not [b for b in at.button if b.label.startswith("Repair")]
    assert open_library(data_dir, repair=False).missing_vectors == 0
