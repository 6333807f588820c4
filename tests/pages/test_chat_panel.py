"""The chat's side panel fragment in AppTest: the answers do not depend on the selection (a click
reruns the panel alone, so they are not drawn again), the panel draws the rule that highlights its
footnote, and that rule never carries anything but a turn id and a number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from components import resources, state
from components.answer_view import active_style
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
