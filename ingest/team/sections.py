"""The sections of a team library's stored documents (ingest.pdf.sections): whether its tables have
them yet, which a reader checks, and the backfill's write of them (ingest.backfill), inside the
caller's transaction."""

from __future__ import annotations

from collections.abc import Sequence

import psycopg
from psycopg.types.json import Jsonb

from ingest.rows import page_sections_data, sections_text
from ingest.types import Page


def has_sections(conn: psycopg.Connection) -> bool:
    """Whether the chunks table has its sections column (a writer since sections has run)."""
    found = conn.execute(
        "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = 'footnote_chunks' AND column_name = 'sections'"
    ).fetchone()
    return found is not None


def set_sections(
    conn: psycopg.Connection, doc_id: str, pages: Sequence[Page], chunks: dict[str, tuple[str, ...]]
) -> None:
    """Record a stored document's sections: its pages' (Page.sections) and each chunk's paths (by id)."""
    conn.cursor().executemany(
        "UPDATE footnote_pages SET sections = %s WHERE doc_id = %s AND page_index = %s",
        [(Jsonb(page_sections_data(p.sections)) if p.sections else None, doc_id, p.index) for p in pages],
    )
    conn.cursor().executemany(
        "UPDATE footnote_chunks SET sections = %s WHERE doc_id = %s AND chunk_id = %s",
        [(sections_text(paths), doc_id, chunk_id) for chunk_id, paths in chunks.items()],
    )
