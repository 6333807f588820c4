"""The library in PostgreSQL + pgvector (team mode): the public surface of ``ingest.library.Library``.

Reading, chunking and embedding happen in memory, outside any transaction; then one
transaction, holding a database-wide advisory lock, stores the PDF, pages, chunks and vectors
and bumps the generation. A document is therefore visible whole or not at all, a killed worker
leaves nothing behind, and the same file from two workers is stored once (the second sees it and
skips; the primary key on doc_id is the last guard). Any number of app instances read at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import psycopg
from langchain_core.embeddings import Embeddings

from ingest import pg_connect, pg_store, vectors
from ingest.chunking import chunk_pages
from ingest.context import indexed_text
from ingest.errors import IndexMismatch, LibraryBusy, NoPgLibrary, ReadOnlyLibrary
from ingest.ids import doc_id_for
from ingest.library import (
    LOCK_TIMEOUT_S,
    IngestProgress,
    IngestResult,
    Library,
    LibrarySettings,
    ProgressFn,
    _skipped,
    prepare_pdf,
)
from ingest.pg_store import DEFAULT_HNSW, HnswSettings
from ingest.types import Chunk, Document, Page, PageLocator

_DOC = "doc_id, title, file_name, pages, size_bytes, chunks, added_at, warnings"
_CHUNK = "c.chunk_id, c.doc_id, c.ordinal, c.text, c.locators, c.context"


_INCOMPLETE = """
SELECT doc_id FROM footnote_documents d
WHERE d.pages <> (SELECT COUNT(*) FROM footnote_pages p WHERE p.doc_id = d.doc_id)
   OR d.chunks <> (SELECT COUNT(*) FROM footnote_chunks c WHERE c.doc_id = d.doc_id)
