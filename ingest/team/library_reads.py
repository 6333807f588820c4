"""What a team library answers without writing: its documents, pages, chunks, dense and lexical search,
through ingest.team.read on a pooled connection; PgLibrary (ingest.team.library) takes these from PgLibraryReads."""

from __future__ import annotations

from collections.abc import Sequence

from ingest.team import read as pg_read
from ingest.team.jobs import PgJobs
from ingest.types import (
    Chunk,
    Document,
    Page,
    PageOcr,
)


class PgLibraryReads:
    """A team library's reads; PgLibrary supplies ``_connect`` and its settings."""

    @property
    def generation(self) -> int:
        """Changes on every add, delete and re-index (in any process on any machine)."""
        with self._connect() as conn:
            return pg_read.generation(conn)

    def documents(self) -> list[Document]:
        """Every document, in the order added."""
        with self._connect() as conn:
            return pg_read.documents(conn)

    def document(self, doc_id: str) -> Document | None:
        """One document, or None."""
        with self._connect() as conn:
            return pg_read.document(conn, doc_id)

    def pages(self, doc_id: str) -> list[Page]:
        """A document's pages (text and printed labels)."""
        with self._connect() as conn:
            return pg_read.pages(conn, doc_id)

    def page_ocr(self, doc_id: str, page_index: int) -> PageOcr | None:
        """How OCR read one page (engine, confidence, word boxes), or None for a text page."""
        with self._connect() as conn:
            return pg_read.page_ocr(conn, doc_id, page_index)

    def first_pages(self, limit: int) -> dict[str, list[Page]]:
        """The first ``limit`` pages of every document, by doc_id (one query, not one per document)."""
        with self._connect() as conn:
            return pg_read.first_pages(conn, limit)

    def pdf_bytes(self, doc_id: str) -> bytes:
        """The stored PDF; FileNotFoundError when the document is gone (as the local library)."""
        with self._connect() as conn:
            return pg_read.pdf_bytes(conn, doc_id)

    def chunks(self, doc_ids: Sequence[str] | None = None) -> list[Chunk]:
        """Chunks, ordered by document (as added) and ordinal."""
        with self._connect() as conn:
            return pg_read.chunks(conn, doc_ids)

    def chunk_count(self) -> int:
        """How many chunks the library holds."""
        with self._connect() as conn:
            return pg_read.chunk_count(conn)

    def search_vector(
        self, vec: Sequence[float], k: int, doc_ids: Sequence[str] | None = None
    ) -> list[tuple[Chunk, float]]:
        """Dense search with a ready-made query vector: HNSW over the library, exact within documents."""
        with self._connect() as conn:
            return pg_read.search_vector(conn, vec, k, doc_ids, self.hnsw.ef_search)

    def lexical_search(
        self, query: str, k: int, doc_ids: Sequence[str] | None = None
    ) -> list[tuple[Chunk, float]]:
        """Full-text ranking (any of the query's words, ts_rank normalised by length) over the GIN index."""
        with self._connect() as conn:
            return pg_read.lexical_search(conn, query, k, doc_ids)

    @property
    def jobs(self) -> PgJobs:
        """The library's ingestion jobs, in the database (ingest.team.jobs; workers: ingest.worker)."""
        return PgJobs(self)

    def vector_progress(self) -> dict[str, float]:
        """Documents searchable by words whose vectors are still being embedded: the share done."""
        return self.jobs.vector_progress()
