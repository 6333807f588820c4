"""Cutting an answer off in the browser keeps it: Stop mid-stream, then reload, shows the partial
answer marked interrupted; a second question sent mid-stream keeps the first turn (partial,
interrupted) and answers the second. The model is the scripted server on loopback, streaming
slowly."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rag.stores.conversations import ConversationStore
from tests.e2e.conftest import CHAT_INPUT, wait_idle
from tests.e2e.documents import guide_pdf
from tests.e2e.server import run_app, scripted_env
from tests.openai_server import ScriptedOpenAIServer, Stream, stream
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
ASSISTANT = '[data-testid="stChatMessage"]:has([data-testid="stChatMessageAvatarAssistant"])'
ANSWER = '[data-testid="stBidiComponentIsolated"] .fn-answer'
STOP = ".st-key-chat_stop button"
INTERRUPTED = '.stMarkdownBadge:has-text("Interrupted")'
STEPS = 60  # slow enough that the reader always acts long before the end


@pytest.fixture(scope="module")
def app(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, ScriptedOpenAIServer, list[str], Path]]:
    """The app answering through the scripted server, on a library with the water guide."""
    root = tmp_path_factory.mktemp("stop_e2e")
    library = build_library(root / "data", [("guide.pdf", guide_pdf())])
    ids = [c.chunk_id[:7] for c in library.chunks()]
    with ScriptedOpenAIServer() as llm:
        env = scripted_env(root / "data", llm.base_url)
        with run_app(env, root / "streamlit.log") as url:
            yield url, llm, ids, root / "data"


def _slow(first_id: str) -> Stream:
    steps = [part for n in range(1, STEPS + 1) for part in (0.25, f" Step {n}.")]
    return stream("Water boils at one hundred degrees ", f"[{first_id}].", *steps, " The end.")


def _turns(data_dir: Path, page: Page) -> list:
    conv = re.search(r"[?&]conv=([0-9a-f]+)", page.url)
    assert conv, f"no conversation in the URL {page.url}"
    return ConversationStore(data_dir / "conversations.sqlite3").turns(conv.group(1))


def _send(page: Page, question: str) -> None:
    page.locator(CHAT_INPUT).fill(question)
    page.locator(CHAT_INPUT).press("Enter")


def test_stop_keeps_the_partial_answer_marked_interrupted_after_reload(app, page: Page) -> None:
    url, llm, ids, data_dir = app
    llm.push(_slow(ids[0]))
    page.goto(url)
    wait_idle(page)
    _send(page, "When does water boil?")
    expect(page.locator(ASSISTANT).last).to_contain_text("Step 3.")
    expect(page.locator(STOP)).to_have_count(1)
    page.locator(STOP).click()
    wait_idle(page)
    answer = page.locator(ANSWER)
    expect(answer).to_contain_text("Water boils at one hundred degrees")
    expect(page.locator(INTERRUPTED)).to_be_visible()
    [turn] = _turns(data_dir, page)
    assert turn.answer.interrupted and "Step 3." in turn.answer.text and "The end." not in turn.answer.text
    assert [f.short_id for f in turn.answer.footnotes] == [ids[0]]
    shown = answer.inner_text()
    page.reload()
    wait_idle(page)
    expect(page.locator(ANSWER)).to_have_text(shown)
    expect(page.locator(INTERRUPTED)).to_be_visible()
    expect(page.locator(STOP)).to_have_count(0)
    answers = [
        r for r in llm.requests if r["path"].endswith("/chat/completions")
    ]  # the sidebar lists models too
    assert len(answers) == 1, "the reload called the model again"


def test_second_question_mid_stream_keeps_the_first_turn(app, page: Page) -> None:
    url, llm, ids, data_dir = app
    llm.push(_slow(ids[0]), stream("Ice melts at zero degrees ", f"[{ids[1]}].", " Finished."))
    page.goto(url)
    wait_idle(page)
    _send(page, "When does water boil?")
    expect(page.locator(ASSISTANT).last).to_contain_text("Step 2.")
    _send(page, "When does ice melt?")
    expect(page.locator(ANSWER).last).to_contain_text("Finished.", timeout=30_000)
    wait_idle(page)
    first, second = _turns(data_dir, page)
    assert first.answer.question == "When does water boil?" and first.answer.interrupted
    assert "Step 2." in first.answer.text and "The end." not in first.answer.text
    assert second.answer.question == "When does ice melt?" and not second.answer.interrupted
    assert second.answer.text.endswith("Finished.")
    expect(page.locator(ANSWER)).to_have_count(2)
    expect(page.locator(ANSWER).first).to_contain_text("Step 2.")
    expect(page.locator(INTERRUPTED)).to_have_count(1)
