"""Who is asking, through AppTest: two users logged in with Streamlit's OIDC login (AppTest.user
seeds st.user) share the library and see only their own chats, audit list, metrics and exports;
nobody logged in, or a configured proxy header missing, shows no chat at all.

AppTest cannot send request headers (st.context.headers comes from the session's client, which
AppTest has none of), so two users through the header are tested in a real browser
(tests/e2e/test_users_browser.py); here the header setting is tested for the request without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from components.shared import resources
from rag.stores.conversations import ConversationStore
from rag.stores.verdicts import AUDIT_DB_NAME, VerdictStore
from settings import load_settings
from tests.pages.conftest import ROOT, answers
from tests.pages.test_chat_page import _short_id

ALICE = {"is_logged_in": True, "email": "alice@example.com", "email_verified": True, "sub": "a-1"}
BOB = {"is_logged_in": True, "email": "bob@example.com", "sub": "b-2"}


def _session(user: dict | None, page: str = "pages/chat.py", conv: str | None = None) -> AppTest:
    """A new browser session of the real app as ``user`` (None: AppTest's default, no login configured)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if user is not None:
        at.user = user
    if conv is not None:
        at.query_params["conv"] = conv
    if page != "pages/chat.py":
        at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    return at


def _conv(at: AppTest) -> str | None:
    value = at.query_params.get("conv")
    return value[0] if isinstance(value, list) else value


def _signed_in(at: AppTest) -> list[str]:
    """The sidebar's "Signed in as" lines, as the browser shows them (the markdown escapes dropped)."""
    return [c.value.replace("\\", "") for c in at.sidebar.caption if c.value.startswith("Signed in")]


def _ask(at: AppTest, question: str) -> None:
    model, _label = resources.get_chat_model(load_settings())
    water = _short_id(load_settings().data_dir, "Water boils")
    model.replies.append(f"Water boils at one hundred degrees Celsius at sea level [{water}].")
    at.chat_input[0].set_value(question).run()
    assert not at.exception, at.exception


def _everything_shown(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "text", "caption", "info", "error") for e in getattr(at, kind)]
    return " ".join(str(p) for p in parts) + " ".join(b.label for b in at.button)


def test_two_logged_in_users_share_the_library_but_not_their_chats(app_env: Path) -> None:
    alice = _session(ALICE)
    _ask(alice, "Alice asks about water")
    conv = _conv(alice)
    assert conv and _signed_in(alice) == ["Signed in as alice@example.com"]

    bob = _session(BOB)
    assert _signed_in(bob) == ["Signed in as bob@example.com"]
    assert bob.chat_input and not [b for b in bob.button if b.key.startswith("conv_")]
    assert "Alice" not in _everything_shown(bob)

    # Bob opens Alice's link: as if it did not exist, a new chat, nothing of hers on the page.
    intruder = _session(BOB, conv=conv)
    assert _conv(intruder) is None and any("no longer exists" in t.value for t in intruder.toast)
    assert not answers(intruder) and "Alice" not in _everything_shown(intruder)
    _ask(intruder, "Bob asks about ice")
    assert _conv(intruder) not in (None, conv)

    again = _session(ALICE, conv=conv)  # Alice's own link still opens, with only her question
    assert len(answers(again)) == 1
    assert [b.label for b in again.button if b.key.startswith("conv_")] == ["Alice asks about water"]
    store = ConversationStore(app_env / resources.CONVERSATIONS_FILE)
    assert store.list_recent() == []  # nothing landed with the local user
    assert len(store.for_user("alice@example.com").turns(conv)) == 1


def test_the_audit_page_lists_scores_and_exports_only_the_users_own(app_env: Path) -> None:
    alice = _session(ALICE, page="pages/audit.py")
    assert "No answered questions yet" in alice.info[0].value and not alice.get("download_button")

    _ask(_session(None), "What does the local user ask about water?")  # nothing configured
    [local_turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).all_turns()
    VerdictStore(app_env / AUDIT_DB_NAME).save((local_turn.turn_id, 1, 0), "x", "supported")
    alice = _session(ALICE, page="pages/audit.py")
    assert "No answered questions yet" in alice.info[0].value and not alice.get("download_button")

    _ask(_session(ALICE), "What does Alice ask about water?")
    alice = _session(ALICE, page="pages/audit.py")
    assert "Question: What does Alice ask about water?" in [t.value for t in alice.text]
    assert "local user" not in _everything_shown(alice)
    assert list(alice.dataframe[1].value["question"]) == ["What does Alice ask about water?"]
    assert "0 verdicts" in " ".join(c.value for c in alice.caption)
    local = _session(None, page="pages/audit.py")
    assert list(local.dataframe[1].value["question"]) == ["What does the local user ask about water?"]
    assert "1 verdict, with question" in " ".join(c.value for c in local.caption)


