"""Every store file records its schema version: older files are migrated, newer ones refused."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from ingest.errors import SchemaTooNew, SchemaTooOld
from ingest.local import schema, store
from rag.stores import conversations
from rag.stores import verdicts as audit_store
from rag.stores.conversations import ConversationStore
from rag.stores.verdicts import VerdictStore
from tests.ingest.test_library import FOG, open_library
from tests.ingest.test_read_only import open_reader


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def _make_version_0(path: Path, name: str) -> None:
    """What every file written before versions were recorded holds: the version 1 tables, user_version 0."""
    if name == "library":
        conn = sqlite3.connect(path)
        conn.execute("ALTER TABLE chunks DROP COLUMN context")  # added by version 2
        conn.execute("ALTER TABLE pages DROP COLUMN ocr")  # added by version 3
        conn.execute("DROP TABLE jobs")  # added by version 4
        conn.execute("ALTER TABLE pages DROP COLUMN sections")  # added by version 5
        conn.execute("ALTER TABLE chunks DROP COLUMN sections")  # added by version 5
        conn.close()
    if name == "conversations":
        conn = sqlite3.connect(path)
        conn.execute("ALTER TABLE conversations DROP COLUMN model")  # added by version 2
        conn.execute("ALTER TABLE conversations DROP COLUMN user_id")  # added by version 3
        conn.close()
    if name == "verdicts":
        conn = sqlite3.connect(path)
        conn.execute("ALTER TABLE audit_verdicts DROP COLUMN user_id")  # added by version 2
        conn.close()
    _set_version(path, 0)


def _set_version(path: Path, value: int) -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {value}")
    conn.close()


def _rows(path: Path, table: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    finally:
        conn.close()


def _library(folder: Path) -> Path:
    open_library(folder).add_pdf(FOG, "fog.pdf")
    return folder / "library.sqlite3"


def _conversations(folder: Path) -> Path:
    ConversationStore(folder / "conversations.sqlite3").create("Fog")
    return folder / "conversations.sqlite3"


def _verdicts(folder: Path) -> Path:
    VerdictStore(folder / "audit.sqlite3").save(("t1", 1, 0), "abc1234", "supported")
    return folder / "audit.sqlite3"


STORES: dict[str, tuple[Callable[[Path], Path], Callable[[Path], object], int]] = {
    "library": (_library, lambda p: len(open_library(p.parent).documents()), store.SCHEMA_VERSION),
    "conversations": (
        _conversations,
        lambda p: ConversationStore(p) and _rows(p, "conversations"),
        len(conversations.MIGRATIONS),
    ),
    "verdicts": (_verdicts, lambda p: len(VerdictStore(p).all()), len(audit_store.MIGRATIONS)),
}


@pytest.mark.parametrize("name", STORES)
def test_new_files_record_the_current_version(tmp_path: Path, name: str) -> None:
    make, _, current = STORES[name]
    assert _version(make(tmp_path)) == current >= 1


@pytest.mark.parametrize("name", STORES)
def test_a_file_from_before_versions_is_migrated_and_keeps_its_rows(tmp_path: Path, name: str) -> None:
    make, count, current = STORES[name]
    path = make(tmp_path)
    _make_version_0(path, name)
    assert count(path) == 1
    assert _version(path) == current


@pytest.mark.parametrize("name", STORES)
def test_a_file_from_a_newer_version_is_refused_untouched(tmp_path: Path, name: str) -> None:
    make, count, current = STORES[name]
    path = make(tmp_path)
    _set_version(path, current + 1)
    before = path.read_bytes()
    with pytest.raises(SchemaTooNew) as caught:
        count(path)
    assert f"newer version of Footnote (schema version {current + 1}; this one reads up to {current})" in str(
        caught.value
    )
    assert str(path) in str(caught.value) and path.read_bytes() == before


def test_a_reader_never_migrates_and_refuses_newer_and_older_libraries(tmp_path: Path) -> None:
    path = _library(tmp_path)
    _make_version_0(path, "library")
    before = path.read_bytes()
    with pytest.raises(SchemaTooOld, match=r"python -m cli\.ingest --check"):
        open_reader(tmp_path)
    assert path.read_bytes() == before  # a reader writes nothing, not even a migration
    assert len(open_library(tmp_path).documents()) == 1 and _version(path) == store.SCHEMA_VERSION
    assert len(open_reader(tmp_path).documents()) == 1  # once a writer has migrated it
    _set_version(path, store.SCHEMA_VERSION + 1)
    with pytest.raises(SchemaTooNew):
        open_reader(tmp_path)


def test_adding_a_migration_is_one_entry(tmp_path: Path) -> None:
    """A next schema change (a column on documents) as one more entry."""
    path = _library(tmp_path)
    current = store.SCHEMA_VERSION
    migrations = (*store.MIGRATIONS, "ALTER TABLE documents ADD COLUMN note TEXT NOT NULL DEFAULT ''")
    conn = sqlite3.connect(path, isolation_level=None)
    with pytest.raises(SchemaTooOld, match="needs upgrading"):
        schema.require_current(conn, len(migrations), path)
    assert schema.migrate(conn, migrations, path) == current
    assert schema.migrate(conn, migrations, path) == current + 1  # applied once, not again
    columns = [row[1] for row in conn.execute("PRAGMA table_info(documents)")]
    assert columns[-1] == "note" and conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] > 0
    schema.require_current(conn, len(migrations), path)
    conn.close()
    assert _version(path) == current + 1
