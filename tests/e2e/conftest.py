"""Browser fixtures: Debian chromium through Playwright, and one app server per test module."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from scripts.ensure_browser import find_chromium
from tests.e2e.server import CHROMIUM_ARGS

IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
CHAT_INPUT = '[data-testid="stChatInputTextArea"]'
FOOTNOTE = '[data-testid="stBidiComponentIsolated"] button.fn-ref'
PANEL = ".st-key-side_panel"

# Playwright's own default for expect() is 5 s, which a loaded 2-core machine can need for one
# rerun: a deadline only, every expect still returns as soon as its condition holds.
expect.set_options(timeout=30_000)

# Counts the script runs the page has seen finish (stApp's data-test-script-state turning to
# "notRunning"), from the first run on; wait_idle waits for the next one instead of sleeping.
RUN_COUNTER_JS = """
window.__footnoteRuns = 0;
window.__footnoteSeen = 0;
new MutationObserver((records) => {
  for (const r of records) {
    const now = r.target.getAttribute("data-test-script-state");
    if (r.target.dataset.testid === "stApp" && now === "notRunning" && r.oldValue !== "notRunning") {
      window.__footnoteRuns += 1;
    }
  }
}).observe(document, {
  subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["data-test-script-state"],
});
"""
# An action that starts no run at all (rare) is let through after this long.
NEW_RUN_GRACE_MS = 5_000


def new_tab(browser: Browser, **context_options: object) -> Page:
    """A fresh tab (a fresh Streamlit session), desktop-sized, that counts its script runs."""
    context = browser.new_context(viewport={"width": 1400, "height": 900}, **context_options)
    context.add_init_script(RUN_COUNTER_JS)
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    return tab


# Module scope, not session: while sync_playwright is open its asyncio loop is the running loop of
# the main thread, so every async test after the first browser module (langchain-tests' ainvoke,
# pytest-asyncio's runner) failed with "Cannot run the event loop while another loop is running"
# (CI of stop 28). Closed at each browser module's end, it leaves no loop behind.
@pytest.fixture(scope="module")
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
    tab = new_tab(browser)
    yield tab
    tab.context.close()


def wait_idle(page: Page) -> None:
    """Until the script run that the last action started has finished: a run that ended since
    the previous wait_idle (counted in the page, RUN_COUNTER_JS), then the app idle."""
    # When none comes within the grace, the action started no run (or the page does not count
    # them): the app idle is then enough.
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            "() => window.__footnoteRuns > window.__footnoteSeen", timeout=NEW_RUN_GRACE_MS
        )
    expect(page.locator(IDLE)).to_be_attached(timeout=60_000)
    page.evaluate("() => { window.__footnoteSeen = window.__footnoteRuns; }")


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