def test_a_configured_login_with_nobody_logged_in_shows_only_a_login_button(app_env: Path) -> None:
    ConversationStore(app_env / resources.CONVERSATIONS_FILE).add_turn("old1", _seeded_answer())
    for page in ("pages/chat.py", "pages/audit.py", "pages/library.py"):
        at = _session({"is_logged_in": False}, page=page)
        assert [b.label for b in at.button] == ["Log in"], page
        assert not at.chat_input and "Seeded question" not in _everything_shown(at)


def test_an_unverified_email_is_not_trusted_the_subject_is(app_env: Path) -> None:
    at = _session({"is_logged_in": True, "email": "ceo@example.com", "email_verified": False, "sub": "x-9"})
    assert _signed_in(at) == ["Signed in as x-9"]


def test_a_configured_header_missing_from_the_request_shows_nothing(
    app_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ConversationStore(app_env / resources.CONVERSATIONS_FILE).add_turn("old1", _seeded_answer())
    monkeypatch.setenv("FOOTNOTE_TRUSTED_USER_HEADER", "X-Forwarded-Email")
    for page in ("pages/chat.py", "pages/audit.py", "pages/library.py"):
        at = _session(None, page=page)
        [error] = at.error
        assert "X-Forwarded-Email" in error.value and "no conversations are shown" in error.value, page
        assert not at.chat_input and not at.button and "Seeded question" not in _everything_shown(at)


def test_nothing_configured_is_the_one_local_user_as_before(app_env: Path) -> None:
    ConversationStore(app_env / resources.CONVERSATIONS_FILE).add_turn("old1", _seeded_answer())
    at = _session(None, conv="old1")
    assert _conv(at) == "old1" and len(answers(at)) == 1
    assert "Seeded question" in [b.label for b in at.button if b.key.startswith("conv_")]
    assert _signed_in(at) == []


def _seeded_answer():
    from tests.rag.test_conversations import _answer

    return _answer("Seeded question")


def test_the_header_names_a_user_only_when_sent_once_with_a_value() -> None:
    from components.shared.identity import header_user

    assert header_user([" ann@example.com "]) == "ann@example.com"
    assert header_user([]) is None and header_user(["  "]) is None and header_user(["x" * 256]) is None
    assert header_user(["mallory@example.com", "ann@example.com"]) is None


# What st.login needs for the default provider ([auth]'s own keys) or a named one ([auth.<name>]).
_PROVIDER = {"client_id": "c", "client_secret": "s", "server_metadata_url": "https://idp.example/.well-known"}
_AUTH = {"redirect_uri": "http://localhost:8501/oauth2callback", "cookie_secret": "x" * 32}


@pytest.mark.parametrize(
    ("auth", "buttons"),
    [
        # client_kwargs is the default provider's options (Streamlit's docs: prompt, scope), not a
        # provider: a "Log in with client_kwargs" button would call st.login("client_kwargs"), which
        # refuses a name with an underscore.
        ({**_AUTH, **_PROVIDER, "client_kwargs": {"prompt": "login"}}, ["Log in"]),
        (
            {**_AUTH, "google": _PROVIDER, "okta": {**_PROVIDER, "client_kwargs": {"prompt": "login"}}},
            ["Log in with google", "Log in with okta"],
        ),
        ({**_AUTH, **_PROVIDER, "okta": _PROVIDER}, ["Log in", "Log in with okta"]),
        ({**_AUTH}, ["Log in"]),  # configured some other way: st.login says what is missing
    ],
)
def test_the_login_page_offers_each_configured_provider_once(
    app_env: Path, auth: dict, buttons: list
) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.user = {"is_logged_in": False}
    at.secrets["auth"] = auth
    at.run()
    assert not at.exception, at.exception
    assert [b.label.replace("\\", "") for b in at.button] == buttons
    assert not at.chat_input
