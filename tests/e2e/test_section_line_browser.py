"""A footnote's section, from its document's bookmarks, in the browser: in the preview a click
shows at once (components/chat/cite_relay.py, filled with textContent) and in the panel after."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from components.panel.preview import section_line
from tests.e2e.conftest import FOOTNOTE, PANEL, ask, wait_idle
from tests.e2e.server import offline_env, run_app
from tests.e2e.test_panel_preview_browser import CLICK_AND_READ, PREVIEW_HOST, _last_turn
from tests.pages.conftest import TENK, build_library, outlined_pdf

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app on a bookmarked 10-K-like PDF, answering offline."""
    root = tmp_path_factory.mktemp("section_line_e2e")
    build_library(root / "data", [("tenk.pdf", outlined_pdf(TENK))], chunk_size=400)
    with run_app(offline_env(root / "data"), root / "streamlit.log") as url:
        yield url, root / "data"


def test_the_preview_and_the_panel_name_the_footnotes_section(app, page: Page) -> None:
    url, data_dir = app
    page.goto(url)
    wait_idle(page)
    ask(page, "Which patent suit is the company a defendant in?")
    footnote = _last_turn(data_dir, page).answer.footnotes[0]
    where = section_line(footnote.evidence)
    assert where.startswith("In Item ")  # every page of this PDF lies in a bookmarked section
    page.mouse.move(0, 0)
    page.locator(PREVIEW_HOST).wait_for(state="attached")
    page.locator(FOOTNOTE).first.wait_for()
    found = page.evaluate(CLICK_AND_READ, 0)
    assert found["shown"] and where in found["text"]
    expect(page.locator(PANEL)).to_contain_text(where)
    wait_idle(page)
