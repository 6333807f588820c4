"""PostgreSQL reads of the library (team mode), each on a connection the caller opened: documents,
pages, PDFs, chunks, and the dense (HNSW) and full-text searches, with the rows made into types."""

from __future__ import annotations

from collections.abc import Sequence

import psycopg

from ingest.local import vectors
from ingest.rows import locators_from, ocr_from, page_sections_from, sections_from
from ingest.team.store import TEXT_SEARCH_CONFIG
from ingest.types import Chunk, Document, Page, PageOcr

_DOC = "doc_id, title, file_name, pages, size_bytes, chunks, added_at, warnings"
_CHUNK = "c.chunk_id, c.doc_id, c.ordinal, c.text, c.locators, c.context, c.sections"


_IN_ORDER = (
    "SELECT c.chunk_id, c.doc_id, {} FROM footnote_chunks c JOIN footnote_documents d USING (doc_id) "
    "ORDER BY d.seq, c.ordinal"
)

_INCOMPLETE = """
SELECT doc_id FROM footnote_documents d
WHERE d.pages <> (SELECT COUNT(*) FROM footnote_pages p WHERE p.doc_id = d.doc_id)
   OR d.chunks <> (SELECT COUNT(*) FROM footnote_chunks c WHERE c.doc_id = d.doc_id)
ORDER BY d.seq
"""


def generation(conn: psycopg.Connection) -> int:
    """The change counter (0 before the first write)."""
    row = conn.execute("SELECT value FROM footnote_meta WHERE key = 'generation'").fetchone()
    return int(row[0]) if row else 0


def documents(conn: psycopg.Connection) -> list[Document]:
    """Every document, in the order added."""
    return [_document(r) for r in conn.execute(f"SELECT {_DOC} FROM footnote_documents ORDER BY seq")]


def document(conn: psycopg.Connection, doc_id: str) -> Document | None:
    """One document, or None."""
    row = conn.execute(f"SELECT {_DOC} FROM footnote_documents WHERE doc_id = %s", (doc_id,)).fetchone()
    return _document(row) if row else None


def has_document(conn: psycopg.Connection, doc_id: str) -> bool:
    """Whether a document's row is there."""
    return (
        conn.execute("SELECT 1 FROM footnote_documents WHERE doc_id = %s", (doc_id,)).fetchone() is not None
    )


def pages(conn: psycopg.Connection, doc_id: str) -> list[Page]:
    """A document's pages (text and printed labels, and how OCR read the pages it read)."""
    # to_jsonb(p) -> 'ocr' rather than the column: a reader may meet a database whose last writer
    # came before OCR (readers never change the schema), where it is simply NULL.
    # The same for its sections (a writer before sections), which are then none.
    found = conn.execute(
        "SELECT page_index, label, text, to_jsonb(p) -> 'ocr', to_jsonb(p) -> 'sections' FROM footnote_pages p "
        "WHERE doc_id = %s ORDER BY page_index",
        (doc_id,),
    ).fetchall()
    return [Page(i, label, text, ocr_from(ocr), page_sections_from(s)) for i, label, text, ocr, s in found]


def page_ocr(conn: psycopg.Connection, doc_id: str, page_index: int) -> PageOcr | None:
    """How OCR read one page, or None (a text page, or no such page)."""
    row = conn.execute(
        "SELECT to_jsonb(p) -> 'ocr' FROM footnote_pages p WHERE doc_id = %s AND page_index = %s",
        (doc_id, page_index),
    ).fetchone()
    return ocr_from(row[0]) if row else None


def first_pages(conn: psycopg.Connection, limit: int) -> dict[str, list[Page]]:
    """The first ``limit`` pages of every document, by doc_id (one query, not one per document)."""
    rows = conn.execute(
        "SELECT doc_id, page_index, label, text FROM (SELECT p.*, ROW_NUMBER() OVER "
        "(PARTITION BY doc_id ORDER BY page_index) AS n FROM footnote_pages p) AS numbered "
        "WHERE n <= %s ORDER BY doc_id, page_index",
        (limit,),
    ).fetchall()
    found: dict[str, list[Page]] = {}
    for doc_id, i, label, text in rows:
        found.setdefault(doc_id, []).append(Page(index=i, label=label, text=text))
    return found


def pdf_bytes(conn: psycopg.Connection, doc_id: str) -> bytes:
    """The stored PDF; FileNotFoundError when the document is gone (as the local library)."""
    row = conn.execute("SELECT pdf FROM footnote_documents WHERE doc_id = %s", (doc_id,)).fetchone()
    if row is None:
        raise FileNotFoundError(f"{doc_id} is not in the library")
    return bytes(row[0])


def chunks(conn: psycopg.Connection, doc_ids: Sequence[str] | None = None) -> list[Chunk]:
    """Chunks, ordered by document (as added) and ordinal."""
    where, params = _doc_filter(doc_ids)
    rows = conn.execute(
        f"SELECT {_CHUNK} FROM footnote_chunks c JOIN footnote_documents d USING (doc_id) "
        f"WHERE TRUE {where} ORDER BY d.seq, c.ordinal",
        params,
    ).fetchall()
    return [_chunk(r) for r in rows]