ORDER BY d.seq
"""


class PgLibrary:
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
        hnsw: HnswSettings = DEFAULT_HNSW,
        repair: bool = True,
        lock_timeout: float = LOCK_TIMEOUT_S,
        **options,
    ) -> PgLibrary:
        """Open (creating the tables if needed) for writing; IndexMismatch as the local library.
        Writes wait up to ``lock_timeout`` seconds for another writer, then raise LibraryBusy."""
        library = cls(url, embeddings, LibrarySettings(**options), hnsw, lock_timeout=lock_timeout)
        with library._connect() as conn:
            pg_store.create_schema(conn)
            library._verify_settings(conn, None)
        return library

    @classmethod
    def open_reader(
        cls, url: str, embeddings: Embeddings, *, hnsw: HnswSettings = DEFAULT_HNSW, **options
    ) -> PgLibrary:
        """Open read-only (the server refuses writes on its connections); NoLibrary when empty."""
        library = cls(url, embeddings, LibrarySettings(**options), hnsw, read_only=True)
        with library._connect() as conn:
            if not pg_store.has_schema(conn):
                raise NoPgLibrary(library.data_dir)
            library._verify_settings(conn, None)
        return library

    @classmethod
    def rebuild(
        cls,
        url: str,
        embeddings: Embeddings,
        *,
        hnsw: HnswSettings = DEFAULT_HNSW,
        progress: ProgressFn | None = None,
        lock_timeout: float = LOCK_TIMEOUT_S,
        **options,
    ) -> PgLibrary:
        """Re-chunk and re-embed every document with these settings (the way out of IndexMismatch)."""
        library = cls(url, embeddings, LibrarySettings(**options), hnsw, lock_timeout=lock_timeout)
        with library._connect() as conn:
            pg_store.create_schema(conn)
        library.reindex_all(progress)
        return library

    # -- reading -----------------------------------------------------------------------------

    @property
    def generation(self) -> int:
        """Changes on every add, delete and re-index (in any process on any machine)."""
        with self._connect() as conn:
            row = conn.execute("SELECT value FROM footnote_meta WHERE key = 'generation'").fetchone()
        return int(row[0]) if row else 0

    def documents(self) -> list[Document]:
        """Every document, in the order added."""
        with self._connect() as conn:
            return [_document(r) for r in conn.execute(f"SELECT {_DOC} FROM footnote_documents ORDER BY seq")]

    def document(self, doc_id: str) -> Document | None:
        """One document, or None."""
        with self._connect() as conn:
            row = conn.execute(
                f"SELECT {_DOC} FROM footnote_documents WHERE doc_id = %s", (doc_id,)
            ).fetchone()
        return _document(row) if row else None

    def pages(self, doc_id: str) -> list[Page]:
        """A document's pages (text and printed labels)."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT page_index, label, text FROM footnote_pages WHERE doc_id = %s ORDER BY page_index",
                (doc_id,),
            ).fetchall()
        return [Page(index=i, label=label, text=text) for i, label, text in rows]

    def first_pages(self, limit: int) -> dict[str, list[Page]]:
        """The first ``limit`` pages of every document, by doc_id (one query, not one per document)."""
        with self._connect() as conn:
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

    def pdf_bytes(self, doc_id: str) -> bytes:
        """The stored PDF; FileNotFoundError when the document is gone (as the local library)."""
        with self._connect() as conn:
            row = conn.execute("SELECT pdf FROM footnote_documents WHERE doc_id = %s", (doc_id,)).fetchone()
        if row is None:
            raise FileNotFoundError(f"{doc_id} is not in the library")
        return bytes(row[0])

    def chunks(self, doc_ids: Sequence[str] | None = None) -> list[Chunk]:
        """Chunks, ordered by document (as added) and ordinal."""
        where, params = _doc_filter(doc_ids)
        with self._connect() as conn:
            rows = conn.execute(
                f"SELECT {_CHUNK} FROM footnote_chunks c JOIN footnote_documents d USING (doc_id) "
                f"WHERE TRUE {where} ORDER BY d.seq, c.ordinal",
                params,
            ).fetchall()
        return [_chunk(r) for r in rows]

    def chunk_count(self) -> int:
        """How many chunks the library holds."""
        with self._connect() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM footnote_chunks").fetchone()[0])

    def search_vector(
        self, vec: Sequence[float], k: int, doc_ids: Sequence[str] | None = None
    ) -> list[tuple[Chunk, float]]:
        """Dense search with a ready-made query vector: HNSW over the library, exact within documents."""
        query = vectors.as_matrix(vec)[0]
        sql = f"SELECT {_CHUNK}, -(c.embedding <#> %s) FROM footnote_chunks c ORDER BY c.embedding <#> %s LIMIT %s"
        params: list = [query, query, int(k)]
        if doc_ids is not None:
            # HNSW filters after its search and can return fewer than k within a few documents;
            # the MATERIALIZED subset keeps the planner off the index there, so that case is exact.
            sql = (
                "WITH subset AS MATERIALIZED (SELECT * FROM footnote_chunks WHERE doc_id = ANY(%s)) "
                + sql.replace("FROM footnote_chunks c", "FROM subset c")
            )
            params.insert(0, list(doc_ids))
        with self._connect() as conn, conn.transaction():
            # HNSW returns at most ef_search rows: never fewer candidates than asked for.
            conn.execute(f"SET LOCAL hnsw.ef_search = {min(1000, max(int(self.hnsw.ef_search), int(k)))}")
            rows = conn.execute(sql, params).fetchall()
        return [(_chunk(r), float(r[-1])) for r in rows]

    def lexical_search(
        self, query: str, k: int, doc_ids: Sequence[str] | None = None
    ) -> list[tuple[Chunk, float]]:
        """Full-text ranking (any of the query's words, ts_rank normalised by length) over the GIN index."""
        words = " or ".join(w for w in query.replace('"', " ").split() if w.lower() != "or")
        where, params = _doc_filter(doc_ids)
        with self._connect() as conn:
            rows = conn.execute(
                f"WITH q AS (SELECT websearch_to_tsquery('{pg_store.TEXT_SEARCH_CONFIG}', %s) AS q) "
                f"SELECT {_CHUNK}, ts_rank(c.tsv, q.q, 1) AS rank FROM footnote_chunks c, q "
                f"WHERE c.tsv @@ q.q {where} ORDER BY rank DESC, c.chunk_id LIMIT %s",
                [words, *params, int(k)],
            ).fetchall()
        return [(_chunk(r), float(r[-1])) for r in rows]

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
            return _skipped(existing)
        prepared = prepare_pdf(self.config, self._embed, data, file_name, password, report)
        doc = prepared.doc
        stored = self.store_document(
            doc, prepared.pages, prepared.chunks, prepared.matrix, prepared.pdf, report
        )
        if stored is not doc:  # another worker stored the same file while this one embedded it
            return _skipped(stored)
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
        self._record_settings(matrix.shape[1])
        with self._connect() as conn, conn.transaction():
            self._lock_writers(conn)
            row = conn.execute(
                f"SELECT {_DOC} FROM footnote_documents WHERE doc_id = %s", (doc.doc_id,)
            ).fetchone()
            if row is not None:
                return _document(row)
            report(IngestProgress(doc.file_name, "index", 0, len(chunks)))
            self._verify_settings(conn, matrix.shape[1])
            pg_store.insert_document(conn, doc, pages, chunks, matrix, pdf)
            pg_store.bump_generation(conn)
            report(
                IngestProgress(doc.file_name, "index", len(chunks), len(chunks))
            )  # written, not yet committed
        return doc

    def delete(self, doc_id: str) -> bool:
        """Remove a document with its pages, chunks, vectors and PDF; False when it was not there."""
        self._writable()
        with self._connect() as conn, conn.transaction():
            self._lock_writers(conn)
            gone = conn.execute("DELETE FROM footnote_documents WHERE doc_id = %s", (doc_id,)).rowcount
            if gone:
                pg_store.bump_generation(conn)
        return bool(gone)

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
        with self._connect() as conn, conn.transaction():
            self._lock_writers(conn)
            conn.execute("DELETE FROM footnote_chunks")
            pg_store.write_meta(
                conn,
                {
                    "embedding_name": self.config.embedding_name,
                    "chunk_size": self.config.chunk_size,
                    "chunk_overlap": self.config.chunk_overlap,
                },
            )
            for doc, chunks, matrix in plans:
                self._verify_settings(conn, matrix.shape[1])
                pg_store.insert_chunks(conn, chunks, matrix)
                conn.execute(
                    "UPDATE footnote_documents SET chunks = %s WHERE doc_id = %s", (len(chunks), doc.doc_id)
                )
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
            ids = [r[0] for r in conn.execute(_INCOMPLETE)]
        return [d for d in (self.document(i) for i in ids) if d is not None]

    def replace_rows(
        self, doc_id: str, pages: Sequence[Page], chunks: Sequence[Chunk], matrix: np.ndarray
    ) -> bool:
        """Replace a document's pages and chunks in one transaction under the write lock; False
        when the document is gone."""
        self._writable()
        with self._connect() as conn, conn.transaction():
            self._lock_writers(conn)
            if (
                conn.execute("SELECT 1 FROM footnote_documents WHERE doc_id = %s", (doc_id,)).fetchone()
                is None
            ):
                return False
            self._verify_settings(conn, matrix.shape[1])
            conn.execute("DELETE FROM footnote_chunks WHERE doc_id = %s", (doc_id,))
            conn.execute("DELETE FROM footnote_pages WHERE doc_id = %s", (doc_id,))
            pg_store.insert_pages(conn, doc_id, pages)
            pg_store.insert_chunks(conn, chunks, matrix)
            conn.execute(
                "UPDATE footnote_documents SET pages = %s, chunks = %s WHERE doc_id = %s",
                (len(pages), len(chunks), doc_id),
            )
            pg_store.bump_generation(conn)
        return True

    def check(self, progress: ProgressFn | None = None) -> list[str]:
        """Every document is committed whole, vectors included; re-derive from its stored PDF any
        that a change from outside left incomplete (see ingest.pg_recovery); what was done."""
        from ingest.pg_recovery import rebuild_incomplete

        self._writable()
        return rebuild_incomplete(self, progress).lines()

    def recover(self, progress: ProgressFn | None = None):
        """``python -m ingest recover`` here: ingest.pg_recovery.recover."""
        from ingest.pg_recovery import recover

        self._writable()
        return recover(self, progress)

    def as_retriever(self, k: int = 6, doc_ids: Sequence[str] | None = None):
        """This library as a LangChain BaseRetriever (rag.retriever.LibraryRetriever)."""
        from rag.retriever import library_retriever

        return library_retriever(self, k=k, doc_ids=doc_ids)

    # -- internals ---------------------------------------------------------------------------

    # The local library's batching, progress and EmbeddingFailed, shared rather than copied.
    _embed = Library._embed

    def _connect(self):
        return pg_connect.connect(self.url, read_only=self.read_only)

    def _lock_writers(self, conn: psycopg.Connection) -> None:
        """Take the database-wide write lock for the rest of conn's transaction, waiting at most
        ``lock_timeout`` seconds (as the local library's file lock: 0 tries once, below 0 waits for
        ever); LibraryBusy when another writer holds it that long."""
        if self.lock_timeout >= 0:
            conn.execute(f"SET LOCAL lock_timeout = {max(1, math.ceil(self.lock_timeout * 1000))}")
        try:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (pg_store.WRITE_LOCK,))
        except psycopg.errors.LockNotAvailable as exc:
            raise LibraryBusy(self.data_dir) from exc
        conn.execute("SET LOCAL lock_timeout = DEFAULT")  # only the wait for other writers is bounded

    def _writable(self) -> None:
        if self.read_only:
            raise ReadOnlyLibrary(self.data_dir)

    def _record_settings(self, dim: int) -> None:
        """Check the settings, and let an empty library take them and this vector dimension, in a
        short transaction of its own: its ALTER TABLE locks out readers until it commits."""
        with self._connect() as conn, conn.transaction():
            self._lock_writers(conn)
            self._verify_settings(conn, dim)

    def _verify_settings(self, conn, dim: int | None) -> None:
        """Refuse to mix settings; an empty library takes the current ones (and fixes the dimension)."""
        wanted = {
            "embedding_name": self.config.embedding_name,
            "chunk_size": self.config.chunk_size,
            "chunk_overlap": self.config.chunk_overlap,
        }
        meta = pg_store.read_meta(conn)
        if conn.execute("SELECT 1 FROM footnote_chunks LIMIT 1").fetchone() is not None:
            differs = [
                f"{k}: library {meta.get(k)}, now {v}" for k, v in wanted.items() if str(v) != meta.get(k)
            ]
            if dim is not None and meta.get("dim") and int(meta["dim"]) != dim:
                differs.append(f"dimension: library {meta['dim']}, now {dim}")
            if differs:
                raise IndexMismatch(self.data_dir, "; ".join(differs))
            return
        if dim is None or self.read_only:
            return  # the first document records the settings, in its own transaction
        if meta.get("dim") != str(dim):
            pg_store.fix_dimension(conn, dim, self.hnsw)
        pg_store.write_meta(conn, wanted | {"dim": dim})


def _doc_filter(doc_ids: Sequence[str] | None) -> tuple[str, list]:
    return ("", []) if doc_ids is None else ("AND c.doc_id = ANY(%s)", [list(doc_ids)])


def _document(row) -> Document:
    doc_id, title, file_name, n_pages, size, n_chunks, added_at, warnings = row
    return Document(doc_id, title, file_name, n_pages, size, n_chunks, added_at, tuple(warnings))


def _chunk(row) -> Chunk:
    chunk_id, doc_id, ordinal, text, locators, context = row[:6]
    return Chunk(
        chunk_id,
        doc_id,
        ordinal,
        text,
        tuple(PageLocator(int(i), str(label), int(a), int(b)) for i, label, a, b in locators),
        context,
    )
