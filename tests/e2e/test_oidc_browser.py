"""Streamlit's own OIDC login (st.login) in a real browser, against a real OpenID Connect provider.

oidc-provider-mock runs on loopback in a process of its own: discovery, the authorization
form, the token endpoint with signed ID tokens, and the end-session page that st.logout sends the
browser to. The app gets its [auth] section from a secrets file of its own (`--secrets.files`),
never from the repository's .streamlit/ or the home folder. Chromium is kept off every address but
loopback: the provider's pages link a stylesheet on a CDN.
"""

from __future__ import annotations

import json
import re
import secrets
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from rag.stores.conversations import ConversationStore
from tests.e2e.conftest import CHAT_INPUT, FOOTNOTE, ask, new_tab, wait_idle
from tests.e2e.documents import GUIDE_QUESTION, guide_pdf
from tests.e2e.server import offline_env, run_app, serve
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
RECENT = '[data-testid="stSidebar"] [class*="st-key-conv_"]'
# Alice's email is verified, so it names her; Bob's is not, so his subject id names him.
ALICE = {"sub": "alice-0001", "email": "alice@example.com", "email_verified": True}
BOB = {"sub": "bob-0002", "email": "bob@example.com", "email_verified": False}
LOOPBACK = re.compile(r"^(https?|wss?)://127\.0\.0\.1[:/]")


@pytest.fixture(scope="module")
def provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The provider's base URL. It knows both users and insists on a nonce, as real ones do; it
    runs in a process of its own, as the app does (its Authlib calls warn, and the suite's
    warnings are errors)."""
    users = [arg for user in (ALICE, BOB) for arg in ("--user-claims", json.dumps(user))]

    def command(port: int) -> list[str]:
        where = ["--host", "127.0.0.1", "--port", str(port)]
        return [sys.executable, "-m", "oidc_provider_mock", *where, "--require-nonce", *users]

    log = tmp_path_factory.mktemp("oidc_provider") / "provider.log"
    with serve("the provider", command, log, "/.well-known/openid-configuration") as url:
        yield url


@pytest.fixture(scope="module")
def app(provider: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp("oidc_e2e")
    data_dir = root / "data"
    build_library(data_dir, [("guide.pdf", guide_pdf())], chunk_size=400)
    secrets_file = root / "secrets.toml"
    # {port} is Streamlit's own placeholder for server.port. The redirect URI's origin must be the
    # one the browser uses: the login cookie is only honoured on a websocket from that origin.
    # client_kwargs are the default provider's options, not a provider: still one "Log in" button.
    secrets_file.write_text(
        f"""[auth]
redirect_uri = "http://127.0.0.1:{{port}}/oauth2callback"
cookie_secret = "{secrets.token_hex(32)}"
client_id = "footnote-e2e"
client_secret = "{secrets.token_hex(16)}"
server_metadata_url = "{provider}/.well-known/openid-configuration"
client_kwargs = {{ prompt = "login" }}
""",
        encoding="utf-8",
    )
    env = offline_env(data_dir)
    options = ["--secrets.files", str(secrets_file)]
    with run_app(env, root / "streamlit.log", options) as url:
        yield url, data_dir


def _only_loopback(route: Route) -> None:
    if LOOPBACK.match(route.request.url):
        route.continue_()
    else:
        route.abort()


@pytest.fixture
def tab(browser: Browser) -> Iterator[Page]:
    """One browser for the whole story: logging out must be enough to become somebody else."""
    page = new_tab(browser)
    page.context.route("**/*", _only_loopback)
    yield page
    page.context.close()


def _conv(page: Page) -> str | None:
    found = re.search(r"[?&]conv=([0-9a-f]+)", page.url)
    return found.group(1) if found else None


def _expect_logged_out(page: Page, url: str) -> None:
    expect(page).to_have_url(re.compile(re.escape(url) + r"/?$"))
    wait_idle(page)
    main = page.get_by_test_id("stMain")
    expect(main.get_by_role("button")).to_have_count(1)
    expect(main.get_by_role("button", name="Log in")).to_be_visible()
    expect(page.locator(CHAT_INPUT)).to_have_count(0)
    expect(page.locator(RECENT)).to_have_count(0)
    assert "Signed in as" not in page.get_by_test_id("stApp").inner_text()


def _log_in(page: Page, url: str, provider: str, user: dict[str, object]) -> None:
    """From the app's log-in page through the provider's form back to the app, as ``user``."""
    page.get_by_test_id("stMain").get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(re.escape(provider) + r"/oauth2/authorize\?"))
    expect(page.get_by_role("heading", name="Authorize Client")).to_be_visible()
    page.get_by_placeholder("sub").fill(str(user["sub"]))
    page.get_by_role("button", name="Authorize", exact=True).click()
    expect(page).to_have_url(re.compile(re.escape(url) + r"/?$"))
    wait_idle(page)


def _log_out(page: Page, url: str, provider: str) -> None:
    """st.logout clears the app's cookie, then ends the session at the provider and comes back."""
    page.get_by_test_id("stSidebar").get_by_role("button", name="Log out").click()
    expect(page).to_have_url(re.compile(re.escape(provider) + r"/oauth2/end_session\?"))
    page.get_by_role("button", name="End session").click()
    _expect_logged_out(page, url)


def test_oidc_users_see_only_their_own_chats(app, provider: str, tab: Page) -> None:
    url, data_dir = app
    tab.goto(url)
    _expect_logged_out(tab, url)

    _log_in(tab, url, provider, ALICE)
    expect(tab.get_by_test_id("stSidebar")).to_contain_text("Signed in as alice@example.com")
    ask(tab, GUIDE_QUESTION)
    expect(tab.locator(FOOTNOTE).first).to_be_visible()
    conv = _conv(tab)
    assert conv is not None
    _log_out(tab, url, provider)

    # Bob, in the same browser: his subject id (his email is unverified), none of Alice's chats,
    # and her link is "no longer exists", as a deleted chat.
    _log_in(tab, url, provider, BOB)
    expect(tab.get_by_test_id("stSidebar")).to_contain_text("Signed in as bob-0002")
    expect(tab.locator(RECENT)).to_have_count(0)
    tab.goto(f"{url}/?conv={conv}")
    wait_idle(tab)
    expect(tab.get_by_test_id("stToast")).to_contain_text("no longer exists")
    expect(tab.locator(CHAT_INPUT)).to_be_visible()
    assert _conv(tab) is None
    assert GUIDE_QUESTION not in tab.get_by_test_id("stApp").inner_text()
    expect(tab.locator(FOOTNOTE)).to_have_count(0)
    ask(tab, "How does a kettle switch itself off?")
    assert _conv(tab) not in (None, conv)
    _log_out(tab, url, provider)

    # Alice again: her conversation is listed, and her link opens it with its footnotes.
    _log_in(tab, url, provider, ALICE)
    expect(tab.get_by_test_id("stSidebar")).to_contain_text("Signed in as alice@example.com")
    expect(tab.locator(RECENT)).to_have_count(1)
    expect(tab.locator(RECENT)).to_contain_text(GUIDE_QUESTION)
    tab.goto(f"{url}/?conv={conv}")
    wait_idle(tab)
    expect(tab.get_by_test_id("stMainBlockContainer").get_by_text(GUIDE_QUESTION, exact=True)).to_be_visible()
    expect(tab.locator(FOOTNOTE).first).to_be_visible()

    store = ConversationStore(data_dir / "conversations.sqlite3")
    assert store.users() == ["alice@example.com", "bob-0002"]
    assert [t.answer.question for t in store.for_user("alice@example.com").all_turns()] == [GUIDE_QUESTION]
