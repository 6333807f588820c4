"""SQLite half of the library: documents, pages, chunks (with locators as JSON) and settings.

Every function takes an open connection; callers own transactions and the write lock.
A chunk's ``vec_id`` is its id in the FAISS index; ids come from a counter in ``meta`` that
never goes down, so a stale vector can never be mistaken for a newer chunk.
The file's schema version is in ``PRAGMA user_version``; ``MIGRATIONS`` lists how to reach it.
Readers connect with ``read_only=True`` (see ``connect``); an unreadable file raises LibraryDamaged.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

from ingest.errors import IndexMismatch, LibraryDamaged
from ingest.local import schema
from ingest.rows import locators_data, ocr_json, page_sections_data, sections_text
from ingest.types import Chunk, Document, Page, PageLocator

SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY, title TEXT NOT NULL, file_name TEXT NOT NULL,
    pages INTEGER NOT NULL, size_bytes INTEGER NOT NULL, chunks INTEGER NOT NULL,
    added_at TEXT NOT NULL, warnings TEXT NOT NULL, status TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS pages (
    doc_id TEXT NOT NULL, page_index INTEGER NOT NULL, label TEXT NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (doc_id, page_index)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chunks (
    vec_id INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, doc_id TEXT NOT NULL,
    ordinal INTEGER NOT NULL, text TEXT NOT NULL, locators TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_by_doc ON chunks (doc_id, ordinal);
INSERT OR IGNORE INTO meta (key, value) VALUES ('next_vec_id', '1');
"""
# Version 2: each chunk's context (table title, column headers or section heading; ingest/pdf/context.py).
# A library made before it gets an empty context, so it answers as before; a re-index fills it in.
SCHEMA_V2 = "ALTER TABLE chunks ADD COLUMN context TEXT NOT NULL DEFAULT ''"
# Version 3: how a page without a usable text layer was read by OCR (engine, confidence, word
# boxes; ingest/rows.py), NULL for pages read from their text layer, as every page before it.
SCHEMA_V3 = "ALTER TABLE pages ADD COLUMN ocr TEXT"
# Version 4: ingestion jobs (ingest/local/jobs.py): a queued file's stage, progress, outcome, and the
# worker holding it until lease_until (seconds since the epoch). Rows of a document whose words are
# in and whose vectors are still being embedded have the status 'embedding' (no schema change).
SCHEMA_V4 = """
CREATE TABLE IF NOT EXISTS jobs (
    job_id TEXT PRIMARY KEY, doc_id TEXT NOT NULL, file_name TEXT NOT NULL, size_bytes INTEGER NOT NULL,
    stage TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0, total INTEGER NOT NULL DEFAULT 0,
    message TEXT NOT NULL DEFAULT '', error TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, worker TEXT NOT NULL DEFAULT '',
    lease_until REAL NOT NULL DEFAULT 0, cancel INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS jobs_by_stage ON jobs (stage)
"""
# Version 5: where each section path in force on a page begins (JSON, ingest/rows.py) and each chunk's
# section paths (ingest/pdf/sections.py), empty for documents added before it until
# `python -m cli.ingest sections` reads them from their stored PDFs.
SCHEMA_V5 = """
ALTER TABLE pages ADD COLUMN sections TEXT NOT NULL DEFAULT '';
ALTER TABLE chunks ADD COLUMN sections TEXT NOT NULL DEFAULT ''
"""
# Entry n takes a library file from schema version n-1 to n: add a migration by appending one.
MIGRATIONS: tuple[str, ...] = (SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5)
SCHEMA_VERSION = len(MIGRATIONS)
DAMAGE = ("SQLITE_CORRUPT", "SQLITE_NOTADB")  # sqlite3 error names that mean the file itself is bad

READY, INGESTING, EMBEDDING = "ready", "ingesting", "embedding"
# What readers list and search: ready documents, and those whose words are in while a job embeds
# them (found by words at once, by meaning once ready; dense search only holds what has vectors).
LISTED = (READY, EMBEDDING)
_LISTED = "d.status IN ('ready', 'embedding')"
_DOC_COLUMNS = "doc_id, title, file_name, pages, size_bytes, chunks, added_at, warnings"
_CHUNK_COLUMNS = "c.vec_id, c.chunk_id, c.doc_id, c.ordinal, c.text, c.locators, c.context, c.sections"


@contextmanager
def connect(path: Path, *, read_only: bool = False):
    """A connection in autocommit mode (use ``transaction``), closed on exit; LibraryDamaged
    when the file is not a database or is corrupt.

    ``read_only`` opens with ``mode=ro``: no writes, and no database is ever created. In a
    writable folder SQLite may still create its ``-wal``/``-shm`` companions (shared memory that
    readers and writers coordinate through; no data of ours). In a folder we cannot write, where
    they cannot be created, the file is opened ``immutable``: correct there because no writer
    can change it either (a writer needs the ``-wal`` file and the ``.lock`` next to it)."""
    try:
        conn = _open(path, read_only)
        try:
            if not read_only:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=FULL")
            yield conn
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorname", "") in DAMAGE:
            raise LibraryDamaged(str(path.parent), f"{path} is damaged ({exc})") from exc
        raise


