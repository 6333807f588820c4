"""What `make run` gives a first-time user, in a real browser: the default local embeddings and
the offline answerer, the sample documents, a question, a footnote, its passage on its page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import FOOTNOTE, PANEL, ask, wait_idle
from tests.e2e.server import run_app

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """An app server on an empty data directory, every other setting at its default."""
    root = tmp_path_factory.mktemp("defaults_e2e")
    with run_app({"FOOTNOTE_DATA_DIR": str(root / "data")}, root / "streamlit.log") as url:
        yield url


def test_samples_then_a_cited_answer_with_the_default_models(app: str, page: Page) -> None:
    page.goto(app + "/library")
    wait_idle(page)
    page.get_by_role("button", name="Load sample documents").click()
    wait_idle(page)
    expect(page.get_by_text("Documents (2)")).to_be_visible(timeout=60_000)

    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Chat").click()
    wait_idle(page)
    ask(page, "How many singing reed warbler males did the wardens count in 2025?")
    answer = page.get_by_test_id("stChatMessage").last
    expect(answer).to_contain_text("186", timeout=60_000)
    expect(page.locator(FOOTNOTE).first).to_be_visible()
    page.locator(FOOTNOTE).first.click()
    panel = page.locator(PANEL)
    expect(panel).to_contain_text("A Field Guide to the Birds of Kettle Fen")
    expect(panel).to_contain_text("186 singing males")
    expect(panel.locator("img").first).to_be_visible()
