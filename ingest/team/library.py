"""The library in PostgreSQL + pgvector (team mode): the public surface of ``ingest.local.library.Library``.

Reading, chunking and embedding happen in memory, outside any transaction; then one
transaction, holding a database-wide advisory lock, stores the PDF, pages, chunks and vectors
and bumps the generation. A document is therefore visible whole or not at all, a killed worker
leaves nothing behind, and the same file from two workers is stored once (the second sees it and
skips; the primary key on doc_id is the last guard). Any number of app instances read at once.
The SQL is ingest.team.read's (queries) and ingest.team.store's (schema, writes, the write lock);
connections come from ingest.team.connect.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np
import psycopg
from langchain_core.embeddings import Embeddings

from ingest.errors import NoPgLibrary, PgSchemaTooOld, ReadOnlyLibrary
from ingest.ids import doc_id_for
from ingest.local.library import LOCK_TIMEOUT_S, Library
from ingest.pdf.chunking import chunk_pages
from ingest.pdf.context import indexed_text
from ingest.prepare import prepare_pdf, skipped
from ingest.team import connect as pg_connect
from ingest.team import read as pg_read
from ingest.team import sections as pg_sections
from ingest.team import store as pg_store
from ingest.team.library_reads import PgLibraryReads
from ingest.team.store import DEFAULT_HNSW, HnswSettings
from ingest.types import (
    Chunk,
    Document,
    IngestProgress,
    IngestResult,
    LibrarySettings,
    Page,
    ProgressFn,
)


class PgLibrary(PgLibraryReads):
    """A library in one PostgreSQL database; safe across threads, processes and machines."""

    def __init__(
        self,
        url: str,
        embeddings: Embeddings,
        config: LibrarySettings,
        hnsw: HnswSettings,
        *,
        read_only: bool = False,
        lock_timeout: float = LOCK_TIMEOUT_S,
    ) -> None:
        self.url = url
        self.data_dir = pg_connect.masked(url)  # a cache key and a name for messages, never the password
        self.embeddings, self.config, self.hnsw, self.read_only = embeddings, config, hnsw, read_only
        self.lock_timeout = lock_timeout
        self.open_report: list[str] = []  # transactions leave nothing to repair
        self.missing_vectors = 0

    @classmethod
    def open(
        cls,
        url: str,
        embeddings: Embeddings,
        *,
        config: LibrarySettings | None = None,
        hnsw: HnswSettings = DEFAULT_HNSW,
        repair: bool = True,
        lock_timeout: float = LOCK_TIMEOUT_S,
        **fields: Any,
    ) -> PgLibrary:
        """Open (creating the tables if needed) for writing with ``config`` (or its fields, as
        Library.open); IndexMismatch as the local library. Writes wait up to ``lock_timeout``
        seconds for another writer, then raise LibraryBusy."""
        config = LibrarySettings.of(config, **fields)
        library = cls(url, embeddings, config, hnsw, lock_timeout=lock_timeout)
        with library._connect() as conn:
            pg_store.create_schema(conn)
            library._verify_settings(conn, None)
        return library

    @classmethod
    def open_reader(
        cls,
        url: str,
        embeddings: Embeddings,
        *,
        config: LibrarySettings | None = None,
        hnsw: HnswSettings = DEFAULT_HNSW,
        **fields: Any,
    ) -> PgLibrary:
        """Open read-only (the server refuses writes on its connections); NoLibrary when empty."""
        library = cls(url, embeddings, LibrarySettings.of(config, **fields), hnsw, read_only=True)
        with library._connect() as conn:
            if not pg_store.has_schema(conn):
                raise NoPgLibrary(library.data_dir)
            if not pg_sections.has_sections(conn):
                raise PgSchemaTooOld(library.data_dir)
            library._verify_settings(conn, None)
        return library

    @classmethod
    def rebuild(
        cls,
        url: str,
        embeddings: Embeddings,
        *,
        config: LibrarySettings | None = None,
        hnsw: HnswSettings = DEFAULT_HNSW,
        progress: ProgressFn | None = None,
        lock_timeout: float = LOCK_TIMEOUT_S,
        **fields: Any,
    ) -> PgLibrary:
        """Re-chunk and re-embed every document with ``config`` (the way out of IndexMismatch)."""
        config = LibrarySettings.of(config, **fields)
        library = cls(url, embeddings, config, hnsw, lock_timeout=lock_timeout)
        with library._connect() as conn:
            pg_store.create_schema(conn)
        library.reindex_all(progress)
        return library

    # -- writing -----------------------------------------------------------------------------

    def add_pdf(
        self, data: bytes, file_name: str, *, password: str | None = None, progress: ProgressFn | None = None
    ) -> IngestResult:
        """Read, chunk, embed and store one PDF in one transaction; the same bytes again are skipped."""
        report = progress or (lambda _: None)
        self._writable()
        doc_id = doc_id_for(data)
        existing = self.document(doc_id)
        if existing is not None:
            return skipped(existing)
        prepared = prepare_pdf(self.config, self._embed, data, file_name, password, report)
        doc = prepared.doc
        stored = self.store_document(
            doc, prepared.pages, prepared.chunks, prepared.matrix, prepared.pdf, report
        )
        if stored is not doc:  # another worker stored the same file while this one embedded it
            return skipped(stored)
        return IngestResult("ok", doc, doc.chunks, doc.warnings)

    def store_document(
        self,
        doc: Document,
        pages: Sequence[Page],
        chunks: Sequence[Chunk],
        matrix: np.ndarray,
        pdf: bytes,
        report: ProgressFn | None = None,
    ) -> Document:
        """Write one embedded document in one transaction; returns ``doc``, or the document
        already stored under its id (then nothing is written)."""
        report = report or (lambda _: None)
        self._writable()
        # An empty library takes the settings and this vector dimension in a short transaction of
        # its own: its ALTER TABLE locks out readers until it commits.
        with self._write_transaction() as conn:
            self._verify_settings(conn, matrix.shape[1])
        with self._write_transaction() as conn:
            existing = pg_read.document(conn, doc.doc_id)
            if existing is not None:
                return existing
            report(IngestProgress(doc.file_name, "index", 0, len(chunks)))
            self._verify_settings(conn, matrix.shape[1])
            pg_store.insert_document(conn, doc, pages, chunks, matrix, pdf)
            pg_store.bump_generation(conn)
            # written, not yet committed
            report(IngestProgress(doc.file_name, "index", len(chunks), len(chunks)))
        return doc

    def delete(self, doc_id: str) -> bool:
        """Remove a document with its pages, chunks, vectors and PDF; False when it was not there."""
        self._writable()
        with self._write_transaction() as conn:
            gone = pg_store.delete_document(conn, doc_id)
            if gone:
                pg_store.bump_generation(conn)
        return gone

    def reindex_all(self, progress: ProgressFn | None = None) -> int:
        """Re-chunk every document from its stored pages and re-embed it, in one transaction."""
        report = progress or (lambda _: None)
        self._writable()
        plans = []
        for doc in self.documents():
            chunks = chunk_pages(
                doc.doc_id, self.pages(doc.doc_id), self.config.chunk_size, self.config.chunk_overlap
            )
            plans.append((doc, chunks, self.embed_chunks(doc.file_name, chunks, report)))
        with self._write_transaction() as conn:
            pg_store.delete_all_chunks(conn)
            pg_store.write_meta(conn, self.config.recorded())
            for doc, chunks, matrix in plans:
                self._verify_settings(conn, matrix.shape[1])
                pg_store.insert_chunks(conn, chunks, matrix)
                pg_store.set_chunk_count(conn, doc.doc_id, len(chunks))
            # every chunk has its vector now, those of documents a job was embedding too
            conn.execute("UPDATE footnote_documents SET status = 'ready' WHERE status <> 'ready'")
            pg_store.bump_generation(conn)
        return sum(len(c) for _, c, _ in plans)

    def embed_chunks(self, file_name: str, chunks: Sequence[Chunk], report: ProgressFn) -> np.ndarray:
        """The chunks' vectors (context and text, as stored), reporting embed progress."""
        return self._embed(
            file_name,
            [indexed_text(c.context, c.text) for c in chunks],
            lambda d, t: report(IngestProgress(file_name, "embed", d, t)),
        )

    def incomplete_documents(self) -> list[Document]:
        """Documents whose page or chunk rows do not add up to what their row records (a change
        from outside: a partial restore, rows deleted by hand)."""
        with self._connect() as conn:
            ids = pg_read.incomplete_ids(conn)
        return [d for d in (self.document(i) for i in ids) if d is not None]

    def replace_rows(
        self, doc_id: str, pages: Sequence[Page], chunks: Sequence[Chunk], matrix: np.ndarray
    ) -> bool:
        """Replace a document's pages and chunks in one transaction under the write lock; False
        when the document is gone."""
        self._writable()
        with self._write_transaction() as conn:
            if not pg_read.has_document(conn, doc_id):
                return False
            self._verify_settings(conn, matrix.shape[1])
            pg_store.replace_document_rows(conn, doc_id, pages, chunks, matrix)
            pg_store.bump_generation(conn)
        return True

    def set_sections(self, doc_id: str, pages: Sequence[Page], chunks: dict[str, tuple[str, ...]]) -> bool:
        """Record a stored document's sections (its pages' and its chunks' by id: ingest.backfill);
        nothing else changes, vectors and the generation included. False when it is gone."""
        self._writable()
        with self._write_transaction() as conn:
            if not pg_read.has_document(conn, doc_id):
                return False
            pg_sections.set_sections(conn, doc_id, pages, chunks)
        return True

    def check(self, progress: ProgressFn | None = None) -> list[str]:
        """Every document is committed whole, vectors included; re-derive from its stored PDF any
        that a change from outside left incomplete (see ingest.team.recovery); what was done."""
        from ingest.team.recovery import rebuild_incomplete

        self._writable()
        return rebuild_incomplete(self, progress).lines()

    def recover(self, progress: ProgressFn | None = None):
        """``python -m cli.ingest recover`` here: ingest.team.recovery.recover."""
        from ingest.team.recovery import recover

        self._writable()
        return recover(self, progress)

    # -- internals ---------------------------------------------------------------------------

    # The local library's batching, progress and EmbeddingFailed, shared rather than copied.
    _embed = Library._embed

    def _connect(self):
        return pg_connect.connect(self.url, read_only=self.read_only)

    @contextmanager
    def _write_transaction(self) -> Iterator[psycopg.Connection]:
        """A transaction holding the write lock (LibraryBusy after ``lock_timeout`` seconds)."""
        with self._connect() as conn, conn.transaction():
            pg_store.lock_writers(conn, self.lock_timeout, self.data_dir)
            yield conn

    def _writable(self) -> None:
        if self.read_only:
            raise ReadOnlyLibrary(self.data_dir)

    def _verify_settings(self, conn, dim: int | None) -> None:
        """Refuse to mix settings; an empty library takes the current ones (and fixes the dimension)."""
        wanted = self.config.recorded()
        pg_store.verify_settings(conn, wanted, dim, self.hnsw, where=self.data_dir, record=not self.read_only)
