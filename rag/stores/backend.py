"""Where conversations and verdicts live, chosen by the same setting as the library:
SQLite files in the data folder, or PostgreSQL when FOOTNOTE_DATABASE_URL is set."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def conversation_store(settings: Any, path: Path) -> Any:
    """A ConversationStore at ``path``, or its PostgreSQL twin."""
    if settings.database_url is not None:
        from rag.stores.postgres_conversations import PgConversationStore

        return PgConversationStore(settings.database_url.get_secret_value())
    from rag.stores.conversations import ConversationStore

    return ConversationStore(path)


def verdict_store(settings: Any, path: Path) -> Any:
    """A VerdictStore at ``path``, or its PostgreSQL twin."""
    if settings.database_url is not None:
        from rag.stores.postgres_verdicts import PgVerdictStore

        return PgVerdictStore(settings.database_url.get_secret_value())
    from rag.stores.verdicts import VerdictStore

    return VerdictStore(path)
