"""The chat page in a real browser: ask, click a footnote, see the passage and page, reload."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rag.stores.conversations import ConversationStore
from tests.e2e.conftest import FOOTNOTE, PANEL, ask, loaded_width, wait_idle
from tests.e2e.documents import GUIDE_QUESTION, HOSTILE_QUESTION, guide_pdf, hostile_pdf
from tests.e2e.server import offline_env, run_app
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
CONVERSATIONS = "conversations.sqlite3"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One app server for the module, on a library seeded with the guide and the hostile PDF."""
    root = tmp_path_factory.mktemp("chat_e2e")
    data_dir = root / "data"
    build_library(data_dir, [("guide.pdf", guide_pdf()), ("hostile.pdf", hostile_pdf())], chunk_size=400)
    env = offline_env(data_dir)
    with run_app(env, root / "streamlit.log") as url:
        yield url, data_dir


def _panel_shows(page: Page, evidence) -> None:
    """The panel shows this evidence: its id (waited for), then its whole text, whitespace aside."""
    panel = page.locator(PANEL)
    expect(panel).to_contain_text(f"id {evidence.short_id}")
    wait_idle(page)
    shown = " ".join(panel.inner_text().split())
    assert " ".join(evidence.text.split()) in shown


def _saved_turn(data_dir: Path, page: Page):
    conv = re.search(r"[?&]conv=([0-9a-f]+)", page.url)
    assert conv, f"no conversation in the URL {page.url}"
    return ConversationStore(data_dir / CONVERSATIONS).turns(conv.group(1))[-1]


def test_second_footnote_opens_its_passage_and_page_and_survives_reload(app, page: Page) -> None:
    url, data_dir = app
    page.goto(url)
    wait_idle(page)
    ask(page, GUIDE_QUESTION)
    buttons = page.locator(FOOTNOTE)
    expect(buttons).to_have_count(3)  # three sentences on the boiling point, each cited
    second = _saved_turn(data_dir, page).answer.footnotes[1].evidence
    buttons.nth(1).click()
    panel = page.locator(PANEL)
    _panel_shows(page, second)
    assert loaded_width(page, panel.locator("img").first) > 100
    pictures = panel.locator(".st-key-panel_pages img")
    expect(pictures).to_have_count(1)  # the passage; its whole page waits until asked for
    panel.locator('[data-testid="stExpander"] summary').first.click()
    expect(pictures).to_have_count(2)
    whole, cut = pictures.nth(1), pictures.first
    assert loaded_width(page, whole) > 100
    assert whole.evaluate("i => i.naturalHeight") > cut.evaluate("i => i.naturalHeight")
    wait_idle(page)

    page.reload()
    wait_idle(page)
    expect(
        page.get_by_test_id("stMainBlockContainer").get_by_text(GUIDE_QUESTION, exact=True)
    ).to_be_visible()
    expect(page.locator(FOOTNOTE)).to_have_count(3)
    page.locator(FOOTNOTE).nth(1).click()
    _panel_shows(page, second)
    wait_idle(page)
    page.locator(".st-key-panel_prev button").first.click()
    first = _saved_turn(data_dir, page).answer.footnotes[0].evidence
    _panel_shows(page, first)
    wait_idle(page)
    page.locator(".st-key-panel_close button").first.click()
    expect(page.locator(PANEL)).to_have_count(0)


def test_hostile_document_stays_inert_text_everywhere(app, page: Page) -> None:
    url, _data_dir = app
    page.goto(url)
    wait_idle(page)
    ask(page, HOSTILE_QUESTION)
    answer = page.locator('[data-testid="stBidiComponentIsolated"] .fn-answer')
    expect(answer).to_contain_text("<script>window.__pwned=1</script>")
    expect(answer).to_contain_text("<img src=x onerror=window.__pwned=1>")
    assert answer.locator("img, script, a").count() == 0
    expect(
        page.get_by_text('[1] <img src=x onerror="window.__pwned=1"> Evil <b>title</b>', exact=False)
    ).to_be_visible()
    page.locator(FOOTNOTE).first.click()
    panel = page.locator(PANEL)
    expect(panel).to_contain_text('<img src=x onerror="window.__pwned=1"> Evil <b>title</b>')
    expect(panel).to_contain_text("<script>window.__pwned=1</script>")
    assert panel.locator("script, a[href^='javascript']").count() == 0
    expect(panel.locator(".st-key-panel_pages img").first).to_be_visible()
    wait_idle(page)
    # The only pictures are the page pictures; the chunk text made none.
    assert panel.locator("img").count() == panel.locator(".st-key-panel_pages img").count()
    assert panel.locator(".st-key-panel_chunk img, .st-key-panel_title img").count() == 0
    shown = " ".join(panel.inner_text().split())
    for literal in (
        "[click me](javascript:window.__pwned=1)",
        "**bold**",
        "$\\frac{a}{b}$",
        '<a href="javascript:window.__pwned=1">anchor</a>',
    ):
        assert literal in shown, literal
    # The title is also an option of the sidebar's document filter: open it.
    page.get_by_test_id("stSidebar").locator('[data-testid="stMultiSelect"]').click()
    expect(
        page.get_by_role("option", name='<img src=x onerror="window.__pwned=1"> Evil <b>title</b>')
    ).to_be_visible()
    assert page.evaluate("typeof window.__pwned") == "undefined"
