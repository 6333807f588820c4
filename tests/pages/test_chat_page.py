"""The chat page in AppTest: ask, saved turns, history without the model, the panel, reloads."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from components.shared import resources, state
from ingest.embeddings import HashEmbeddings
from ingest.local.library import Library
from rag.stores.conversations import ConversationStore
from settings import load_settings
from tests.pages.conftest import ROOT, TENK, answers, build_library, make_pdf, outlined_pdf

TIMEOUT = 60


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, at.exception
    return at


def _model():
    model, _label = resources.get_chat_model(load_settings())
    return model


def _short_id(data_dir: Path, phrase: str) -> str:
    """The short id of the chunk holding phrase (few chunks: 7-character prefixes are unique)."""
    library = build_library(data_dir, [])
    return next(c.chunk_id[:7] for c in library.chunks() if phrase in c.text)


def _ask(at: AppTest, question: str) -> AppTest:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception
    return at


def _payloads(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.json) for el in answers(at)]


def _script_two_sources(data_dir: Path) -> tuple[str, str]:
    water, ice = _short_id(data_dir, "Water boils"), _short_id(data_dir, "Ice melts")
    _model().replies.append(
        f"Water boils at one hundred degrees Celsius at sea level [{water}]. "
        f"Salt lowers the freezing point [{ice}, zzzz999]. Again [{water}]."
    )
    return water, ice


def test_ask_saves_the_turn_and_renders_buttons_for_resolved_ids(app_env: Path) -> None:
    at = _app()
    water, ice = _script_two_sources(app_env)
    _ask(at, "When does water boil?")
    [payload] = _payloads(at)
    html = payload["html"]
    assert re.findall(r'class="fn-ref" data-n="(\d)"', html) == ["1", "2", "1"]
    assert '<span class="fn-unresolved" title="unresolved citation">zzzz999?</span>' in html
    assert water not in html and ice not in html
    conv = (
        at.query_params["conv"][0] if isinstance(at.query_params["conv"], list) else at.query_params["conv"]
    )
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(conv)
    assert [f.short_id for f in turn.answer.footnotes] == [water, ice]
    assert turn.answer.unresolved == ("zzzz999",)
    sources = [t.value for t in at.text if t.value.startswith("[1]")]
    assert sources == ["[1] Water facts · p. 1\n[2] Water facts · p. 2"]
    assert any("1 unresolved citation" in m.value for m in at.markdown)


def test_reruns_render_history_without_calling_the_model(app_env: Path) -> None:
    at = _app()
    _script_two_sources(app_env)
    _ask(at, "When does water boil?")
    calls = len(_model().calls)
    at.run()
    at.run()
    assert len(_model().calls) == calls
    assert len(_payloads(at)) == 1 and [m.value for m in at.chat_message[0].text] == ["When does water boil?"]


def test_panel_shows_the_selected_turns_own_evidence(app_env: Path) -> None:
    at = _app()
    _water, ice = _script_two_sources(app_env)
    _ask(at, "When does water boil?")
    _model().replies.append(f"Only ice here [{ice}].")
    _ask(at, "When does ice melt?")
    store = ConversationStore(app_env / resources.CONVERSATIONS_FILE)
    first, second = store.turns(store.list_recent()[0].conv_id)
    at.session_state[state.SELECTION] = (first.turn_id, 2)
    at.run()
    assert not at.exception, at.exception
    texts = [t.value for t in at.text]
    assert any(t.startswith("Ice melts at zero degrees Celsius") or "Ice melts" in t for t in texts)
    assert f"id {ice}" in " ".join(texts) and "Water facts" in texts
    assert len(at.image) >= 1
    # Select footnote 1 of the second answer: its evidence is the ice chunk, not the first turn's water.
    at.session_state[state.SELECTION] = (second.turn_id, 1)
    at.run()
    assert f"id {ice}" in " ".join(t.value for t in at.text)
    at.button(key="panel_close").click().run()
    assert at.session_state[state.SELECTION] is None
    assert not any(t.value.startswith("Page ") for t in at.text)


def test_reload_via_conv_query_param_restores_the_chat(app_env: Path) -> None:
    at = _app()
    _script_two_sources(app_env)
    _ask(at, "When does water boil?")
    conv = at.query_params["conv"]
    conv = conv[0] if isinstance(conv, list) else conv
    calls = len(_model().calls)
    fresh = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    fresh.query_params["conv"] = conv
    fresh.run()
    assert not fresh.exception
    assert len(_payloads(fresh)) == 1 and "fn-ref" in _payloads(fresh)[0]["html"]
    assert len(_model().calls) == calls


def test_empty_library_says_so_and_links_to_the_library(tmp_path: Path, app_env: Path, monkeypatch) -> None:
    monkeypatch.setenv("FOOTNOTE_DATA_DIR", str(tmp_path / "empty"))
    at = _app()
    assert any("library is empty" in i.value for i in at.info)
    assert at.chat_input[0].disabled


def test_model_failure_is_shown_and_the_chat_survives(app_env: Path) -> None:
    at = _app()
    _model().replies.append(RuntimeError("endpoint exploded"))
    _ask(at, "When does water boil?")
    errors = " ".join(e.value for e in at.error)
    assert "endpoint exploded" in errors
    _model().replies.append("Fine now.")
    _ask(at, "When does ice melt?")
    assert not at.exception
    # The failed question stays in the history with its cause; the next answer rendered normally.
    assert [m.value for m in at.text if m.value.startswith("When does")] == [
        "When does water boil?",
        "When does ice melt?",
    ]
    assert "endpoint exploded" in " ".join(e.value for e in at.error)
    assert len(_payloads(at)) == 1


def _conv(at: AppTest) -> str | None:
    value = at.query_params.get("conv")
    return (value[0] if isinstance(value, list) else value) or None


def test_new_chat_and_recent_chats_switch_conversations(app_env: Path) -> None:
    at = _app()
    _ask(at, "When does water boil?")
    first = _conv(at)
    at.button(key="new_chat").click().run()
    assert _conv(at) is None and _payloads(at) == []
    _ask(at, "When does ice melt?")
    second = _conv(at)
    assert second and second != first
    at.button(key=f"conv_{first}").click().run()
    assert _conv(at) == first
    assert [m.value for m in at.text if m.value.startswith("When does")] == ["When does water boil?"]


def test_document_filter_and_k_reach_retrieval(app_env: Path) -> None:
    at = _app()
    [hostile] = [o for o in at.multiselect(key=state.DOC_FILTER).options if "Evil" in o]
    at.multiselect(key=state.DOC_FILTER).select(hostile).run()
    at.slider(key=state.TOP_K).set_value(1).run()
    _ask(at, "When does water boil?")
    store = ConversationStore(app_env / resources.CONVERSATIONS_FILE)
    [turn] = store.turns(_conv(at))
    assert [e.file_name for e in turn.answer.evidence] == ["hostile.pdf"]


def test_a_selection_in_another_conversation_is_dropped(app_env: Path) -> None:
    at = _app()
    _ask(at, "When does water boil?")
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(_conv(at))
    at.button(key="new_chat").click().run()
    at.session_state[state.SELECTION] = (turn.turn_id, 1)
    at.run()
    assert at.session_state[state.SELECTION] is None
    assert not at.image


def test_panel_says_when_the_document_is_gone_and_still_shows_the_saved_text(app_env: Path) -> None:
    at = _app()
    water, _ice = _script_two_sources(app_env)
    _ask(at, "When does water boil?")
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(_conv(at))
    evidence = turn.answer.footnotes[0].evidence
    assert build_library(app_env, []).delete(evidence.doc_id)
    at.session_state[state.SELECTION] = (turn.turn_id, 1)
    at.run()
    assert not at.exception, at.exception
    assert any("no longer in the library" in w.value for w in at.warning)
    shown = " ".join(" ".join(t.value.split()) for t in at.text)
    assert " ".join(evidence.text.split()[:8]) in shown and f"id {water}" in shown
    assert not at.image


def test_an_answer_cut_off_midway_is_kept_labelled_interrupted_with_its_cause(app_env: Path) -> None:
    at = _app()
    water = _short_id(app_env, "Water boils")
    _model().replies.append(
        ["Water boils at one hundred degrees ", f"[{water}]", " and then", RuntimeError("connection reset")]
    )
    _ask(at, "When does water boil?")
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(_conv(at))
    assert turn.answer.interrupted and turn.answer.text.startswith("Water boils")
    assert "connection reset" in " ".join(e.value for e in at.error)
    labels = " ".join(m.value for m in at.markdown)
    assert "Interrupted" in labels and "scripted test model" in labels
    assert len(_payloads(at)) == 1 and 'data-n="1"' in _payloads(at)[0]["html"]


def test_a_chunk_across_a_page_break_shows_both_pages(app_env: Path) -> None:
    pages = ["Steam scalds skin faster than boiling water.", "Steam carries extra heat from condensing."]
    library = build_library(app_env, [("steam.pdf", make_pdf(pages, "Steam"))])
    [chunk] = [c for c in library.chunks() if "Steam scalds" in c.text]
    assert [loc.page_index for loc in chunk.locators] == [0, 1]
    at = _app()
    _model().replies.append(f"Steam scalds skin faster than boiling water [{chunk.chunk_id[:7]}].")
    _ask(at, "Why does steam scald skin faster than boiling water?")
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(_conv(at))
    at.session_state[state.SELECTION] = (turn.turn_id, 1)
    at.run()
    texts = [t.value for t in at.text]
    assert "Page 1 (index 0)" in texts and "Page 2 (index 1)" in texts
    assert any(t.startswith("Page 1-2 (index 0-1)") for t in texts)
    # each page: the passage picture, and its whole page in an expander, drawn once opened
    assert len(at.image) == 2 and [e.label for e in at.expander] == ["Whole page", "Whole page"]
    at.session_state[state.whole_page_key(1)] = True
    at.run()
    assert len(at.image) == 3  # only the page whose expander was opened
    at.session_state[state.whole_page_key(0)] = True
    at.run()
    assert len(at.image) == 4


def test_an_unsupported_answer_is_labelled(app_env: Path) -> None:
    at = _app()
    _ask(at, "Who painted the Mona Lisa in Florence?")
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(_conv(at))
    assert turn.answer.unsupported
    assert "Not supported by the documents" in " ".join(m.value for m in at.markdown)


def test_old_footnotes_open_their_saved_passage_after_a_reindex(app_env: Path, monkeypatch) -> None:
    at = _app()
    water, _ice = _script_two_sources(app_env)
    _ask(at, "When does water boil?")
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(_conv(at))
    saved = turn.answer.footnotes[0].evidence
    rebuilt = Library.rebuild(
        app_env, HashEmbeddings(384), embedding_name="fake:hash:384", chunk_size=400, chunk_overlap=40
    )
    assert saved.chunk_id not in {c.chunk_id for c in rebuilt.chunks()}
    monkeypatch.setenv("FOOTNOTE_CHUNK_SIZE", "400")
    monkeypatch.setenv("FOOTNOTE_CHUNK_OVERLAP", "40")
    at.session_state[state.SELECTION] = (turn.turn_id, 1)
    at.run()
    assert not at.exception, at.exception
    shown = "".join("".join(t.value.split()) for t in at.text)  # the text comes in parts
    assert f"id{water}" in shown and "".join(saved.text.split()) in shown
    assert len(at.image) >= 1


def test_an_unknown_conversation_in_the_url_starts_a_new_chat(app_env: Path) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT)
    at.query_params["conv"] = "doesnotexist"
    at.run()
    assert not at.exception and _conv(at) is None
    assert any("no longer exists" in t.value for t in at.toast)


def test_closest_passages_are_labelled_as_such(app_env: Path) -> None:
    from rag.prompts import CLOSEST_PASSAGES

    at = _app()
    water = _short_id(app_env, "Water boils")
    _model().replies.append(f"{CLOSEST_PASSAGES} Water boils at one hundred degrees Celsius [{water}].")
    _ask(at, "At what temperature does water boil on Mount Everest?")
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(_conv(at))
    assert turn.answer.closest and not turn.answer.unsupported
    assert "Closest passages, not a direct answer" in " ".join(m.value for m in at.markdown)


def test_the_panel_says_which_section_the_passage_is_in(app_env: Path) -> None:
    library = build_library(app_env, [("tenk.pdf", outlined_pdf(TENK))])
    [chunk] = [c for c in library.chunks() if "patent suit" in c.text]
    assert chunk.sections == ("Item 3. Legal Proceedings",)
    at = _app()
    _model().replies.append(f"A patent suit brought by Acme [{chunk.chunk_id[:7]}].")
    _ask(at, "What legal proceedings is the company in?")
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(_conv(at))
    at.session_state[state.SELECTION] = (turn.turn_id, 1)
    at.run()
    assert not at.exception, at.exception
    assert "In Item 3. Legal Proceedings" in [t.value for t in at.text]
