"""Schema versions of the SQLite store files (``PRAGMA user_version``) and their migrations.

Each store lists its migrations in order: entry n (counting from 1) takes a file from version
n-1 to n, so adding a migration is appending one SQL script. Files written before versions were
recorded say 0 and already hold the version 1 tables, which the first script creates with
``IF NOT EXISTS``: safe on both. A file from a newer version is refused, never misread.
Used by the library (``ingest.local.store``) and by the conversation and verdict stores in ``rag``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from ingest.errors import SchemaTooNew, SchemaTooOld


def version(conn: sqlite3.Connection) -> int:
    """The version recorded in the file (0 for files from before versions were recorded)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, migrations: Sequence[str], path: Path) -> int:
    """Bring the file to the newest version in one transaction (``conn`` in autocommit mode);
    returns the version it had. SchemaTooNew when a newer Footnote wrote it."""
    newest = len(migrations)
    conn.execute("BEGIN IMMEDIATE")  # two processes opening an old file migrate it once
    try:
        found = version(conn)
        if found > newest:
            raise SchemaTooNew(str(path), found, newest)
        for script in migrations[found:]:
            for statement in _statements(script):
                conn.execute(statement)
        if found != newest:
            conn.execute(f"PRAGMA user_version = {newest:d}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return found


def require_current(conn: sqlite3.Connection, newest: int, path: Path) -> None:
    """For readers, which never migrate: SchemaTooNew or SchemaTooOld unless the file is current."""
    found = version(conn)
    if found > newest:
        raise SchemaTooNew(str(path), found, newest)
    if max(found, 1) < newest:  # 0 means the version 1 tables, written before versions were recorded
        raise SchemaTooOld(str(path), found, newest)


def open_store(path: Path, migrations: Sequence[str]) -> int:
    """Create or migrate the store file at ``path`` (WAL mode); returns the version it had."""
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        return migrate(conn, migrations, path)
    finally:
        conn.close()


def _statements(script: str) -> list[str]:
    # Scripts are our own DDL: no ';' inside string literals.
    return [s.strip() for s in script.split(";") if s.strip()]
