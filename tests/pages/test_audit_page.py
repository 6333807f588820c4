"""The audit page through AppTest: empty state, stepping, verdicts that persist, metrics, exports."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from components.shared.resources import CONVERSATIONS_FILE, get_chat_model
from rag.stores.conversations import ConversationStore
from rag.stores.verdicts import AUDIT_DB_NAME, VerdictStore
from settings import load_settings
from tests.rag.test_audit_fixtures import EV_BIRDS, make_answer, seed_app_data

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Settings pointing at an empty data dir; fake embeddings, offline answerer."""
    path = tmp_path / "data"
    path.mkdir()
    monkeypatch.setenv("FOOTNOTE_DATA_DIR", str(path))
    monkeypatch.setenv("FOOTNOTE_EMBEDDING_PROVIDER", "fake")
    monkeypatch.setenv("FOOTNOTE_LLM_PROVIDER", "extractive")
    monkeypatch.chdir(ROOT)
    st.cache_resource.clear()
    st.cache_data.clear()
    yield path
    st.cache_resource.clear()
    st.cache_data.clear()


ENTRY = ROOT / "app.py"


def _run() -> AppTest:
    """A new session of the real app, on the audit page."""
    at = AppTest.from_file(str(ENTRY), default_timeout=60)
    at.switch_page("pages/audit.py")
    return at.run()


def _texts(at: AppTest) -> list[str]:
    return [t.value for t in at.text]


def test_empty_state_points_to_chat(data_dir: Path) -> None:
    at = _run()
    assert not at.exception
    assert "No answered questions yet" in at.info[0].value
    assert not at.button


def _markdown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def test_steps_through_citations_with_sentence_and_score(data_dir: Path) -> None:
    turns = seed_app_data(data_dir, CONVERSATIONS_FILE)
    at = _run()
    assert not at.exception, at.exception
    assert "**Citation 1 of 3**" in _markdown(at)
    at.selectbox(key="audit_conv").set_value(turns[0].conv_id).run()
    assert "**Citation 1 of 2**" in _markdown(at)
    assert "Question: When does water boil?" in _texts(at)
    # The sentence, then the chunk, with the matching words in bold.
    assert (
        "**Water** **boils** at **one** **hundred** **degrees** **Celsius** at **sea** **level**\\."
        in _markdown(at)
    )
    assert any(m.startswith("**Water** **boils**") and "Filler" in m for m in _markdown(at))
    assert at.metric[0].label == "Automatic support" and at.metric[0].value == "1.00"
    assert any("high support" in c.value for c in at.caption)
    assert "Page 1 (index 0)" in _texts(at)
    assert len(at.image) == 1, "no page picture"
    assert at.button(key="audit_prev").disabled
    at.button(key="audit_next").click().run()
    assert "**Citation 2 of 2**" in _markdown(at)
    assert "Roads are salted in winter\\." in _markdown(at)  # the cited chunk shares no word
    assert any("low support" in c.value for c in at.caption)
    assert at.button(key="audit_next").disabled
    at.button(key="audit_prev").click().run()
    assert "**Citation 1 of 2**" in _markdown(at)


def test_verdict_and_note_persist_in_sqlite(data_dir: Path) -> None:
    turns = seed_app_data(data_dir, CONVERSATIONS_FILE)
    at = _run()
    at.selectbox(key="audit_conv").set_value(turns[0].conv_id).run()
    note_key = f"audit_note_{turns[0].turn_id}_1_0"
    at.text_input(key=note_key).input("exact words on page 1")
    at.button(key="audit_verdict_supported").click().run()
    assert not at.exception, at.exception
    saved = VerdictStore(data_dir / AUDIT_DB_NAME).get((turns[0].turn_id, 1, 0))
    assert (saved.verdict, saved.note) == ("supported", "exact words on page 1")
    assert at.button(key="audit_verdict_supported").proto.type == "primary"
    # A fresh session (a reload) reads the verdict and the note back.
    again = _run()
    again.selectbox(key="audit_conv").set_value(turns[0].conv_id).run()
    assert again.text_input(key=note_key).value == "exact words on page 1"
    assert again.button(key="audit_verdict_supported").proto.type == "primary"
    assert any(c.value.startswith("Saved: Supported") for c in again.caption)


