"""Pick a model in the sidebar of a real browser: the answer comes from it and says so, and the
conversation keeps it across a reload."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ask, wait_idle
from tests.e2e.documents import guide_pdf
from tests.e2e.server import run_app, scripted_env
from tests.openai_server import ScriptedOpenAIServer, stream
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
ASSISTANT = '[data-testid="stChatMessage"]:has([data-testid="stChatMessageAvatarAssistant"])'
PICKER = ".st-key-chat_model_pick"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, ScriptedOpenAIServer]]:
    """The app on a scripted endpoint that lists three models."""
    root = tmp_path_factory.mktemp("picker_e2e")
    build_library(root / "data", [("guide.pdf", guide_pdf())])
    with ScriptedOpenAIServer() as llm:
        llm.models = ["alpha-7b", "beta-13b", "scripted-model"]
        env = scripted_env(root / "data", llm.base_url)
        with run_app(env, root / "streamlit.log") as url:
            yield url, llm


def test_a_picked_model_answers_is_named_on_the_answer_and_survives_a_reload(app, page: Page) -> None:
    url, llm = app
    page.goto(url)
    wait_idle(page)
    picker = page.locator(PICKER).get_by_role("combobox")
    expect(picker).to_have_value("scripted-model")
    picker.click()
    page.get_by_role("option", name="beta-13b").click()
    wait_idle(page)
    llm.push(stream("Water boils at one hundred degrees at sea level."))
    ask(page, "When does water boil?")
    expect(page.locator(ASSISTANT).last).to_contain_text(f"beta-13b at {llm.base_url}")
    assert [r["body"]["model"] for r in llm.requests if r["path"].endswith("/chat/completions")] == [
        "beta-13b"
    ]
    page.reload()  # a new session: the model comes back from the saved conversation
    wait_idle(page)
    expect(page.locator(PICKER).get_by_role("combobox")).to_have_value("beta-13b")
