"""PostgreSQL half of team mode: the schema, its meta values and recorded settings, the vector
index, and the writes (inserts, replacements, deletes, the write lock), each on a connection the
caller opened, inside the caller's transaction where it writes. Connections are ingest.team.connect's,
the library's queries ingest.team.read's.

Tables carry a ``footnote_`` prefix so that the library can share a database with other
applications. Vectors live in a pgvector column; its dimension is fixed (and the HNSW index
built) by the first document, inside that document's transaction. Each chunk's ``tsv`` is a
generated ``tsvector`` with a GIN index, the lexical side of retrieval.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import psycopg
from psycopg.types.json import Jsonb

from ingest.errors import IndexMismatch, LibraryBusy
from ingest.rows import locators_data, ocr_data, page_sections_data, sections_text
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
-- How a page without a usable text layer was read by OCR (ingest/rows.py), NULL for text pages.
ALTER TABLE footnote_pages ADD COLUMN IF NOT EXISTS ocr jsonb;
-- Where each section path in force on a page begins and each chunk's paths (ingest/pdf/sections.py).
ALTER TABLE footnote_pages ADD COLUMN IF NOT EXISTS sections jsonb;
ALTER TABLE footnote_chunks ADD COLUMN IF NOT EXISTS sections text NOT NULL DEFAULT '';
CREATE TABLE IF NOT EXISTS footnote_jobs (
    job_id text PRIMARY KEY, seq bigserial NOT NULL, doc_id text NOT NULL, file_name text NOT NULL,
    size_bytes bigint NOT NULL, pdf bytea, stage text NOT NULL, done integer NOT NULL DEFAULT 0,
    total integer NOT NULL DEFAULT 0, message text NOT NULL DEFAULT '', error text NOT NULL DEFAULT '',
    created_at text NOT NULL, updated_at text NOT NULL, attempts integer NOT NULL DEFAULT 0,
    worker text NOT NULL DEFAULT '', lease_until timestamptz NOT NULL DEFAULT 'epoch',
    cancel boolean NOT NULL DEFAULT false
);
CREATE INDEX IF NOT EXISTS footnote_jobs_active ON footnote_jobs (seq)
    WHERE stage IN ('queued', 'reading', 'embedding');
"""
# Ingestion jobs (ingest/team/jobs.py): a document whose words are in while a job embeds it has the
# status 'embedding' and chunks without a vector yet. One statement (a DO block, not split on ';')
# that alters the tables only when they still need it: ALTER TABLE locks out every reader.
JOBS_MIGRATION = """
DO $$ BEGIN
IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
    AND table_name = 'footnote_documents' AND column_name = 'status') THEN
    ALTER TABLE footnote_documents ADD COLUMN status text NOT NULL DEFAULT 'ready';
END IF;
IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
    AND table_name = 'footnote_chunks' AND column_name = 'embedding' AND is_nullable = 'NO') THEN
    ALTER TABLE footnote_chunks ALTER COLUMN embedding DROP NOT NULL;
END IF;
END $$
"""


@dataclass(frozen=True)
class HnswSettings:
    """pgvector HNSW parameters (see settings.py for what they trade)."""

    m: int = 32
    ef_construction: int = 200
    ef_search: int = 200  # the settings' defaults (bench/README.md says how they were measured)


DEFAULT_HNSW = HnswSettings()


# What SCHEMA and JOBS_MIGRATION say, recorded in footnote_meta once they have run.
SCHEMA_VERSION = hashlib.sha256(f"{SCHEMA}{JOBS_MIGRATION}".encode()).hexdigest()[:16]


def create_schema(conn: psycopg.Connection) -> None:
    """Create the tables and indexes when absent (one process at a time); nothing at all when the
    database already has this schema. Its DDL must not run beside a working process: ALTER TABLE
    and CREATE INDEX lock their tables even when there is nothing to do, and a second worker
    starting while the first was writing deadlocked with it (found by tests/pg/test_pg_jobs.py)."""
    if schema_current(conn):
        return
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        if schema_current(conn):  # another process created it while this one waited
            return
        for statement in (s.strip() for s in SCHEMA.split(";")):
            if statement:
                conn.execute(statement)
        conn.execute(JOBS_MIGRATION)
        write_meta(conn, {"schema_version": SCHEMA_VERSION})


def schema_current(conn: psycopg.Connection) -> bool:
    """Whether this schema was created or migrated to already (read without taking a table lock)."""
    if conn.execute("SELECT to_regclass('footnote_meta')").fetchone()[0] is None:
        return False
    row = conn.execute("SELECT value FROM footnote_meta WHERE key = 'schema_version'").fetchone()
    return row is not None and row[0] == SCHEMA_VERSION


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


