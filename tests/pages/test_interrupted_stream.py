"""A run ended mid-stream (Stop, a new question, a reload: Streamlit raises a control exception
out of st.write_stream) still saves the text so far, marked interrupted."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from rag.stores.conversations import ConversationStore


def _script() -> None:
    """Stream the events; the run is stopped at event number stop_after, as a widget event would."""
    from pathlib import Path

    import streamlit as st

    from components.chat import chat_view
    from rag.stores.conversations import ConversationStore
    from tests.pages.test_stream import _events

    store = ConversationStore(Path(st.session_state["store"]))
    conv = st.session_state["conv"]
    events = _events(["Water boils [aaaa111] at", " 100 degrees. Ice", " melts."])

    def stream():
        for n, event in enumerate(events):
            if n == st.session_state["stop_after"]:
                st.stop()  # raises StopException here, as Streamlit does at the next write
            yield event

    chat_view.stream_answer(
        "When does water boil?", stream, lambda a: store.add_turn(conv, a), "test model", 1
    )


def _run(tmp_path: Path, stop_after: int) -> list:
    store = ConversationStore(tmp_path / "conversations.sqlite3")
    conv = store.create()
    at = AppTest.from_function(_script, default_timeout=30)
    at.session_state["store"], at.session_state["conv"] = str(tmp_path / "conversations.sqlite3"), conv
    at.session_state["stop_after"] = stop_after
    at.run()
    assert not at.exception, at.exception
    return store.turns(conv)


def test_a_run_stopped_mid_stream_saves_the_partial_answer_marked_interrupted(tmp_path: Path) -> None:
    [turn] = _run(tmp_path, stop_after=3)  # after "100 degrees. Ice", before " melts."
    answer = turn.answer
    assert answer.question == "When does water boil?"
    assert answer.text == "Water boils [aaaa111] at 100 degrees. Ice"
    assert answer.interrupted and answer.error is None
    assert [f.short_id for f in answer.footnotes] == ["aaaa111"]


def test_a_run_stopped_before_the_first_token_keeps_the_question(tmp_path: Path) -> None:
    [turn] = _run(tmp_path, stop_after=0)
    assert turn.answer.question == "When does water boil?" and turn.answer.text == ""
    assert turn.answer.interrupted


def test_a_stream_that_finishes_is_saved_once_and_not_interrupted(tmp_path: Path) -> None:
    [turn] = _run(tmp_path, stop_after=-1)
    assert turn.answer.text == "Water boils [aaaa111] at 100 degrees. Ice melts."
    assert not turn.answer.interrupted


def _takeover_script() -> None:
    """Mid-stream, the session's next run arrives (as fastReruns starts it, in parallel) and reads
    the turns while the old run has not yet noticed that it must stop."""
    from pathlib import Path

    import streamlit as st

    from components.chat import chat_view
    from rag.stores.conversations import ConversationStore
    from tests.pages.test_stream import _events

    store = ConversationStore(Path(st.session_state["store"]))
    conv = st.session_state["conv"]
    events = _events(["Water boils [aaaa111] at", " 100 degrees. Ice", " melts."])

    def stream():
        for n, event in enumerate(events):
            if n == 3:
                seen = chat_view.saved_turns(store, conv)
                st.session_state["seen"] = [(t.answer.text, t.answer.interrupted) for t in seen]
            yield event

    chat_view.stream_answer(
        "When does water boil?", stream, lambda a: store.add_turn(conv, a), "test model", 1
    )


def test_the_next_run_saves_the_answer_the_old_run_is_still_streaming_and_only_once(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path / "conversations.sqlite3")
    conv = store.create()
    at = AppTest.from_function(_takeover_script, default_timeout=30)
    at.session_state["store"], at.session_state["conv"] = str(tmp_path / "conversations.sqlite3"), conv
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["seen"] == [("Water boils [aaaa111] at 100 degrees. Ice", True)]
    assert [t.answer.text for t in store.turns(conv)] == ["Water boils [aaaa111] at 100 degrees. Ice"]
