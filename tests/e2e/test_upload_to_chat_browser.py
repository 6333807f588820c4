"""From an empty library to a footnote: upload on the Library page, ask on the Chat page, click."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import FOOTNOTE, PANEL, ask, wait_idle
from tests.e2e.documents import GUIDE_QUESTION, GUIDE_TITLE, guide_pdf
from tests.e2e.server import offline_env, run_app

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """An app server on an empty data directory."""
    root = tmp_path_factory.mktemp("upload_e2e")
    env = offline_env(root / "data", chunk_size=180)
    (root / "guide.pdf").write_bytes(guide_pdf())
    with run_app(env, root / "streamlit.log") as url:
        yield url, root / "guide.pdf"


def test_upload_then_ask_then_open_the_second_footnote(app, page: Page) -> None:
    url, pdf = app
    page.goto(url)
    wait_idle(page)
    expect(page.get_by_text("The library is empty")).to_be_visible()
    page.get_by_role("link", name="Open the Library").click()
    wait_idle(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(pdf))
    add = page.get_by_role("button", name="Add to library")
    expect(add).to_be_enabled()
    add.click()
    wait_idle(page)
    expect(page.get_by_text("guide.pdf").first).to_be_visible()
    expect(page.get_by_text("Documents (1)")).to_be_visible()

    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Chat").click()
    wait_idle(page)
    ask(page, GUIDE_QUESTION)
    expect(page.locator(FOOTNOTE)).to_have_count(3)  # three sentences on the boiling point, each cited
    page.locator(FOOTNOTE).nth(1).click()
    panel = page.locator(PANEL)
    expect(panel).to_contain_text("Source 2 of 3")
    expect(panel).to_contain_text(GUIDE_TITLE)
    expect(panel.locator("img").first).to_be_visible()
