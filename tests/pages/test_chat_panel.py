"""The chat's side panel fragment in AppTest: the answers do not depend on the selection (a click
reruns the panel alone, so they are not drawn again), the panel draws the rule that highlights its
footnote, and that rule never carries anything but a turn id and a number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from components.chat.answer_view import active_style
from components.shared import resources, state
from rag.stores.conversations import ConversationStore
from tests.pages.conftest import answers
from tests.pages.test_chat_page import _app, _ask, _conv, _script_two_sources


def _styles(at) -> list[str]:
    return [el.proto.body for el in at.get("html") if "<style>" in el.proto.body]


def test_the_answers_are_the_same_with_and_without_a_selection(app_env: Path) -> None:
    at = _app()
    _script_two_sources(app_env)
    _ask(at, "When does water boil?")
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(_conv(at))
    closed = [json.loads(el.proto.json) for el in answers(at)]
    assert not any("::part(" in s for s in _styles(at))
    at.session_state[state.SELECTION] = (turn.turn_id, 2)
    at.run()
    assert not at.exception, at.exception
    assert [json.loads(el.proto.json) for el in answers(at)] == closed
    [rule] = [s for s in _styles(at) if "::part(" in s]
    assert f".st-key-{state.answer_key(turn.turn_id)} " in rule and "::part(fn-2)" in rule


@pytest.mark.parametrize(
    "turn_id",
    ['x"] { } </style><script>alert(1)</script>', "a b", "id.with.dots", "ünïcode"],
)
def test_the_highlight_rule_takes_only_plain_ids(turn_id: str) -> None:
    assert "::part(" not in active_style((turn_id, 1))
    assert active_style((turn_id, 1)) == active_style(None)


def test_the_highlight_rule_names_the_answer_and_the_footnote() -> None:
    rule = active_style(("0123abcd", 3))
    assert rule.startswith("<style>") and rule.endswith("</style>") and rule.count("<") == 2
    assert '.st-key-answer_0123abcd [data-testid="stBidiComponentIsolated"]::part(fn-3)' in rule


def test_each_answer_carries_what_the_panel_shows_for_its_footnotes(app_env: Path) -> None:
    # The click relay shows these strings at once (components/chat/cite_relay.py): they must be the
    # panel's own, so that the panel's run replaces the preview with the same text.
    at = _app()
    _script_two_sources(app_env)
    _ask(at, "When does water boil?")
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(_conv(at))
    [payload] = [json.loads(el.proto.json) for el in answers(at)]
    notes = payload["notes"]
    assert [(n["n"], n["id"], n["count"]) for n in notes] == [
        (f.number, f.short_id, 2) for f in turn.answer.footnotes
    ]
    for footnote, note in zip(turn.answer.footnotes, notes, strict=True):
        at.session_state[state.SELECTION] = (turn.turn_id, footnote.number)
        at.run()
        assert not at.exception, at.exception
        texts = [t.value for t in at.text]
        parts = [note[k] for k in ("before", "inside", "after") if note[k]]
        assert note["title"] in texts and note["meta"] in texts and all(p in texts for p in parts)
        assert " ".join(parts) == " ".join(footnote.evidence.text.split())
        assert note["kind"] in [c.value for c in at.caption]