def _open(path: Path, read_only: bool) -> sqlite3.Connection:
    if not read_only:
        return sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    wal = path.with_name(path.name + "-wal")
    if not wal.exists() and not os.access(path.parent, os.W_OK):
        uri += "&immutable=1"
    conn = sqlite3.connect(uri, uri=True, timeout=60, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA query_only=ON")
    return conn


@contextmanager
def transaction(conn: sqlite3.Connection):
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def create_schema(conn: sqlite3.Connection, path: Path) -> int:
    """Create the tables, or migrate an older file; returns the version the file had."""
    return schema.migrate(conn, MIGRATIONS, path)


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    """Every meta key and value."""
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())


def write_meta(conn: sqlite3.Connection, values: dict[str, object]) -> None:
    """Insert or replace meta values."""
    conn.executemany(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [(k, str(v)) for k, v in values.items()]
    )


def verify_settings(
    conn: sqlite3.Connection, wanted: dict[str, object], dim: int | None, *, where: str, read_only: bool
) -> None:
    """Refuse to mix settings (IndexMismatch naming ``where``); an empty library simply takes
    ``wanted`` (and ``dim``) unless ``read_only``, in a transaction of its own."""
    meta = read_meta(conn)
    has_chunks = conn.execute("SELECT 1 FROM chunks LIMIT 1").fetchone() is not None
    if has_chunks:
        stored = {key: meta.get(key) for key in wanted}
        differs = [f"{k}: library {stored[k]}, now {v}" for k, v in wanted.items() if str(v) != stored[k]]
        if dim is not None and meta.get("dim") and int(meta["dim"]) != dim:
            differs.append(f"dimension: library {meta['dim']}, now {dim}")
        if differs:
            raise IndexMismatch(where, "; ".join(differs))
        if dim and not meta.get("dim") and not read_only:  # the first vectors of a job's words-only chunks
            with transaction(conn):
                write_meta(conn, {"dim": dim})
    elif read_only:
        return  # an empty library: the first writer records its settings
    elif any(meta.get(k) != str(v) for k, v in wanted.items()) or (dim and meta.get("dim") != str(dim)):
        with transaction(conn):
            write_meta(conn, wanted | ({"dim": dim} if dim else {}))


def generation(conn: sqlite3.Connection) -> int:
    """The change counter bumped on every add, delete and re-index."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    return int(row[0]) if row else 0


def bump_generation(conn: sqlite3.Connection) -> int:
    """Increase the change counter; returns the new value."""
    value = generation(conn) + 1
    write_meta(conn, {"generation": value})
    return value


def take_vec_ids(conn: sqlite3.Connection, count: int) -> list[int]:
    """Reserve ``count`` fresh vector ids (call inside a transaction)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'next_vec_id'").fetchone()
    first = int(row[0]) if row else 1
    write_meta(conn, {"next_vec_id": first + count})
    return list(range(first, first + count))


def insert_document(conn: sqlite3.Connection, doc: Document, pages: Sequence[Page], status: str) -> None:
    """Store a document row and its pages."""
    conn.execute(
        f"INSERT INTO documents ({_DOC_COLUMNS}, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            doc.doc_id,
            doc.title,
            doc.file_name,
            doc.pages,
            doc.size_bytes,
            doc.chunks,
            doc.added_at,
            json.dumps(list(doc.warnings)),
            status,
        ),
    )
    conn.executemany(
        "INSERT INTO pages (doc_id, page_index, label, text, ocr, sections) VALUES (?, ?, ?, ?, ?, ?)",
        [(doc.doc_id, p.index, p.label, p.text, ocr_json(p.ocr), _sections_json(p)) for p in pages],
    )


def insert_chunks(conn: sqlite3.Connection, chunks: Sequence[Chunk], vec_ids: Sequence[int]) -> None:
    """Store chunks under the given vector ids."""
    extra = [(_dump_locators(c.locators), c.context, sections_text(c.sections)) for c in chunks]
    conn.executemany(
        "INSERT INTO chunks (vec_id, chunk_id, doc_id, ordinal, text, locators, context, sections) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(v, c.chunk_id, c.doc_id, c.ordinal, c.text, *more) for c, v, more in zip(chunks, vec_ids, extra)],
    )


def set_sections(
    conn: sqlite3.Connection, doc_id: str, pages: Sequence[Page], chunks: dict[str, tuple[str, ...]]
) -> None:
    """Record a stored document's sections: its pages' (Page.sections) and each chunk's paths (by id)."""
    conn.executemany(
        "UPDATE pages SET sections = ? WHERE doc_id = ? AND page_index = ?",
        [(_sections_json(p), doc_id, p.index) for p in pages],
    )
    conn.executemany(
        "UPDATE chunks SET sections = ? WHERE doc_id = ? AND chunk_id = ?",
        [(sections_text(paths), doc_id, chunk_id) for chunk_id, paths in chunks.items()],
    )


def set_status(conn: sqlite3.Connection, doc_id: str, status: str) -> None:
    """Mark a document ready (or otherwise)."""
    conn.execute("UPDATE documents SET status = ? WHERE doc_id = ?", (status, doc_id))


def delete_document(conn: sqlite3.Connection, doc_id: str) -> list[int]:
    """Remove a document's rows; returns the vector ids its chunks had."""
    vec_ids = [r[0] for r in conn.execute("SELECT vec_id FROM chunks WHERE doc_id = ?", (doc_id,))]
    for table in ("chunks", "pages", "documents"):
        conn.execute(f"DELETE FROM {table} WHERE doc_id = ?", (doc_id,))
    return vec_ids


def _sections_json(page: Page) -> str:
    return json.dumps(page_sections_data(page.sections)) if page.sections else ""


def _dump_locators(locators: Sequence[PageLocator]) -> str:
    return json.dumps(locators_data(locators))
