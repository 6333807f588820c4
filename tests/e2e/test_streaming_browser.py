"""While an answer streams from a real OpenAI-compatible endpoint (scripted, on loopback), its
citations are inert badges, a half-written marker is never shown, and the footnote buttons only
appear once the answer is complete."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import CHAT_INPUT, FOOTNOTE, wait_idle
from tests.e2e.documents import guide_pdf
from tests.e2e.server import run_app, scripted_env
from tests.openai_server import ScriptedOpenAIServer, stream
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
ASSISTANT = '[data-testid="stChatMessage"]:has([data-testid="stChatMessageAvatarAssistant"])'


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, ScriptedOpenAIServer, list[str]]]:
    """The app answering through the scripted server, on a library with the water guide."""
    root = tmp_path_factory.mktemp("stream_e2e")
    library = build_library(root / "data", [("guide.pdf", guide_pdf())])
    ids = [c.chunk_id[:7] for c in library.chunks()]
    with ScriptedOpenAIServer() as llm:
        env = scripted_env(root / "data", llm.base_url)
        with run_app(env, root / "streamlit.log") as url:
            yield url, llm, ids


def test_citations_are_inert_while_streaming_and_clickable_after(app, page: Page) -> None:
    url, llm, ids = app
    first, second = ids[0], ids[1]
    llm.push(
        stream(
            "Water boils at one hundred degrees ",
            f"[{first}",
            "] at sea level.",
            3.0,
            f" It boils lower up high [{second[:4]}",
            3.0,
            f"{second[4:]}].",
            " Done.",
        )
    )
    page.goto(url)
    wait_idle(page)
    expect(page.get_by_text("scripted-model at", exact=False).first).to_be_visible()
    page.locator(CHAT_INPUT).fill("When does water boil?")
    page.locator(CHAT_INPUT).press("Enter")
    answer = page.locator(ASSISTANT).last
    # First pause: the finished marker is a numbered badge, not a button, and the id is not shown.
    expect(answer).to_contain_text("at sea level.")
    expect(answer.locator(".stMarkdownBadge")).to_have_text(["1"])
    assert page.locator(FOOTNOTE).count() == 0
    assert first not in answer.inner_text()
    # Second pause: half a marker has arrived; nothing of it is shown.
    expect(answer).to_contain_text("It boils lower up high")
    assert f"[{second[:4]}" not in answer.inner_text() and page.locator(FOOTNOTE).count() == 0
    # Finished: the interactive answer replaces the stream, with two footnote buttons.
    expect(page.locator(FOOTNOTE)).to_have_count(2, timeout=15_000)
    wait_idle(page)
    assert second not in page.locator(ASSISTANT).last.inner_text()


def test_sources_found_show_before_the_first_token(app, page: Page) -> None:
    url, llm, ids = app
    llm.push(stream(4.0, "Water boils at one hundred degrees ", f"[{ids[0]}].", " Done."))
    page.goto(url)
    wait_idle(page)
    page.locator(CHAT_INPUT).fill("When does water boil?")
    page.locator(CHAT_INPUT).press("Enter")
    answer = page.locator(ASSISTANT).last
    # The model is silent for its first seconds: what retrieval found is already on screen.
    expect(answer).to_contain_text("passages in A Short Guide to Water (p. 1")
    assert "Water boils at one hundred degrees" not in answer.inner_text()
    expect(page.locator(FOOTNOTE)).to_have_count(1, timeout=15_000)
    wait_idle(page)
    assert "Writing the answer" not in page.locator(ASSISTANT).last.inner_text()
