"""Browser fixtures: Debian chromium through Playwright, and one app server per test module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

from scripts.ensure_browser import find_chromium
from tests.e2e.server import CHROMIUM_ARGS

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
CHAT_INPUT = '[data-testid="stChatInputTextArea"]'
FOOTNOTE = '[data-testid="stBidiComponentIsolated"] button.fn-ref'
PANEL = ".st-key-side_panel"


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Chromium, or a failure saying how to get one (browser tests never skip)."""
    executable = find_chromium()
    if executable is None or not Path(executable).exists():
        pytest.fail(
            "No Chromium for the browser tests: run `make browser` (apt-get install chromium) "
            "or set FOOTNOTE_CHROMIUM."
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh tab (a fresh Streamlit session) with a desktop-sized viewport."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    yield tab
    context.close()


def wait_idle(page: Page) -> None:
    """Until the script run that the last action started has finished."""
    page.wait_for_timeout(150)  # let the rerun start before asking whether it ended
    expect(page.locator(IDLE)).to_be_attached(timeout=30_000)


def loaded_width(page: Page, img: Locator) -> int:
    """The natural width of an image once the browser has decoded it (visible is not loaded yet)."""
    expect(img).to_be_visible()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=img.element_handle())
    return img.evaluate("img => img.naturalWidth")


def ask(page: Page, question: str) -> None:
    """Type a question in the chat input, send it, wait for the answer to finish streaming."""
    page.locator(CHAT_INPUT).fill(question)
    page.locator(CHAT_INPUT).press("Enter")
    expect(page.get_by_test_id("stMainBlockContainer").get_by_text(question, exact=True).last).to_be_visible()
    wait_idle(page)
