"""What a team library answers without writing: its documents, pages, chunks, dense and lexical search,
through ingest.team.read on a pooled connection; PgLibrary (ingest.team.library) takes these from PgLibraryReads."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ingest.team import read as pg_read
from ingest.team.jobs import PgJobs
from ingest.types import (
    Chunk,
    Document,
    Page,
    PageOcr,
)


class PgLibraryReads:
    """A team library's reads (ingest.types.LibraryReader); PgLibrary supplies ``_connect``
    and its settings."""

    @property
    def generation(self) -> int:
        """Changes on every add, delete and re-index (in any process on any machine)."""
        with self._connect() as conn:
            return pg_read.generation(conn)

    @property
    def cache_dir(self) -> Path | None:
        """None: the database is the only place a team library has, so what rag derives from it
        stays in memory (and the BM25 index is never built: see has_lexical_search)."""
        return None

    @property
    def has_lexical_search(self) -> bool:
        """True: PostgreSQL ranks words itself (full text over a GIN index)."""
        return True

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

    def chunk_keys(self) -> list[tuple[str, str, int, int]]:
        """(chunk_id, doc_id, context length, text length) of every chunk in chunks() order."""
        with self._connect() as conn:
            return pg_read.chunk_keys(conn)

    def chunk_words(self) -> list[tuple[str, str, str, str]]:
        """(chunk_id, doc_id, context, text) of every chunk in chunks() order."""
        with self._connect() as conn:
            return pg_read.chunk_words(conn)

    def chunk_pages(self, doc_id: str) -> dict[str, int]:
        """Each chunk of a document (by id, in order) and the page it starts on."""
        with self._connect() as conn:
            return pg_read.chunk_pages(conn, doc_id)

    def chunk_sections(self, doc_id: str) -> dict[str, tuple[str, ...]]:
        """Each chunk of a document (by id, in order) and its section paths."""
        with self._connect() as conn:
            return pg_read.chunk_sections(conn, doc_id)

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks among chunk_ids, by id (deleted ones are missing)."""
        with self._connect() as conn:
            return pg_read.chunks_by_id(conn, chunk_ids)

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
    ) -> list[tuple[Chunk, float]] | None:
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