def lock_writers(conn: psycopg.Connection, timeout: float, where: str) -> None:
    """Take the database-wide write lock for the rest of conn's transaction, waiting at most
    ``timeout`` seconds (as the local library's file lock: 0 tries once, below 0 waits for ever);
    LibraryBusy naming ``where`` when another writer holds it that long."""
    if timeout >= 0:
        conn.execute(f"SET LOCAL lock_timeout = {max(1, math.ceil(timeout * 1000))}")
    try:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
    except psycopg.errors.LockNotAvailable as exc:
        raise LibraryBusy(where) from exc
    conn.execute("SET LOCAL lock_timeout = DEFAULT")  # only the wait for other writers is bounded


def verify_settings(
    conn: psycopg.Connection,
    wanted: dict[str, object],
    dim: int | None,
    hnsw: HnswSettings,
    *,
    where: str,
    record: bool,
) -> None:
    """Refuse to mix settings (IndexMismatch naming ``where``); an empty library takes ``wanted``
    when ``record`` and ``dim`` are given (and fixes the dimension)."""
    meta = read_meta(conn)
    if conn.execute("SELECT 1 FROM footnote_chunks LIMIT 1").fetchone() is not None:
        differs = [f"{k}: library {meta.get(k)}, now {v}" for k, v in wanted.items() if str(v) != meta.get(k)]
        if dim is not None and meta.get("dim") and int(meta["dim"]) != dim:
            differs.append(f"dimension: library {meta['dim']}, now {dim}")
        if differs:
            raise IndexMismatch(where, "; ".join(differs))
        if dim is not None and record and not meta.get("dim"):  # a job's words came first, no vectors yet
            fix_dimension(conn, dim, hnsw)
            write_meta(conn, {"dim": dim})
        return
    if dim is None or not record:
        return  # the first document records the settings, in its own transaction
    if meta.get("dim") != str(dim):
        fix_dimension(conn, dim, hnsw)
    write_meta(conn, wanted | {"dim": dim})


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
    """Store a document's pages (text and printed labels, OCR record, sections)."""
    extra = [(_jsonb(ocr_data(p.ocr)), _jsonb(page_sections_data(p.sections) or None)) for p in pages]
    conn.cursor().executemany(
        "INSERT INTO footnote_pages (doc_id, page_index, label, text, ocr, sections) "
        "VALUES (%s, %s, %s, %s, %s, %s)",
        [(doc_id, p.index, p.label, p.text, *more) for p, more in zip(pages, extra)],
    )


def insert_chunks(conn, chunks: Sequence[Chunk], matrix: np.ndarray | None) -> None:
    """Store chunks with their vectors, one row of matrix each (None: no vectors yet, a job's words)."""
    rows = matrix if matrix is not None else [None] * len(chunks)
    extra = [(_locators_json(c.locators), c.context, sections_text(c.sections)) for c in chunks]
    conn.cursor().executemany(
        "INSERT INTO footnote_chunks (chunk_id, doc_id, ordinal, text, locators, context, sections, embedding) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
        [(c.chunk_id, c.doc_id, c.ordinal, c.text, *more, row) for c, more, row in zip(chunks, extra, rows)],
    )


def delete_document(conn: psycopg.Connection, doc_id: str) -> bool:
    """Remove a document's row, and with it its pages and chunks; False when it was not there."""
    return bool(conn.execute("DELETE FROM footnote_documents WHERE doc_id = %s", (doc_id,)).rowcount)


def delete_all_chunks(conn: psycopg.Connection) -> None:
    """Remove every chunk and its vector (a re-index writes them again in the same transaction)."""
    conn.execute("DELETE FROM footnote_chunks")


def set_chunk_count(conn: psycopg.Connection, doc_id: str, chunks: int) -> None:
    """Record on a document's row how many chunks it has (after its chunks were replaced)."""
    conn.execute("UPDATE footnote_documents SET chunks = %s WHERE doc_id = %s", (chunks, doc_id))


def replace_document_rows(
    conn: psycopg.Connection, doc_id: str, pages: Sequence[Page], chunks: Sequence[Chunk], matrix: np.ndarray
) -> None:
    """Swap a document's pages and chunks for these, and its row's counts (inside the caller's transaction)."""
    conn.execute("DELETE FROM footnote_chunks WHERE doc_id = %s", (doc_id,))
    conn.execute("DELETE FROM footnote_pages WHERE doc_id = %s", (doc_id,))
    insert_pages(conn, doc_id, pages)
    insert_chunks(conn, chunks, matrix)
    conn.execute(
        "UPDATE footnote_documents SET pages = %s, chunks = %s WHERE doc_id = %s",
        (len(pages), len(chunks), doc_id),
    )


def _locators_json(locators: Sequence[PageLocator]) -> Jsonb:
    return Jsonb(locators_data(locators))


def _jsonb(data: object) -> Jsonb | None:
    return None if data is None else Jsonb(data)
