"""SQLite half of the library: documents, pages, chunks (with locators as JSON) and settings.

Every function takes an open connection; callers own transactions and the write lock.
A chunk's ``vec_id`` is its id in the FAISS index; ids come from a counter in ``meta`` that
never goes down, so a stale vector can never be mistaken for a newer chunk.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from pathlib import Path

from ingest.types import Chunk, Document, Page, PageLocator

SCHEMA = """
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
    ordinal INTEGER NOT NULL, text TEXT NOT NULL, locators TEXT NOT NULL,
    context TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS chunks_by_doc ON chunks (doc_id, ordinal);
"""

READY, INGESTING = "ready", "ingesting"
_DOC_COLUMNS = "doc_id, title, file_name, pages, size_bytes, chunks, added_at, warnings"
_CHUNK_COLUMNS = "c.vec_id, c.chunk_id, c.doc_id, c.ordinal, c.text, c.locators, c.context"


@contextmanager
def connect(path: Path):
    """A connection in autocommit mode (use ``transaction``), closed on exit."""
    conn = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        yield conn
    finally:
        conn.close()


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


def create_schema(conn: sqlite3.Connection) -> None:
    """Create the tables if they do not exist yet."""
    conn.executescript(SCHEMA)
    add_context_column(conn)


def add_context_column(conn: sqlite3.Connection) -> None:
    """Give a library made before chunks had a context its empty ``context`` column (a re-index
    fills it in; until then those chunks are searched by their text alone)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(chunks)")}
    if "context" not in columns:
        conn.execute("ALTER TABLE chunks ADD COLUMN context TEXT NOT NULL DEFAULT ''")


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    """Every meta key and value."""
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())


def write_meta(conn: sqlite3.Connection, values: dict[str, object]) -> None:
    """Insert or replace meta values."""
    conn.executemany(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [(k, str(v)) for k, v in values.items()]
    )


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
        (doc.doc_id, doc.title, doc.file_name, doc.pages, doc.size_bytes, doc.chunks, doc.added_at,
         json.dumps(list(doc.warnings)), status),
    )
    conn.executemany(
        "INSERT INTO pages (doc_id, page_index, label, text) VALUES (?, ?, ?, ?)",
        [(doc.doc_id, p.index, p.label, p.text) for p in pages],
    )


def insert_chunks(conn: sqlite3.Connection, chunks: Sequence[Chunk], vec_ids: Sequence[int]) -> None:
    """Store chunks under the given vector ids."""
    conn.executemany(
        "INSERT INTO chunks (vec_id, chunk_id, doc_id, ordinal, text, locators, context) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(v, c.chunk_id, c.doc_id, c.ordinal, c.text, _dump_locators(c.locators), c.context)
         for c, v in zip(chunks, vec_ids)],
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


def documents(conn: sqlite3.Connection, status: str = READY) -> list[Document]:
    """Documents with the given status, in the order they were added."""
    rows = conn.execute(f"SELECT {_DOC_COLUMNS} FROM documents WHERE status = ? ORDER BY rowid", (status,))
    return [_document(r) for r in rows]


def document(conn: sqlite3.Connection, doc_id: str) -> tuple[Document, str] | None:
    """A document and its status, or None."""
    row = conn.execute(f"SELECT {_DOC_COLUMNS}, status FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
    return (_document(row[:-1]), row[-1]) if row else None


def pages(conn: sqlite3.Connection, doc_id: str) -> list[Page]:
    """A document's pages in order."""
    rows = conn.execute(
        "SELECT page_index, label, text FROM pages WHERE doc_id = ? ORDER BY page_index", (doc_id,)
    )
    return [Page(index=i, label=label, text=text) for i, label, text in rows]


def ready_chunks(conn: sqlite3.Connection, doc_ids: Iterable[str] | None = None) -> list[tuple[int, Chunk]]:
    """(vec_id, chunk) of ready documents, ordered by document (as added) and ordinal."""
    sql = (
        f"SELECT {_CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
        "WHERE d.status = 'ready'"
    )
    params: list[str] = []
    if doc_ids is not None:
        params = list(doc_ids)
        sql += f" AND c.doc_id IN ({','.join('?' * len(params))})"
    rows = conn.execute(sql + " ORDER BY d.rowid, c.ordinal", params)
    return [(r[0], _chunk(r)) for r in rows]


def chunks_where(conn: sqlite3.Connection, column: str, values: Sequence[object]) -> list[tuple[int, Chunk]]:
    """(vec_id, chunk) of ready documents whose ``column`` (vec_id or chunk_id) is in ``values``."""
    assert column in ("vec_id", "chunk_id")
    found: list[tuple[int, Chunk]] = []
    for start in range(0, len(values), 500):  # SQLite caps bound parameters
        part = list(values[start : start + 500])
        rows = conn.execute(
            f"SELECT {_CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
            f"WHERE d.status = 'ready' AND c.{column} IN ({','.join('?' * len(part))})",
            part,
        )
        found.extend((r[0], _chunk(r)) for r in rows)
    return found


def all_vec_ids(conn: sqlite3.Connection) -> list[int]:
    """Every chunk's vector id."""
    return [r[0] for r in conn.execute("SELECT vec_id FROM chunks")]


def _document(row: Sequence) -> Document:
    doc_id, title, file_name, n_pages, size, n_chunks, added_at, warnings = row
    return Document(doc_id, title, file_name, n_pages, size, n_chunks, added_at, tuple(json.loads(warnings)))


def _chunk(row: Sequence) -> Chunk:
    _, chunk_id, doc_id, ordinal, text, locators, context = row
    return Chunk(chunk_id, doc_id, ordinal, text, _load_locators(locators), context)


def _dump_locators(locators: Sequence[PageLocator]) -> str:
    return json.dumps([[loc.page_index, loc.page_label, loc.char_start, loc.char_end] for loc in locators])


def _load_locators(raw: str) -> tuple[PageLocator, ...]:
    return tuple(PageLocator(int(i), str(label), int(a), int(b)) for i, label, a, b in json.loads(raw))
