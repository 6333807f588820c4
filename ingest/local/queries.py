"""The reads of a local library's SQLite (ingest.local.store holds its schema, connection and
writes): documents, pages, OCR of a page, chunks and vector ids, as the store's values."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence

from ingest.local.store import _CHUNK_COLUMNS, _DOC_COLUMNS, _LISTED, EMBEDDING, LISTED
from ingest.rows import locators_from, ocr_from, page_sections_from, sections_from
from ingest.types import Chunk, Document, Page, PageLocator, PageOcr


def documents(conn: sqlite3.Connection, status: str | tuple[str, ...] = LISTED) -> list[Document]:
    """Documents with the given status (or statuses: listed ones by default), in the order added."""
    statuses = (status,) if isinstance(status, str) else tuple(status)
    rows = conn.execute(
        f"SELECT {_DOC_COLUMNS} FROM documents WHERE status IN ({','.join('?' * len(statuses))}) ORDER BY rowid",
        statuses,
    )
    return [_document(r) for r in rows]


def document(conn: sqlite3.Connection, doc_id: str) -> tuple[Document, str] | None:
    """A document and its status, or None."""
    row = conn.execute(f"SELECT {_DOC_COLUMNS}, status FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
    return (_document(row[:-1]), row[-1]) if row else None


def pages(conn: sqlite3.Connection, doc_id: str) -> list[Page]:
    """A document's pages in order (with how OCR read them, for pages it read)."""
    found = conn.execute(
        "SELECT page_index, label, text, ocr, sections FROM pages WHERE doc_id = ? ORDER BY page_index",
        (doc_id,),
    )
    return [Page(i, label, text, ocr_from(ocr), page_sections_from(s)) for i, label, text, ocr, s in found]


def page_ocr(conn: sqlite3.Connection, doc_id: str, page_index: int) -> PageOcr | None:
    """How OCR read one page, or None (a text page, or no such page)."""
    row = conn.execute(
        "SELECT ocr FROM pages WHERE doc_id = ? AND page_index = ?", (doc_id, page_index)
    ).fetchone()
    return ocr_from(row[0]) if row else None


def first_pages(conn: sqlite3.Connection, limit: int) -> dict[str, list[Page]]:
    """The first ``limit`` pages of every listed document, in one query."""
    rows = conn.execute(
        "SELECT doc_id, page_index, label, text FROM (SELECT p.*, ROW_NUMBER() OVER "
        "(PARTITION BY p.doc_id ORDER BY p.page_index) AS n FROM pages p JOIN documents d "
        f"ON d.doc_id = p.doc_id WHERE {_LISTED}) WHERE n <= ? ORDER BY doc_id, page_index",
        (limit,),
    )
    found: dict[str, list[Page]] = {}
    for doc_id, i, label, text in rows:
        found.setdefault(doc_id, []).append(Page(index=i, label=label, text=text))
    return found


def ready_chunks(conn: sqlite3.Connection, doc_ids: Iterable[str] | None = None) -> list[tuple[int, Chunk]]:
    """(vec_id, chunk) of listed documents, ordered by document (as added) and ordinal."""
    sql = f"SELECT {_CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.doc_id = c.doc_id WHERE {_LISTED}"
    params: list[str] = []
    if doc_ids is not None:
        params = list(doc_ids)
        sql += f" AND c.doc_id IN ({','.join('?' * len(params))})"
    rows = conn.execute(sql + " ORDER BY d.rowid, c.ordinal", params)
    return [(r[0], _chunk(r)) for r in rows]


def ready_vec_ids(conn: sqlite3.Connection, doc_ids: Iterable[str]) -> list[int]:
    """The vector ids of the ready documents' chunks (a filter for dense search: no rows decoded)."""
    params = list(doc_ids)
    rows = conn.execute(
        "SELECT c.vec_id FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
        f"WHERE d.status = 'ready' AND c.doc_id IN ({','.join('?' * len(params))})",
        params,
    )
    return [r[0] for r in rows]


