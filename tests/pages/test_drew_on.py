"""The chat shows which documents an answer drew on, under its sources."""

from __future__ import annotations

from pathlib import Path

from tests.pages.test_chat_page import _app, _ask, _script_two_sources


def test_an_answer_names_the_documents_it_drew_on(app_env: Path) -> None:
    at = _app()
    _script_two_sources(app_env)
    _ask(at, "When does water boil?")
    assert [c.value for c in at.caption if c.value.startswith("Drew on:")] == ["Drew on: Water facts"]
