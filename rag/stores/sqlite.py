"""The SQLite plumbing shared by the conversation and verdict stores.

``open_store`` (from ``ingest.local.schema``) creates or migrates a store file and records its schema
version in ``PRAGMA user_version``; a file from a newer Footnote raises SchemaTooNew.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from ingest.local.schema import open_store

__all__ = ["open_store", "transaction", "utc_now"]


@contextmanager
def transaction(path: Path) -> Iterator[sqlite3.Connection]:
    """A fresh connection (safe across Streamlit's session threads) in WAL mode with foreign
    keys on, committed on success, rolled back on error, always closed."""
    db = sqlite3.connect(path, timeout=30)
    try:
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA journal_mode = WAL")
        with db:
            yield db
    finally:
        db.close()


def utc_now() -> str:
    """The current time as an ISO 8601 UTC string, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")