def ready_chunk_keys(conn: sqlite3.Connection) -> list[tuple[str, str, int, int]]:
    """(chunk_id, doc_id, context length, text length) of listed chunks, in ready_chunks' order."""
    rows = conn.execute(
        "SELECT c.chunk_id, c.doc_id, length(COALESCE(c.context, '')), length(c.text) FROM chunks c "
        f"JOIN documents d ON d.doc_id = c.doc_id WHERE {_LISTED} ORDER BY d.rowid, c.ordinal"
    )
    return [tuple(r) for r in rows]


def ready_chunk_words(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """(chunk_id, doc_id, context, text) of listed chunks, in ready_chunks' order (no locators decoded)."""
    rows = conn.execute(
        "SELECT c.chunk_id, c.doc_id, COALESCE(c.context, ''), c.text FROM chunks c "
        f"JOIN documents d ON d.doc_id = c.doc_id WHERE {_LISTED} ORDER BY d.rowid, c.ordinal"
    )
    return [tuple(r) for r in rows]


def chunk_first_pages(conn: sqlite3.Connection, doc_id: str) -> dict[str, int]:
    """chunk_id -> the page index of its first locator, in ordinal order (chunks without locators left out)."""
    rows = conn.execute(
        "SELECT c.chunk_id, json_extract(c.locators, '$[0][0]') FROM chunks c JOIN documents d "
        f"ON d.doc_id = c.doc_id WHERE {_LISTED} AND c.doc_id = ? ORDER BY c.ordinal",
        (doc_id,),
    )
    return {chunk_id: int(page) for chunk_id, page in rows if page is not None}


def chunk_sections(conn: sqlite3.Connection, doc_id: str) -> dict[str, tuple[str, ...]]:
    """chunk_id -> its section paths, in ordinal order (no text or locators decoded)."""
    rows = conn.execute(
        "SELECT c.chunk_id, c.sections FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
        f"WHERE {_LISTED} AND c.doc_id = ? ORDER BY c.ordinal",
        (doc_id,),
    )
    return {chunk_id: sections_from(sections) for chunk_id, sections in rows}


def chunks_where(conn: sqlite3.Connection, column: str, values: Sequence[object]) -> list[tuple[int, Chunk]]:
    """(vec_id, chunk) of listed documents whose ``column`` (vec_id or chunk_id) is in ``values``."""
    assert column in ("vec_id", "chunk_id")
    found: list[tuple[int, Chunk]] = []
    for start in range(0, len(values), 500):  # SQLite caps bound parameters
        part = list(values[start : start + 500])
        rows = conn.execute(
            f"SELECT {_CHUNK_COLUMNS} FROM chunks c JOIN documents d ON d.doc_id = c.doc_id "
            f"WHERE {_LISTED} AND c.{column} IN ({','.join('?' * len(part))})",
            part,
        )
        found.extend((r[0], _chunk(r)) for r in rows)
    return found


def all_vec_ids(conn: sqlite3.Connection) -> list[int]:
    """Every chunk's vector id, but those of documents a job is embedding (their vectors are not
    missing but on their way: the job adds them, ingest/local/jobs.py)."""
    rows = conn.execute(
        "SELECT vec_id FROM chunks WHERE doc_id NOT IN (SELECT doc_id FROM documents WHERE status = ?)",
        (EMBEDDING,),
    )
    return [r[0] for r in rows]


def _document(row: Sequence) -> Document:
    doc_id, title, file_name, n_pages, size, n_chunks, added_at, warnings = row
    return Document(doc_id, title, file_name, n_pages, size, n_chunks, added_at, tuple(json.loads(warnings)))


def _chunk(row: Sequence) -> Chunk:
    _, chunk_id, doc_id, ordinal, text, locators, context, sections = row
    return Chunk(chunk_id, doc_id, ordinal, text, _load_locators(locators), context, sections_from(sections))


def _load_locators(raw: str) -> tuple[PageLocator, ...]:
    return locators_from(json.loads(raw))
