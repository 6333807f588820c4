"""Two users on one app in a real browser, named by a trusted proxy header (FOOTNOTE_TRUSTED_USER_HEADER).

Each browser context sends the header on every request, the websocket's included, as a login
proxy such as oauth2-proxy would (Playwright's extra_http_headers stands in for the proxy).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from rag.stores.conversations import ConversationStore
from tests.e2e.conftest import CHAT_INPUT, FOOTNOTE, PANEL, ask, new_tab, wait_idle
from tests.e2e.documents import GUIDE_QUESTION, guide_pdf
from tests.e2e.server import offline_env, run_app
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
HEADER = "X-Forwarded-Email"
RECENT = '[data-testid="stSidebar"] [class*="st-key-conv_"]'


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp("users_e2e")
    data_dir = root / "data"
    build_library(data_dir, [("guide.pdf", guide_pdf())], chunk_size=400)
    env = offline_env(data_dir, FOOTNOTE_TRUSTED_USER_HEADER=HEADER)
    with run_app(env, root / "streamlit.log") as url:
        yield url, data_dir


def _tab(browser: Browser, email: str | None) -> Page:
    headers = {HEADER: email} if email else {}
    return new_tab(browser, extra_http_headers=headers)


def _conv(page: Page) -> str | None:
    found = re.search(r"[?&]conv=([0-9a-f]+)", page.url)
    return found.group(1) if found else None


def test_two_users_on_one_app_see_only_their_own_chats(app, browser: Browser) -> None:
    url, data_dir = app
    alice, bob, nobody = (
        _tab(browser, "alice@example.com"),
        _tab(browser, "bob@example.com"),
        _tab(browser, None),
    )
    try:
        alice.goto(url)
        wait_idle(alice)
        expect(alice.get_by_test_id("stSidebar")).to_contain_text("Signed in as alice@example.com")
        ask(alice, GUIDE_QUESTION)
        alice.locator(FOOTNOTE).first.click()
        expect(alice.locator(PANEL)).to_contain_text("A Short Guide to Water")
        conv = _conv(alice)
        assert conv is not None

        # Bob gets Alice's link: not found, a new chat, nothing of hers anywhere on the page.
        bob.goto(f"{url}/?conv={conv}")
        wait_idle(bob)
        expect(bob.get_by_test_id("stToast")).to_contain_text("no longer exists")
        expect(bob.get_by_test_id("stSidebar")).to_contain_text("Signed in as bob@example.com")
        expect(bob.locator(CHAT_INPUT)).to_be_visible()
        assert _conv(bob) is None
        assert GUIDE_QUESTION not in bob.get_by_test_id("stApp").inner_text()
        expect(bob.locator(FOOTNOTE)).to_have_count(0)
        expect(bob.locator(RECENT)).to_have_count(0)
        ask(bob, "How does a kettle switch itself off?")
        assert _conv(bob) not in (None, conv)

        # Bob's audit page lists only his answer; Alice's reload lists only her chat.
        bob.goto(f"{url}/audit")
        wait_idle(bob)
        expect(bob.get_by_test_id("stMain")).to_contain_text("How does a kettle switch itself off?")
        assert GUIDE_QUESTION not in bob.get_by_test_id("stMain").inner_text()
        alice.reload()
        wait_idle(alice)
        expect(alice.locator(RECENT)).to_have_count(1)
        expect(alice.locator(RECENT)).to_contain_text(GUIDE_QUESTION)
        expect(alice.locator(FOOTNOTE).first).to_be_visible()

        # A request that did not come through the proxy: a message, no chat, no conversations.
        nobody.goto(f"{url}/?conv={conv}")
        wait_idle(nobody)
        expect(nobody.get_by_test_id("stAlertContentError")).to_contain_text(HEADER)
        expect(nobody.locator(CHAT_INPUT)).to_have_count(0)
        assert GUIDE_QUESTION not in nobody.get_by_test_id("stApp").inner_text()

        store = ConversationStore(data_dir / "conversations.sqlite3")
        assert store.users() == ["alice@example.com", "bob@example.com"] and store.list_recent() == []
        assert [t.answer.question for t in store.for_user("alice@example.com").all_turns()] == [
            GUIDE_QUESTION
        ]
    finally:
        for tab in (alice, bob, nobody):
            tab.context.close()
