"""Who owns a conversation or a verdict: a plain user id, named at the edge and passed in.

The library is shared; each conversation and each audit verdict belongs to one user, and a store
bound to a user (``store.for_user(user)``) reads and writes only that user's rows. The app names
the user (components/shared/identity.py: the OIDC login, a trusted proxy header, or nobody configured);
the core never asks. Rows written before users existed belong to LOCAL_USER, the one user of an
install where nothing is configured, so an upgraded single-user install still sees everything.
"""

from __future__ import annotations

LOCAL_USER = "local"
# OpenID Connect's `sub` is at most 255 ASCII characters; an email address at most 254 (RFC 5321).
MAX_USER_LENGTH = 255


def check_user(user: str) -> str:
    """The user id as given; ValueError when it is empty, blank or too long to be one."""
    if not isinstance(user, str) or not user.strip():
        raise ValueError("a user id must be a non-empty string")
    if len(user) > MAX_USER_LENGTH:
        raise ValueError(f"a user id must be at most {MAX_USER_LENGTH} characters, not {len(user)}")
    return user
