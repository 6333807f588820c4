"""PostgreSQL half of team mode: the schema, connections, and the URL with its password hidden.

Tables carry a ``footnote_`` prefix so that the library can share a database with other
applications. Vectors live in a pgvector column; its dimension is fixed (and the HNSW index
built) by the first document, inside that document's transaction. Each chunk's ``tsv`` is a
generated ``tsvector`` with a GIN index, the lexical side of retrieval.
"""

from __future__ import annotations

import atexit
import os
import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolTimeout

from ingest.errors import LibraryError
from ingest.types import Chunk, Document, Page, PageLocator

# Any 64-bit number of our own: pg_advisory_xact_lock keys that serialise writers of one database.
SCHEMA_LOCK = 0x666F6F746E6F7465  # "footnote"
WRITE_LOCK = SCHEMA_LOCK + 1
TEXT_SEARCH_CONFIG = "english"

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS footnote_meta (key text PRIMARY KEY, value text NOT NULL);
INSERT INTO footnote_meta (key, value) VALUES ('generation', '0') ON CONFLICT (key) DO NOTHING;
CREATE TABLE IF NOT EXISTS footnote_documents (
    doc_id text PRIMARY KEY, seq bigserial NOT NULL, title text NOT NULL, file_name text NOT NULL,
    pages integer NOT NULL, size_bytes bigint NOT NULL, chunks integer NOT NULL, added_at text NOT NULL,
    warnings jsonb NOT NULL, pdf bytea NOT NULL
);
CREATE TABLE IF NOT EXISTS footnote_pages (
    doc_id text NOT NULL REFERENCES footnote_documents ON DELETE CASCADE, page_index integer NOT NULL,
    label text NOT NULL, text text NOT NULL, PRIMARY KEY (doc_id, page_index)
);
CREATE TABLE IF NOT EXISTS footnote_chunks (
    chunk_id text PRIMARY KEY, doc_id text NOT NULL REFERENCES footnote_documents ON DELETE CASCADE,
    ordinal integer NOT NULL, text text NOT NULL, locators jsonb NOT NULL, context text NOT NULL,
    embedding vector NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('{TEXT_SEARCH_CONFIG}', text)) STORED
);
CREATE INDEX IF NOT EXISTS footnote_chunks_by_doc ON footnote_chunks (doc_id, ordinal);
CREATE INDEX IF NOT EXISTS footnote_chunks_tsv ON footnote_chunks USING gin (tsv);
"""


@dataclass(frozen=True)
class HnswSettings:
    """pgvector HNSW parameters (see settings.py for what they trade)."""

    m: int = 24
    ef_construction: int = 100
    ef_search: int = 600  # the settings' defaults (settings.py says how they were measured)


DEFAULT_HNSW = HnswSettings()


class DatabaseUnavailable(LibraryError):
    """The PostgreSQL server cannot be reached, or refuses the connection."""


class NoVectorExtension(LibraryError):
    """The database has no pgvector extension and it could not be created."""


def masked(url: str) -> str:
    """The URL with any password replaced by ***, safe to log or show."""
    parts = urlsplit(url)
    if parts.password:
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{parts.username or ''}:***@{host}")
        url = urlunsplit(parts)
    return re.sub(r"(password\s*=\s*)('[^']*'|\S+)", r"\1***", url)


def scrub(text: str, url: str) -> str:
    """``text`` with the URL's password removed wherever it appears."""
    password = urlsplit(url).password
    return text.replace(password, "***") if password else text


# Connections are pooled per process, database URL and mode (read-only, vectors): opening one costs
# about 7.6 ms, more than most of the queries made on it. A pool keeps at least one open and at
# most POOL_MAX_SIZE; with three modes in use per app process (library reader, library writer,
# conversations), N instances hold at most 3 * POOL_MAX_SIZE * N, against PostgreSQL's default
# max_connections of 100. Idle connections above the first close after POOL_MAX_IDLE_S.
POOL_MAX_SIZE = 8
POOL_MAX_IDLE_S = 60.0
# How long a caller waits for a pooled connection before one direct connection either works (all
# pooled ones were busy) or says why the server cannot be used (it went away after the pool was made).
POOL_WAIT_S = 5.0

