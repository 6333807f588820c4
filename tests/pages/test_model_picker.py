"""The sidebar's model picker in AppTest, against the loopback OpenAI-compatible server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from components.shared import state
from components.shared.render import escape_markdown
from rag.stores.conversations import ConversationStore
from tests.openai_server import Error, ScriptedOpenAIServer, stream
from tests.pages.conftest import ROOT

CONFIGURED = "configured-model"


@pytest.fixture
def server(app_env: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedOpenAIServer]:
    """The app pointed at a loopback endpoint that lists two models besides the configured one."""
    with ScriptedOpenAIServer() as running:
        running.models = ["beta-13b", CONFIGURED, "alpha-7b"]
        monkeypatch.setenv("FOOTNOTE_LLM_PROVIDER", "openai")
        monkeypatch.setenv("FOOTNOTE_LLM_BASE_URL", running.base_url)
        monkeypatch.setenv("FOOTNOTE_LLM_MODEL", CONFIGURED)
        monkeypatch.setenv("FOOTNOTE_LLM_RETRIES", "0")
        yield running


def _app() -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def _ask(at: AppTest, question: str) -> None:
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception


def _conv(at: AppTest) -> str:
    value = at.query_params.get("conv")
    return value[0] if isinstance(value, list) else value


def _chat_requests(server: ScriptedOpenAIServer) -> list[str]:
    return [r["body"]["model"] for r in server.requests if r["path"].endswith("/chat/completions")]


def test_the_picked_model_answers_is_shown_and_is_remembered_per_conversation(
    server: ScriptedOpenAIServer, app_env: Path
) -> None:
    at = _app()
    picker = at.selectbox(key=state.MODEL_PICK)
    assert picker.options == ["alpha-7b", "beta-13b", CONFIGURED] and picker.value == CONFIGURED
    picker.select("beta-13b").run()
    server.push(stream("Water boils at one hundred degrees."))
    _ask(at, "When does water boil?")
    first = _conv(at)
    assert _chat_requests(server) == ["beta-13b"]
    store = ConversationStore(app_env / "conversations.sqlite3")
    [turn] = store.turns(first)
    assert turn.answer.provider == f"beta-13b at {server.base_url}"
    assert any(escape_markdown(turn.answer.provider) in m.value for m in at.markdown)  # on the answer
    assert store.model(first) == "beta-13b"

    at.button(key="new_chat").click().run()
    at.selectbox(key=state.MODEL_PICK).select("alpha-7b").run()
    assert ConversationStore(app_env / "conversations.sqlite3").model(first) == "beta-13b"
    at.button(key=f"conv_{first}").click().run()
    assert at.selectbox(key=state.MODEL_PICK).value == "beta-13b"  # the conversation's own model


@pytest.mark.parametrize("listed", [Error(404, "no such route"), []], ids=["404", "empty"])
def test_an_endpoint_without_a_model_list_keeps_the_configured_model(
    server: ScriptedOpenAIServer, listed: Error | list
) -> None:
    server.models = listed
    at = _app()
    assert not [s for s in at.selectbox if s.key == state.MODEL_PICK]
    assert any("lists no models" in c.value and escape_markdown(CONFIGURED) in c.value for c in at.caption)
    server.push(stream("Water boils at one hundred degrees."))
    _ask(at, "When does water boil?")
    assert _chat_requests(server) == [CONFIGURED]


def test_the_offline_answerer_shows_no_picker(app_env: Path) -> None:
    at = _app()
    assert not [s for s in at.selectbox if s.key == state.MODEL_PICK]
    assert not any("lists no models" in c.value for c in at.caption)
