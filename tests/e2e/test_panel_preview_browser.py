"""A footnote click shows its text at once, from the answer's data, in the panel's place (issue 27,
components/chat/cite_relay.py): in the same task as the click, before any run; then the panel the
server drew takes over. Hostile PDF text stays inert text in the preview too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rag.stores.conversations import ConversationStore
from tests.e2e.conftest import FOOTNOTE, PANEL, ask, wait_idle
from tests.e2e.documents import GUIDE_QUESTION, HOSTILE_QUESTION, guide_pdf, hostile_pdf
from tests.e2e.server import offline_env, run_app
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
PREVIEW_HOST = '.st-key-chat_cite_relay [data-testid="stBidiComponentIsolated"]'

# Click a footnote and read the preview in the same task: nothing from the server can have come yet.
CLICK_AND_READ = """
(index) => {
  const buttons = [];
  document.querySelectorAll('[data-testid="stBidiComponentIsolated"]').forEach((host) => {
    (host.shadowRoot || host).querySelectorAll('button.fn-ref').forEach((b) => buttons.push(b));
  });
  const box = document.querySelector('@@HOST@@').shadowRoot.querySelector('.fn-preview');
  buttons[index].click();
  const panel = document.querySelector('.st-key-side_panel');
  return {
    text: box.textContent,
    shown: box.checkVisibility({visibilityProperty: true}),
    panelShown: panel ? panel.checkVisibility({visibilityProperty: true}) : false,
    elements: box.querySelectorAll('img, script, a, b, style').length,
  };
}
""".replace("@@HOST@@", PREVIEW_HOST)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app on the water guide and the hostile PDF, answering offline."""
    root = tmp_path_factory.mktemp("panel_preview_e2e")
    build_library(root / "data", [("guide.pdf", guide_pdf()), ("hostile.pdf", hostile_pdf())], chunk_size=400)
    with run_app(offline_env(root / "data"), root / "streamlit.log") as url:
        yield url, root / "data"


def _last_turn(data_dir: Path, page: Page):
    conv = re.search(r"[?&]conv=([0-9a-f]+)", page.url)
    assert conv, f"no conversation in the URL {page.url}"
    return ConversationStore(data_dir / "conversations.sqlite3").turns(conv.group(1))[-1]


def _squash(text: str) -> str:
    return "".join(text.split())


def test_a_click_shows_the_footnote_text_at_once_then_the_panel(app, page: Page) -> None:
    url, data_dir = app
    page.goto(url)
    wait_idle(page)
    ask(page, GUIDE_QUESTION)
    turn = _last_turn(data_dir, page)
    assert len(turn.answer.footnotes) >= 2
    page.mouse.move(0, 0)
    page.locator(PREVIEW_HOST).wait_for(state="attached")
    for index, footnote in ((0, turn.answer.footnotes[0]), (1, turn.answer.footnotes[1])):
        ev = footnote.evidence
        # The turn is stored before the answer's component draws its buttons (and a panel's rerun
        # draws them again): wait for the one to click, as a user would see it first.
        page.locator(FOOTNOTE).nth(index).wait_for()
        found = page.evaluate(CLICK_AND_READ, index)
        assert found["shown"] and not found["panelShown"]
        assert f"Source {footnote.number} of {len(turn.answer.footnotes)}" in found["text"]
        assert f"id {ev.short_id}" in found["text"]
        assert _squash(ev.text) in _squash(found["text"])
        # The server's panel takes over, page picture and all, and the preview hides.
        expect(page.locator(PANEL)).to_contain_text(f"id {ev.short_id}")
        expect(page.locator(PANEL)).to_be_visible()
        expect(page.locator(f"{PANEL} .st-key-panel_pages img").first).to_be_visible()
        expect(page.locator(f"{PREVIEW_HOST} .fn-preview")).to_be_hidden()
        wait_idle(page)


def test_hostile_text_stays_inert_in_the_preview(app, page: Page) -> None:
    url, data_dir = app
    page.goto(url)
    wait_idle(page)
    ask(page, HOSTILE_QUESTION)
    ev = _last_turn(data_dir, page).answer.footnotes[0].evidence
    assert "<script>" in ev.text
    page.locator(FOOTNOTE).first.wait_for()
    page.locator(PREVIEW_HOST).wait_for(state="attached")
    found = page.evaluate(CLICK_AND_READ, 0)
    assert found["shown"] and found["elements"] == 0
    assert '<img src=x onerror="window.__pwned=1"> Evil <b>title</b>' in found["text"]
    assert "<script>window.__pwned=1</script>" in found["text"]
    expect(page.locator(PANEL)).to_be_visible()
    wait_idle(page)
    assert page.evaluate("typeof window.__pwned") == "undefined"