_pools: dict[tuple[str, bool, bool], ConnectionPool] = {}
_pools_lock = threading.Lock()


@contextmanager
def connect(url: str, *, read_only: bool = False, vectors: bool = True) -> Iterator[psycopg.Connection]:
    """A pooled autocommit connection (use ``conn.transaction()``), read-only on the server when
    ``read_only``, with pgvector's type registered unless ``vectors`` is False; DatabaseUnavailable
    naming the masked URL when the server cannot be used. Safe across threads: each ``with``
    gets a connection of its own."""
    key = (url, read_only, vectors)
    with _pools_lock:
        pool = _pools.get(key)
    conn = None
    if pool is not None:
        with suppress(PoolTimeout):
            conn = pool.getconn(timeout=POOL_WAIT_S)
    if conn is None:  # the first use of this URL and mode, or no pooled connection came in time
        conn = _direct(url, read_only=read_only, vectors=vectors)  # the clear errors come from here
        if pool is None:
            _start_pool(key)
        try:
            yield conn
        finally:
            conn.close()
        return
    try:
        yield conn
    finally:
        pool.putconn(conn)  # rolled back first if a transaction was left open


def close_pools() -> None:
    """Close every pooled connection of this process (at exit; tests between databases)."""
    with _pools_lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.close(timeout=5)


def _direct(url: str, *, read_only: bool, vectors: bool) -> psycopg.Connection:
    """One unpooled connection, checked as the pool's are, with errors that say what is wrong."""
    try:
        conn = psycopg.connect(url, **_connection_options(read_only))
    except psycopg.Error as exc:
        reason = scrub(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__, url)
        raise DatabaseUnavailable(
            masked(url),
            f"cannot connect to PostgreSQL at {masked(url)} ({reason}); "
            "check FOOTNOTE_DATABASE_URL and that the server is running",
        ) from None
    try:
        if vectors:
            _register_vector(conn, url, create=not read_only)
    except BaseException:
        conn.close()
        raise
    return conn


def _connection_options(read_only: bool) -> dict[str, object]:
    options = "-c default_transaction_read_only=on" if read_only else None
    return {"autocommit": True, "connect_timeout": 10, "options": options}


def _start_pool(key: tuple[str, bool, bool]) -> None:
    """A pool for this URL and mode, once a direct connection has shown that the server works."""
    url, read_only, vectors = key
    with _pools_lock:
        if key in _pools:
            return
        _pools[key] = ConnectionPool(
            url,
            kwargs=_connection_options(read_only),
            min_size=1,
            max_size=POOL_MAX_SIZE,
            max_idle=POOL_MAX_IDLE_S,
            configure=register_vector if vectors else None,
            check=ConnectionPool.check_connection,  # a connection the server dropped is replaced
            name="footnote",  # pools log under this name; the URL (with its password) never
            open=True,
        )


def _forget_pools() -> None:
    # A forked child must not use (or close: that would end them for the parent) the parent's
    # connections, and the pools' worker threads did not survive the fork.
    _pools.clear()


os.register_at_fork(after_in_child=_forget_pools)
atexit.register(close_pools)


def _register_vector(conn: psycopg.Connection, url: str, *, create: bool) -> None:
    found = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone()
    if found is None and create:
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            found = (1,)
        except psycopg.Error as exc:
            detail = scrub(str(exc).strip().splitlines()[0], url)
            raise NoVectorExtension(
                masked(url),
                f"the database at {masked(url)} has no pgvector extension and "
                f"it could not be created ({detail}); install pgvector and run "
                "`CREATE EXTENSION vector` as its owner",
            ) from None
    if found is None:
        raise NoVectorExtension(
            masked(url),
            f"the database at {masked(url)} has no pgvector extension "
            "(no Footnote library is there yet; `python -m ingest PDF...` creates one)",
        )
    register_vector(conn)