def chunks_by_id(conn: psycopg.Connection, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
    """The chunks among chunk_ids, by id (deleted ones are missing)."""
    rows = conn.execute(
        f"SELECT {_CHUNK} FROM footnote_chunks c WHERE c.chunk_id = ANY(%s)", (list(chunk_ids),)
    )
    return {chunk.chunk_id: chunk for chunk in map(_chunk, rows)}


def chunk_keys(conn: psycopg.Connection) -> list[tuple[str, str, int, int]]:
    """(chunk_id, doc_id, context length, text length) of every chunk, in chunks() order."""
    return [tuple(r) for r in conn.execute(_IN_ORDER.format("length(c.context), length(c.text)"))]


def chunk_words(conn: psycopg.Connection) -> list[tuple[str, str, str, str]]:
    """(chunk_id, doc_id, context, text) of every chunk, in chunks() order."""
    return [tuple(r) for r in conn.execute(_IN_ORDER.format("c.context, c.text"))]


def chunk_pages(conn: psycopg.Connection, doc_id: str) -> dict[str, int]:
    """chunk_id -> the page index of its first locator, in ordinal order (chunks without locators left out)."""
    rows = conn.execute(
        "SELECT chunk_id, (locators -> 0 ->> 0)::int FROM footnote_chunks WHERE doc_id = %s ORDER BY ordinal",
        (doc_id,),
    )
    return {chunk_id: int(page) for chunk_id, page in rows if page is not None}


def chunk_sections(conn: psycopg.Connection, doc_id: str) -> dict[str, tuple[str, ...]]:
    """chunk_id -> its section paths, in ordinal order (no text or locators decoded)."""
    rows = conn.execute(
        "SELECT chunk_id, sections FROM footnote_chunks WHERE doc_id = %s ORDER BY ordinal", (doc_id,)
    )
    return {chunk_id: sections_from(sections) for chunk_id, sections in rows}


def chunk_count(conn: psycopg.Connection) -> int:
    """How many chunks the library holds."""
    return int(conn.execute("SELECT COUNT(*) FROM footnote_chunks").fetchone()[0])


def incomplete_ids(conn: psycopg.Connection) -> list[str]:
    """Documents whose page or chunk rows do not add up to what their row records, in the order added."""
    return [r[0] for r in conn.execute(_INCOMPLETE)]


def search_vector(
    conn: psycopg.Connection, vec: Sequence[float], k: int, doc_ids: Sequence[str] | None, ef_search: int
) -> list[tuple[Chunk, float]]:
    """Dense search with a ready-made query vector: HNSW over the library, exact within documents."""
    query = vectors.as_matrix(vec)[0]
    sql = (
        f"SELECT {_CHUNK}, -(c.embedding <#> %s) FROM footnote_chunks c WHERE c.embedding IS NOT NULL "
        "ORDER BY c.embedding <#> %s LIMIT %s"
    )
    params: list = [query, query, int(k)]
    if doc_ids is not None:
        # HNSW filters after its search and can return fewer than k within a few documents;
        # the MATERIALIZED subset keeps the planner off the index there, so that case is exact.
        sql = (
            "WITH subset AS MATERIALIZED (SELECT * FROM footnote_chunks WHERE doc_id = ANY(%s)) "
            + sql.replace("FROM footnote_chunks c", "FROM subset c")
        )
        params.insert(0, list(doc_ids))
    with conn.transaction():
        # HNSW returns at most ef_search rows: never fewer candidates than asked for.
        conn.execute(f"SET LOCAL hnsw.ef_search = {min(1000, max(int(ef_search), int(k)))}")
        rows = conn.execute(sql, params).fetchall()
    return [(_chunk(r), float(r[-1])) for r in rows]


def lexical_search(
    conn: psycopg.Connection, query: str, k: int, doc_ids: Sequence[str] | None = None
) -> list[tuple[Chunk, float]]:
    """Full-text ranking (any of the query's words, ts_rank normalised by length) over the GIN index."""
    words = " or ".join(w for w in query.replace('"', " ").split() if w.lower() != "or")
    where, params = _doc_filter(doc_ids)
    rows = conn.execute(
        f"WITH q AS (SELECT websearch_to_tsquery('{TEXT_SEARCH_CONFIG}', %s) AS q) "
        f"SELECT {_CHUNK}, ts_rank(c.tsv, q.q, 1) AS rank FROM footnote_chunks c, q "
        f"WHERE c.tsv @@ q.q {where} ORDER BY rank DESC, c.chunk_id LIMIT %s",
        [words, *params, int(k)],
    ).fetchall()
    return [(_chunk(r), float(r[-1])) for r in rows]


def _doc_filter(doc_ids: Sequence[str] | None) -> tuple[str, list]:
    return ("", []) if doc_ids is None else ("AND c.doc_id = ANY(%s)", [list(doc_ids)])


def _document(row) -> Document:
    doc_id, title, file_name, n_pages, size, n_chunks, added_at, warnings = row
    return Document(doc_id, title, file_name, n_pages, size, n_chunks, added_at, tuple(warnings))


def _chunk(row) -> Chunk:
    chunk_id, doc_id, ordinal, text, locators, context, sections = row[:7]
    return Chunk(chunk_id, doc_id, ordinal, text, locators_from(locators), context, sections_from(sections))