def test_filters_limit_the_citations(data_dir: Path) -> None:
    turns = seed_app_data(data_dir, CONVERSATIONS_FILE)
    at = _run()
    at.selectbox(key="audit_conv").set_value(turns[1].conv_id).run()
    assert "**Citation 1 of 1**" in [m.value for m in at.markdown]
    assert "Question: When does ice melt?" in _texts(at)


def test_metrics_and_exports(data_dir: Path) -> None:
    turns = seed_app_data(data_dir, CONVERSATIONS_FILE)
    VerdictStore(data_dir / AUDIT_DB_NAME).save((turns[0].turn_id, 1, 1), "x", "wrong_location", "other page")
    at = _run()
    assert not at.exception, at.exception
    metrics = {m.label: m.value for m in at.metric}
    # 4 claim sentences, 3 with a citation; no unknown ids; 1 of 1 verdicts is not "supported".
    assert metrics["Citation coverage"] == "75%"
    assert metrics["Dangling rate"] == "0%"
    assert metrics["Marked supported"] == "0%"
    per_answer = at.dataframe[1].value.sort_values("question")
    assert list(per_answer["question"]) == ["When does ice melt?", "When does water boil?"]
    assert list(per_answer["coverage"]) == [1.0, round(2 / 3, 3)]
    # The files themselves are checked by tests/rag/test_audit_export.py and the browser test.
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["Verdicts as CSV", "Verdicts as JSON", "Answer as Markdown"]
    assert "1 verdict, with question" in " ".join(c.value for c in at.caption)


def test_llm_judge_only_with_a_configured_model(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seed_app_data(data_dir, CONVERSATIONS_FILE)
    at = _run()
    assert "audit_judge" not in [b.key for b in at.button]  # the offline answerer is no judge
    monkeypatch.setenv("FOOTNOTE_LLM_PROVIDER", "fake")
    model, _label = get_chat_model(load_settings())  # the cached instance the page will use
    model.replies.append("Partially supported\nThe passage gives the temperature only.")
    at = _run()
    at.button(key="audit_judge").click().run()
    assert not at.exception, at.exception
    assert "Model verdict: partially supported. The passage gives the temperature only." in _texts(at)
    prompt = model.calls[-1][-1].content
    sentence = next(
        s
        for s in (
            "Water boils at one hundred degrees Celsius at sea level.",
            "Ice melts at zero degrees Celsius.",
        )
        if s in prompt
    )
    assert "<statement>\n" + sentence in prompt


def test_answer_and_date_filters(data_dir: Path) -> None:
    turns = seed_app_data(data_dir, CONVERSATIONS_FILE)
    at = _run()
    at.selectbox(key="audit_turn").set_value(turns[1].turn_id).run()
    assert "**Citation 1 of 1**" in _markdown(at)
    assert "Question: When does ice melt?" in _texts(at)
    at.selectbox(key="audit_turn").set_value("").run()
    asked = dt.date.fromisoformat(turns[0].created_at[:10])
    at.date_input(key="audit_dates").set_value(
        (asked + dt.timedelta(days=1), asked + dt.timedelta(days=2))
    ).run()
    assert not at.exception, at.exception
    assert "No citations match these filters." in [i.value for i in at.info]


def test_document_filter_and_a_document_gone_from_the_library(data_dir: Path) -> None:
    seed_app_data(data_dir, CONVERSATIONS_FILE)
    store = ConversationStore(data_dir / CONVERSATIONS_FILE)
    store.add_turn(store.create(), make_answer("Do birds migrate?", "Birds migrate [brd0001].", (EV_BIRDS,)))
    at = _run()
    assert "**Citation 1 of 4**" in _markdown(at)
    options = at.selectbox(key="audit_doc").options
    assert options == ["All documents", "Birds *of* [Europe]", "Water <b>facts</b>"]
    at.selectbox(key="audit_doc").select_index(2).run()
    assert "**Citation 1 of 3**" in _markdown(at)
    at.selectbox(key="audit_doc").select_index(1).run()
    assert "**Citation 1 of 1**" in _markdown(at)
    assert "Question: Do birds migrate?" in _texts(at)
    assert "no longer in the library" in at.warning[0].value and len(at.image) == 0
