"""Who is asking: named once per run, here at the edge, and handed to the stores as a plain id.

In order: Streamlit's OIDC login when an [auth] section is configured (``st.user``); else the
trusted proxy header named by the ``trusted_user_header`` setting; else the one local user, as
before users existed. When a login is configured but nobody is logged in, the page shows a log-in
button and nothing else; when the header is configured but the request came without it, the page
says so and shows nothing else: no chat, no conversations, no library.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from components.shared.render import escape_markdown
from rag.stores.users import LOCAL_USER, MAX_USER_LENGTH
from settings import Settings


def current_user(settings: Settings) -> str:
    """The user this run acts for; stops the page (after saying why) when nobody can be named."""
    if _login_configured():
        if st.user.is_logged_in:
            user = _claimed_user()
            _show_user(user, can_log_out=True)
            return user
        _ask_to_log_in()
    header = settings.trusted_user_header
    if header:
        user = header_user(st.context.headers.get_all(header))
        if user is not None:
            _show_user(user, can_log_out=False)
            return user
        _refuse(
            f"This app takes its user from the `{header}` header that its login proxy "  # [A-Za-z0-9-]+
            "sets, and this request came without a usable one, so no conversations are shown. "
            "Open the app through the proxy's address."
        )
    return LOCAL_USER


def header_user(sent: list[str]) -> str | None:
    """The user named by the trusted header's values in one request, or None when there is none
    usable. Twice is refused: a proxy that appends instead of replacing leaves the client's own."""
    user = sent[0].strip() if len(sent) == 1 else ""
    return user if user and len(user) <= MAX_USER_LENGTH else None


def _login_configured() -> bool:
    # st.user carries is_logged_in only when secrets.toml has an [auth] section.
    # SEE: streamlit/user_info.py (_get_user_info)
    return "is_logged_in" in st.user


def _claimed_user() -> str:
    """The verified email, else the provider's subject id: what the identity token says."""
    email, subject = st.user.get("email"), st.user.get("sub")
    verified = st.user.get("email_verified") is not False
    for claim in (email if verified else None, subject):
        if isinstance(claim, str) and claim.strip() and len(claim.strip()) <= MAX_USER_LENGTH:
            return claim.strip()
    _refuse(
        "Your identity provider sent neither a verified email nor a subject id, so Footnote cannot tell who you are."
    )
    raise AssertionError("unreachable: _refuse stops the run")


def _ask_to_log_in() -> None:
    st.title("Footnote")
    st.info("Log in to see your conversations and the shared library.", icon=":material/login:")
    try:
        auth = st.secrets.get("auth", {})
    except FileNotFoundError:  # the login is configured some other way (a hosting platform)
        auth = {}
    for provider in _login_providers(auth):
        if provider is None:
            st.button("Log in", key="login", on_click=st.login)
        else:
            label = f"Log in with {escape_markdown(provider)}"
            st.button(label, key=f"login_{provider}", on_click=st.login, args=(provider,))
    st.stop()


def _login_providers(auth: Mapping[str, object]) -> list[str | None]:
    """The identity providers an [auth] section offers st.login: None for the default one (its
    keys in [auth] itself, or nothing recognisable at all), then each [auth.<name>] table."""
    named = [name for name, value in auth.items() if isinstance(value, Mapping) and _is_provider(value)]
    return ([None] if _is_provider(auth) or not named else []) + named


def _is_provider(section: Mapping[str, object]) -> bool:
    # A table without these is a provider's options, such as [auth.client_kwargs] (prompt, scope).
    # SEE: streamlit/auth_util.py (validate_auth_credentials, generate_default_provider_section)
    return any(key in section for key in ("client_id", "client_secret", "server_metadata_url"))


def _refuse(message: str) -> None:
    st.error(message, icon=":material/no_accounts:")
    st.stop()


def _show_user(user: str, can_log_out: bool) -> None:
    with st.sidebar:
        st.caption(f"Signed in as {escape_markdown(user)}")
        if can_log_out:
            st.button("Log out", key="logout", on_click=st.logout, icon=":material/logout:")