def create_schema(conn: psycopg.Connection) -> None:
    """Create the tables and indexes when absent (one process at a time)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        for statement in (s.strip() for s in SCHEMA.split(";")):
            if statement:
                conn.execute(statement)


def has_schema(conn: psycopg.Connection) -> bool:
    """Whether a writer has created the library's tables."""
    return conn.execute("SELECT to_regclass('footnote_chunks') IS NOT NULL").fetchone()[0]


def read_meta(conn: psycopg.Connection) -> dict[str, str]:
    """Every meta key and value."""
    return dict(conn.execute("SELECT key, value FROM footnote_meta").fetchall())


def write_meta(conn: psycopg.Connection, values: dict[str, object]) -> None:
    """Insert or replace meta values."""
    conn.cursor().executemany(
        "INSERT INTO footnote_meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        [(k, str(v)) for k, v in values.items()],
    )


def bump_generation(conn: psycopg.Connection) -> None:
    """Increase the change counter (inside the writing transaction)."""
    conn.execute("UPDATE footnote_meta SET value = (value::bigint + 1)::text WHERE key = 'generation'")


def fix_dimension(conn: psycopg.Connection, dim: int, hnsw: HnswSettings) -> None:
    """Give the empty vector column its dimension and build the HNSW index (inner product on
    unit vectors = cosine)."""
    conn.execute("DROP INDEX IF EXISTS footnote_chunks_hnsw")
    conn.execute(f"ALTER TABLE footnote_chunks ALTER COLUMN embedding TYPE vector({int(dim)})")
    create_hnsw_index(conn, hnsw)


def create_hnsw_index(conn: psycopg.Connection, hnsw: HnswSettings) -> None:
    """The HNSW index on the (typed) vector column; bench/pg_search.py times it on loaded rows."""
    conn.execute(
        f"CREATE INDEX footnote_chunks_hnsw ON footnote_chunks USING hnsw (embedding vector_ip_ops) "
        f"WITH (m = {int(hnsw.m)}, ef_construction = {int(hnsw.ef_construction)})"
    )


def document_row(doc: Document, pdf: bytes) -> tuple:
    """A footnote_documents row, in the table's column order (doc_id ... warnings, pdf)."""
    return (
        doc.doc_id,
        doc.title,
        doc.file_name,
        doc.pages,
        doc.size_bytes,
        doc.chunks,
        doc.added_at,
        Jsonb(list(doc.warnings)),
        pdf,
    )


def insert_document(
    conn, doc: Document, pages: Sequence[Page], chunks: Sequence[Chunk], matrix: np.ndarray, pdf: bytes
) -> None:
    """Store a document row with its PDF, pages and chunks (inside the caller's transaction)."""
    conn.execute(
        "INSERT INTO footnote_documents (doc_id, title, file_name, pages, size_bytes, chunks, added_at, "
        "warnings, pdf) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
        document_row(doc, pdf),
    )
    insert_pages(conn, doc.doc_id, pages)
    insert_chunks(conn, chunks, matrix)


def insert_pages(conn, doc_id: str, pages: Sequence[Page]) -> None:
    """Store a document's pages (text and printed labels)."""
    conn.cursor().executemany(
        "INSERT INTO footnote_pages (doc_id, page_index, label, text) VALUES (%s, %s, %s, %s)",
        [(doc_id, p.index, p.label, p.text) for p in pages],
    )


def insert_chunks(conn, chunks: Sequence[Chunk], matrix: np.ndarray) -> None:
    """Store chunks with their vectors, one row of matrix each."""
    conn.cursor().executemany(
        "INSERT INTO footnote_chunks (chunk_id, doc_id, ordinal, text, locators, context, embedding) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s)",
        [
            (c.chunk_id, c.doc_id, c.ordinal, c.text, _locators_json(c.locators), c.context, row)
            for c, row in zip(chunks, matrix)
        ],
    )


def _locators_json(locators: Sequence[PageLocator]) -> Jsonb:
    return Jsonb([[loc.page_index, loc.page_label, loc.char_start, loc.char_end] for loc in locators])
