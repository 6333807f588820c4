"""What a local library answers without writing: its documents, pages, chunks and dense search, each on
a fresh read-only-when-asked SQLite connection; Library (ingest.local.library) takes these from LibraryReads."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ingest.local import queries, store, vectors
from ingest.local.jobs import LocalJobs
from ingest.local.loaded_index import search_ready
from ingest.types import (
    Chunk,
    Document,
    Page,
    PageOcr,
)


class LibraryReads:
    """A local library's reads (ingest.types.LibraryReader); Library supplies ``data_dir``,
    ``db_path``, ``files_dir``, ``read_only`` and ``_loaded``."""

    @property
    def generation(self) -> int:
        """Changes on every add, delete and re-index (in any process)."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return store.generation(conn)

    @property
    def cache_dir(self) -> Path | None:
        """The library's folder: rag keeps its BM25 index, chunk terms and document profiles there."""
        return self.data_dir

    @property
    def has_lexical_search(self) -> bool:
        """False: SQLite keeps no word index here; rag ranks the chunk_words with BM25 instead."""
        return False

    def documents(self) -> list[Document]:
        """Every ready document, in the order added."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return queries.documents(conn)

    def document(self, doc_id: str) -> Document | None:
        """One ready document, or None."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            found = queries.document(conn, doc_id)
        return found[0] if found and found[1] in store.LISTED else None

    def pages(self, doc_id: str) -> list[Page]:
        """A document's pages (text and printed labels)."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return queries.pages(conn, doc_id)

    def page_ocr(self, doc_id: str, page_index: int) -> PageOcr | None:
        """How OCR read one page (engine, confidence, word boxes), or None for a text page."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return queries.page_ocr(conn, doc_id, page_index)

    def first_pages(self, limit: int) -> dict[str, list[Page]]:
        """The first ``limit`` pages of every ready document, by doc_id (one query, not one per document)."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return queries.first_pages(conn, limit)

    def pdf_bytes(self, doc_id: str) -> bytes:
        """The PDF for rendering pages (the original; decrypted when it needed a password)."""
        return (self.files_dir / f"{doc_id}.pdf").read_bytes()

    def chunks(self, doc_ids: Sequence[str] | None = None) -> list[Chunk]:
        """Chunks of ready documents, ordered by document and ordinal."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return [c for _, c in queries.ready_chunks(conn, doc_ids)]

    def chunk_keys(self) -> list[tuple[str, str, int, int]]:
        """(chunk_id, doc_id, context length, text length) of every chunk in chunks() order, without
        reading the texts (a saved search index checks and maps its rows with these)."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return queries.ready_chunk_keys(conn)

    def chunk_words(self) -> list[tuple[str, str, str, str]]:
        """(chunk_id, doc_id, context, text) of every chunk in chunks() order: what BM25 indexes,
        without decoding the locators (a third of reading 2,900 chunks)."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return queries.ready_chunk_words(conn)

    def chunk_pages(self, doc_id: str) -> dict[str, int]:
        """Each chunk of a document (by id, in order) and the page it starts on."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return queries.chunk_first_pages(conn, doc_id)

    def chunk_sections(self, doc_id: str) -> dict[str, tuple[str, ...]]:
        """Each chunk of a document (by id, in order) and its section paths."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return queries.chunk_sections(conn, doc_id)

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        """The ready chunks among chunk_ids, by id (deleted ones are missing)."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return {c.chunk_id: c for _, c in queries.chunks_where(conn, "chunk_id", list(chunk_ids))}

    def chunk_count(self) -> int:
        """How many chunks ready documents have."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            row = conn.execute(
                "SELECT COUNT(*) FROM chunks c JOIN documents d USING (doc_id) WHERE d.status IN (?, ?)",
                store.LISTED,
            ).fetchone()
        return int(row[0])

    def search_vector(
        self, vec: Sequence[float], k: int, doc_ids: Sequence[str] | None = None
    ) -> list[tuple[Chunk, float]]:
        """Dense search: the k chunks closest to a query vector (cosine), optionally within documents."""
        with store.connect(self.db_path, read_only=self.read_only) as conn:
            return search_ready(conn, self._loaded.current(conn), vectors.as_matrix(vec), k, doc_ids)

    def lexical_search(
        self, query: str, k: int, doc_ids: Sequence[str] | None = None
    ) -> list[tuple[Chunk, float]] | None:
        """None: the local library has no word ranking of its own (see has_lexical_search)."""
        return None

    @property
    def jobs(self) -> LocalJobs:
        """The library's ingestion jobs (queue, list, cancel; what workers take: ingest.worker)."""
        return LocalJobs(self)

    def vector_progress(self) -> dict[str, float]:
        """Documents searchable by words whose vectors are still being embedded: the share done."""
        return self.jobs.vector_progress()
