"""The one owner of st.session_state: every key, its default and typed accessors live here.

Session state holds plain data only (ids, strings, numbers), never indexes or clients; those
are cached resources (components/resources.py).
"""

from __future__ import annotations

import streamlit as st

from settings import Settings, load_settings

_DEFAULTS: dict[str, object] = {}


def init() -> None:
    """Set every key's default once per session."""
    for key, value in _DEFAULTS.items():
        st.session_state.setdefault(key, value)


def settings() -> Settings:
    """Settings from the environment, with .streamlit/secrets.toml values for the model on top."""
    try:
        secrets = dict(st.secrets.get("footnote", {}))
    except FileNotFoundError:  # no secrets.toml: environment only
        secrets = {}
    return load_settings(**secrets)
