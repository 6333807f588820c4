"""The Library page in AppTest: samples, result lines, the table, delete with confirmation, re-index."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from components import state
from tests.ingest.pdfs import make_pdf
from tests.ingest.test_library import open_library

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


def test_samples_load_once_and_show_in_the_table(data_dir: Path) -> None:
    at = _page()
    assert "No documents yet" in at.info[0].value
    _click(at, "Load sample documents")
    assert [s.value.split(r"\:")[0] for s in at.success] == [
        r"kettle\-fen\-field\-guide\.pdf",
        r"larkspur\-remote\-work\-policy\.pdf",
    ]
    assert "added\\: 3 pages" in at.success[0].value
    table = at.dataframe[0].value
    assert list(table["Title"]) == [
        "A Field Guide to the Birds of Kettle Fen",
        "Larkspur Instruments: Remote and Hybrid Work Policy",
    ]
    assert list(table["Pages"]) == [3, 2]
    chunks = int(table["Chunks"].sum())
    assert at.caption[0].value.replace("\\", "") == (  # markdown-escaped on the page
        f"{chunks:,} chunks in 2 document(s), up to 300 characters each with 30 overlap, "
        "embedded with fake:hash:384."
    )
    _click(at, "Load sample documents")
    assert [i.value for i in at.info] == [
        r"kettle\-fen\-field\-guide\.pdf\: already in the library",
        r"larkspur\-remote\-work\-policy\.pdf\: already in the library",
    ]


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


def test_result_lines_name_the_file_once(tmp_path: Path) -> None:
    from components.library_view import result_line
    from tests.ingest.pdfs import make_image_pdf, rewrite

    library = open_library(tmp_path)
    locked = rewrite(make_pdf(["Secret."]), user_password="pw")
    assert result_line("l.pdf", lambda: library.add_pdf(locked, "l.pdf")) == {
        "file": "l.pdf",
        "status": "error",
        "text": "is password-protected: type its password in the Password field and add it again",
    }
    wrong = result_line("l.pdf", lambda: library.add_pdf(locked, "l.pdf", password="no"))
    assert wrong["text"].startswith("the password is wrong")
    scan = result_line("s.pdf", lambda: library.add_pdf(make_image_pdf(), "s.pdf"))
    assert scan["text"] == "has no text layer (scanned or image-only; OCR is not done)"
    ok = result_line("l.pdf", lambda: library.add_pdf(locked, "l.pdf", password="pw"))
    assert ok == {"file": "l.pdf", "status": "ok", "text": "added: 1 pages, 1 chunks"}


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
