"""The Library page's search (hits open the side panel) and the original PDF, in AppTest."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pypdf
import pytest
from streamlit.testing.v1 import AppTest

from components.panel import page_resources
from components.shared import state
from tests.pages.conftest import ROOT, TENK, build_library, outlined_pdf

TIMEOUT = 60


def _page() -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "library.py"), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    return at


def _search(at: AppTest, query: str) -> AppTest:
    at.text_input(key=state.LIBRARY_QUERY).set_value(query).run()
    assert not at.exception, at.exception
    return at


def _texts(at: AppTest) -> list[str]:
    return [t.value for t in at.text]


def _hit_buttons(at: AppTest) -> list:
    return [b for b in at.button if b.key and b.key.startswith("library_hit_")]


def _pdf_payloads(at: AppTest) -> list[dict]:
    found = []
    for el in at.get("bidi_component"):
        data = json.loads(el.proto.json) if el.proto.json else {}
        if isinstance(data, dict) and "file" in data:
            found.append(data)
    return found


def test_search_lists_hits_and_a_click_opens_the_panel(app_env: Path) -> None:
    at = _search(_page(), '"freezing point"')
    [hit] = _hit_buttons(at)
    assert hit.label == "Water facts · page 2"
    assert any("Salt lowers the freezing point" in t for t in _texts(at))
    assert len(at.get("download_button")) == 0  # the panel, with its download, is not open yet
    hit.click().run()
    assert not at.exception, at.exception
    assert [d.proto.label for d in at.get("download_button")] == ["Download PDF"]
    texts = _texts(at)
    assert "Water facts" in texts
    assert any(t.startswith("Match on page 2 (index 1)") for t in texts)
    assert "freezing point" in " ".join(texts)  # the chunk, with the match as its own text element
    assert at.session_state[state.LIBRARY_HIT][0] == '"freezing point"'
    at.button(key="panel_close").click().run()
    assert not any(t.startswith("Match on page") for t in _texts(at))


def test_a_hits_panel_says_which_section_the_match_is_in(app_env: Path) -> None:
    build_library(app_env, [("tenk.pdf", outlined_pdf(TENK))])
    at = _search(_page(), '"patent suit"')
    [hit] = _hit_buttons(at)
    hit.click().run()
    assert not at.exception, at.exception
    assert "In Item 3. Legal Proceedings" in _texts(at)


def test_words_rank_hits_and_hostile_text_stays_plain(app_env: Path) -> None:
    at = _search(_page(), "onerror script hostile")
    labels = [b.label for b in _hit_buttons(at)]
    assert labels and labels[0].startswith("\\<b\\>Evil\\<\\/b\\>")  # the title, escaped in the label
    assert any("<img src=x onerror=window.__pwned=1>" in t for t in _texts(at))  # shown as text
    assert all("<img" not in m.value for m in at.markdown)


def test_no_match_says_so_and_a_new_query_closes_the_panel(app_env: Path) -> None:
    at = _search(_page(), "boiling")
    _hit_buttons(at)[0].click().run()
    assert any(t.startswith("Match on page") for t in _texts(at))
    _search(at, '"no such phrase anywhere"')
    assert any("No passage matches" in i.value for i in at.info)
    assert at.session_state[state.LIBRARY_HIT] is None


def test_panel_opens_the_original_at_the_match_page(app_env: Path) -> None:
    at = _search(_page(), '"freezing point"')
    _hit_buttons(at)[0].click().run()
    assert _pdf_payloads(at) == []  # the viewer is off until asked for
    at.toggle(key=state.PANEL_ORIGINAL).set_value(True).run()
    assert not at.exception, at.exception
    [payload] = _pdf_payloads(at)
    assert payload["alt"] == "Original PDF from page 2: Water facts"
    assert any("From page 2 (index 1) on" in c.value.replace("\\", "") for c in at.caption)


def test_library_viewer_shows_a_chosen_document(app_env: Path) -> None:
    at = _page()
    assert _pdf_payloads(at) == []
    box = at.selectbox(key=state.LIBRARY_VIEW_DOC)
    water = next(o for o in box.options if o.startswith("Water facts"))
    box.select(water).run()
    assert not at.exception, at.exception
    [payload] = _pdf_payloads(at)
    assert payload["alt"] == "Water facts"


def test_excerpt_starts_at_the_asked_page(app_env: Path) -> None:
    from tests.pages.conftest import build_library

    library = build_library(app_env, [])
    doc = next(d for d in library.documents() if d.title == "Water facts")
    data = page_resources.pdf_excerpt(library)(doc.doc_id, 1, 9)
    pages = pypdf.PdfReader(io.BytesIO(data)).pages
    assert len(pages) == 1 and "Salt lowers" in pages[0].extract_text()
    assert page_resources.pdf_excerpt(library)("0" * 64, 0, 0) is None


def test_footnote_panel_opens_the_original_at_the_cited_page(app_env: Path) -> None:
    from components.shared import resources
    from rag.stores.conversations import ConversationStore
    from tests.pages.test_chat_page import _app, _ask, _script_two_sources

    at = _app()
    _script_two_sources(app_env)
    _ask(at, "When does water boil?")
    store = ConversationStore(app_env / resources.CONVERSATIONS_FILE)
    [turn] = store.turns(store.list_recent()[0].conv_id)
    at.session_state[state.SELECTION] = (turn.turn_id, 2)  # footnote 2: the ice passage, page 2
    at.run()
    assert [d.proto.label for d in at.get("download_button")] == ["Download PDF"]
    assert _pdf_payloads(at) == []
    at.toggle(key=state.PANEL_ORIGINAL).set_value(True).run()
    assert not at.exception, at.exception
    [payload] = _pdf_payloads(at)
    assert payload["alt"] == "Original PDF from page 2: Water facts"


def test_download_name_is_a_plain_pdf_file_name() -> None:
    from components.panel.original import download_name

    assert download_name("report 2024.pdf") == "report 2024.pdf"
    assert download_name("../../etc/passwd") == "passwd.pdf"
    assert download_name("C:\\Users\\x\\Q3 <b>.PDF") == "Q3 _b_.PDF"
    assert download_name('a"b;\n.pdf') == "a_b__.pdf"
    assert download_name("...") == "document.pdf"


def test_without_streamlit_pdf_the_download_remains(app_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from components.panel import original

    monkeypatch.setattr(original, "can_view", lambda: False)
    at = _search(_page(), '"freezing point"')
    _hit_buttons(at)[0].click().run()
    at.toggle(key=state.PANEL_ORIGINAL).set_value(True).run()
    assert not at.exception, at.exception
    assert _pdf_payloads(at) == []
    assert any("needs the streamlit-pdf package" in i.value for i in at.info)
    assert [d.proto.label for d in at.get("download_button")] == ["Download PDF"]
