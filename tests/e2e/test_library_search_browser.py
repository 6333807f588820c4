"""Library search and the original PDF in a real browser: search -> hit -> the side panel with
the passage; a footnote's side panel -> the original PDF drawn at the cited page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import FOOTNOTE, PANEL, ask, loaded_width, wait_idle
from tests.e2e.documents import GUIDE_QUESTION, guide_pdf, hostile_pdf
from tests.e2e.server import offline_env, run_app
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
SEARCH_BOX = ".st-key-library_query input"
PDF_PAGE = ".st-key-panel_pdf .react-pdf__Page"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One app server for the module, on a library with the water guide and the hostile PDF."""
    root = tmp_path_factory.mktemp("search_e2e")
    data_dir = root / "data"
    build_library(data_dir, [("guide.pdf", guide_pdf()), ("hostile.pdf", hostile_pdf())], chunk_size=400)
    env = offline_env(data_dir)
    with run_app(env, root / "streamlit.log") as url:
        yield url


def test_search_hit_opens_the_side_panel_on_the_passage(app: str, page: Page) -> None:
    page.goto(f"{app}/library")
    wait_idle(page)
    page.locator(SEARCH_BOX).fill('"summit of Mount Everest"')
    page.locator(SEARCH_BOX).press("Enter")
    wait_idle(page)
    hits = page.locator(".st-key-library_hit_0 button")
    expect(hits).to_contain_text("A Short Guide to Water · page 2")
    expect(page.locator('[class*="st-key-library_hit_"] button')).to_have_count(1)
    expect(page.locator(PANEL)).to_have_count(0)
    hits.click()
    panel = page.locator(PANEL)
    expect(panel).to_contain_text("Match on page 2 (index 1)")
    wait_idle(page)
    expect(panel.locator(".st-key-cited_passage")).to_have_text("summit of Mount Everest")
    assert "water boils at about 70 degrees Celsius" in " ".join(panel.inner_text().split())
    assert loaded_width(page, panel.locator("img").first) > 100


def test_footnote_panel_opens_the_original_pdf_at_the_cited_page(app: str, page: Page) -> None:
    page.goto(app)
    wait_idle(page)
    ask(page, GUIDE_QUESTION)
    expect(page.locator(FOOTNOTE).first).to_be_visible()  # the interactive answer is mounted
    panel = page.locator(PANEL)
    labels = []
    for i in range(page.locator(FOOTNOTE).count()):  # a footnote past page 1, so the cut shows
        page.locator(FOOTNOTE).nth(i).click()
        expect(panel.locator(".st-key-panel_download button")).to_contain_text("Download PDF")
        expect(panel).to_contain_text(f"Source {i + 1}")
        wait_idle(page)
        meta = panel.locator(".st-key-panel_meta").inner_text()
        labels.append(meta.split("Page ", 1)[1].split(" ", 1)[0].split("-")[0])  # the guide's: 1, 2, 3
        if labels[-1] != "1":
            break
    label = labels[-1]
    assert label != "1", f"every footnote cites page 1 ({labels}): the test needs one further on"
    panel.get_by_text("Original PDF").click()
    wait_idle(page)
    expect(panel.locator(".st-key-panel_original_note")).to_contain_text(f"From page {label}")
    first_page = panel.locator(PDF_PAGE).first
    expect(first_page).to_be_visible(timeout=30_000)
    expect(first_page.locator("canvas")).to_be_visible()
    # The viewer draws to canvases (no text layer): the excerpt runs from the cited page to the
    # end of this 3-page guide, so its page count says where it starts.
    expect(panel.locator(PDF_PAGE)).to_have_count(3 - (int(label) - 1))
