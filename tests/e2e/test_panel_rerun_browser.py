"""A footnote click reruns the side panel alone (issue 27): what the server sends for it carries the
panel and none of the saved answers; the panel's footnote is highlighted in its answer as the panel
moves, and Enter on a focused footnote opens it too; and a click while an answer streams still
finishes the chat first (the stream is cut off and kept, marked interrupted, as any other event
does)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rag.stores.conversations import ConversationStore
from tests.e2e.conftest import CHAT_INPUT, FOOTNOTE, PANEL, ask, wait_idle
from tests.e2e.documents import GUIDE_QUESTION, guide_pdf
from tests.e2e.server import offline_env, run_app, scripted_env
from tests.openai_server import ScriptedOpenAIServer, stream
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
SECOND_QUESTION = "At what temperature does water boil on Mount Everest?"
# The background of a button, read from its computed style (the highlight is a page-level rule).
_BACKGROUND = "b => getComputedStyle(b).backgroundColor"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app on the water guide, answering offline."""
    root = tmp_path_factory.mktemp("panel_rerun_e2e")
    build_library(root / "data", [("guide.pdf", guide_pdf())], chunk_size=400)
    env = offline_env(root / "data")
    with run_app(env, root / "streamlit.log") as url:
        yield url, root / "data"


def _turns(data_dir: Path, page: Page) -> list:
    conv = re.search(r"[?&]conv=([0-9a-f]+)", page.url)
    assert conv, f"no conversation in the URL {page.url}"
    return ConversationStore(data_dir / "conversations.sqlite3").turns(conv.group(1))


def _received(page: Page) -> list[bytes]:
    """Every websocket frame the server sends this tab from now on."""
    frames: list[bytes] = []

    def on_socket(ws) -> None:
        ws.on("framereceived", lambda p: frames.append(p if isinstance(p, bytes) else p.encode()))

    page.on("websocket", on_socket)
    return frames


def test_a_click_sends_the_panel_and_none_of_the_saved_answers(app, page: Page) -> None:
    url, data_dir = app
    frames = _received(page)
    page.goto(url)
    wait_idle(page)
    ask(page, GUIDE_QUESTION)
    ask(page, SECOND_QUESTION)
    first, second = _turns(data_dir, page)
    assert first.answer.footnotes and second.answer.footnotes
    expect(page.locator(FOOTNOTE).first).to_be_visible()
    page.mouse.move(0, 0)
    wait_idle(page)
    assert any(b"fn-ref" in f for f in frames)  # the answers came over this socket
    frames.clear()

    page.locator(FOOTNOTE).first.click()
    evidence = first.answer.footnotes[0].evidence
    expect(page.locator(PANEL)).to_contain_text(f"id {evidence.short_id}")
    wait_idle(page)
    sent = b"".join(frames)
    assert f"id {evidence.short_id}".encode() in sent  # the panel
    assert b"fn-ref" not in sent  # no answer's HTML
    for turn in (first, second):
        assert turn.answer.question.encode() not in sent  # nor any turn's question


def test_the_panels_footnote_is_highlighted_in_its_answer(app, page: Page) -> None:
    url, data_dir = app
    page.goto(url)
    wait_idle(page)
    ask(page, GUIDE_QUESTION)
    [turn] = _turns(data_dir, page)
    assert len(turn.answer.footnotes) >= 2
    buttons = page.locator(FOOTNOTE)
    page.mouse.move(0, 0)
    idle = buttons.first.evaluate(_BACKGROUND)
    second = page.locator(f'{FOOTNOTE}[data-n="2"]').first
    second.click()
    page.mouse.move(0, 0)  # not hovered, and a mouse click does not show focus: only the panel's rule
    expect(page.locator(PANEL)).to_contain_text("Source 2")
    wait_idle(page)
    first = page.locator(f'{FOOTNOTE}[data-n="1"]').first
    expect(second).not_to_have_css("background-color", idle)
    assert first.evaluate(_BACKGROUND) == idle
    page.locator(".st-key-panel_prev button").first.click()
    expect(page.locator(PANEL)).to_contain_text("Source 1")
    wait_idle(page)
    expect(first).not_to_have_css("background-color", idle)
    expect(second).to_have_css("background-color", idle)
    page.locator(".st-key-panel_close button").first.click()
    expect(page.locator(PANEL)).to_have_count(0)
    expect(first).to_have_css("background-color", idle)
    second.focus()  # from the keyboard: the panel opens and the footnote keeps the focus
    page.keyboard.press("Enter")
    expect(page.locator(PANEL)).to_contain_text("Source 2")
    wait_idle(page)
    assert second.evaluate("b => b.getRootNode().activeElement === b")


@pytest.fixture(scope="module")
def scripted(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, ScriptedOpenAIServer, list[str]]]:
    """The app answering through the scripted server (slow streams on demand)."""
    root = tmp_path_factory.mktemp("panel_stream_e2e")
    library = build_library(root / "data", [("guide.pdf", guide_pdf())])
    ids = [c.chunk_id[:7] for c in library.chunks()]
    with ScriptedOpenAIServer() as llm:
        env = scripted_env(root / "data", llm.base_url)
        with run_app(env, root / "streamlit.log") as url:
            yield url, llm, ids


def test_a_click_while_an_answer_streams_finishes_the_chat_first(scripted, page: Page) -> None:
    url, llm, ids = scripted
    slow = [part for n in range(1, 61) for part in (0.25, f" Step {n}.")]
    llm.push(
        stream("Water boils at one hundred degrees ", f"[{ids[0]}]."),
        stream("Ice melts at zero degrees ", f"[{ids[1]}].", *slow, " The end."),
    )
    page.goto(url)
    wait_idle(page)
    ask(page, "When does water boil?")
    page.locator(CHAT_INPUT).fill("When does ice melt?")
    page.locator(CHAT_INPUT).press("Enter")
    expect(page.get_by_test_id("stChatMessage").last).to_contain_text("Step 2.")
    page.locator(FOOTNOTE).first.click()  # the first answer's footnote, mid-stream
    expect(page.locator(PANEL)).to_contain_text(f"id {ids[0]}")
    wait_idle(page)
    # The cut-off answer is saved and drawn as an interactive answer, not left as streamed text.
    expect(page.locator('.stMarkdownBadge:has-text("Interrupted")')).to_be_visible()
    expect(page.locator(".st-key-chat_stop button")).to_have_count(0)
    expect(page.locator(FOOTNOTE)).to_have_count(2)
