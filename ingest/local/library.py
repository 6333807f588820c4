"""The persistent library: SQLite rows, FAISS vectors and the original PDFs in one folder.

Layout of ``data_dir``: ``library.sqlite3``, ``index.faiss``, ``files/<doc_id>.pdf``, ``.lock``, and
``lexical/<generation>/``, ``lexical/terms.sqlite3`` and ``profiles/<generation>.json``: the saved
BM25 index, each chunk's BM25 terms and the document profiles, which rag (the reader) writes and
checks, never ingest; ``reindex.json`` only while a
re-index commits (``ingest.local.reindex``: how one killed then is finished without re-embedding).

Crash safety comes from the write order. Reading, chunking and embedding happen in memory
(no lock held, so two sessions can embed at once); then, under the folder's file lock:
PDF file (atomic rename) -> rows committed with status 'ingesting' -> index file replaced
atomically -> status 'ready' and generation bumped. A process killed anywhere leaves the
previous library loadable; the next ``open`` reports and removes a half-done document, and
``check`` reconciles vectors with chunk rows. Readers reload the index when the generation
stored in SQLite changes, and only ever return chunks of 'ready' (or 'embedding', see below) documents.

``open_reader`` gives a library that never takes the lock, never writes and never creates a
file or folder: it reads the last committed state (SQLite WAL, the index file replaced
atomically) while a writer works, and reports instead of repairing. A missing or unreadable
database never causes a deletion: opening stops with LibraryDamaged (see ``ingest.local.recovery``).
Reading, chunking and embedding a PDF is ``ingest.prepare``'s, shared with team mode; the index
in memory and dense search over ready rows are ``ingest.local.loaded_index``'s. Queued files (``jobs``)
are added in two steps of this same order, words then vectors (``ingest.local.jobs``): in between
the document's status is 'embedding', and readers list it and search its chunks by words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import faiss
import numpy as np
from filelock import FileLock, Timeout
from langchain_core.embeddings import Embeddings

from ingest.errors import LibraryBusy, NoLibrary, ReadOnlyLibrary
from ingest.ids import doc_id_for
from ingest.local import maintenance, queries, reindex, schema, store, vectors
from ingest.local.folder import not_writable_as_error
from ingest.local.library_reads import LibraryReads
from ingest.local.loaded_index import LoadedIndex
from ingest.prepare import embed_chunks, prepare_pdf, skipped
from ingest.types import (
    Chunk,
    Document,
    IngestProgress,
    IngestResult,
    LibrarySettings,
    Page,
    ProgressFn,
)

LOCK_TIMEOUT_S = 600.0


class Library(LibraryReads):
    """A folder of PDFs made searchable; safe across threads and processes."""

    def __init__(
        self,
        data_dir: Path,
        embeddings: Embeddings,
        config: LibrarySettings,
        *,
        read_only: bool = False,
        lock_timeout: float = LOCK_TIMEOUT_S,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.read_only = read_only
        self.lock_timeout = lock_timeout
        self.embeddings = embeddings
        self.config = config
        self.db_path = self.data_dir / "library.sqlite3"
        self.index_path = self.data_dir / "index.faiss"
        self.files_dir = self.data_dir / "files"
        self.open_report: list[str] = []  # what open() found and fixed, for the UI and CLI
        self.missing_vectors = 0  # chunks without vectors, left for a repair (repair=False, or a reader)
        self._loaded = LoadedIndex(self.index_path)
        self._file_lock = FileLock(self.data_dir / ".lock", timeout=LOCK_TIMEOUT_S)

    @classmethod
    def open(
        cls,
        data_dir: Path,
        embeddings: Embeddings,
        *,
        config: LibrarySettings | None = None,
        lock_timeout: float = LOCK_TIMEOUT_S,
        repair: bool = True,
        **fields: Any,
    ) -> Library:
        """Open (or create) a library for writing with ``config`` (or its fields as keywords:
        embedding_name, chunk_size, ..., see LibrarySettings.of); IndexMismatch when it was built
        with other settings, LibraryDamaged when its database is lost, LibraryBusy when the lock
        stays taken. Without ``repair``, chunks whose vectors are missing are reported, not
        re-embedded; with the config's ``ocr`` enabled, pages without a usable text layer are read
        by OCR."""
        config = LibrarySettings.of(config, **fields)
        library = cls(data_dir, embeddings, config, lock_timeout=lock_timeout)
        library._start(verify_settings=True, repair=repair)
        return library

    @classmethod
    def open_reader(
        cls, data_dir: Path, embeddings: Embeddings, *, config: LibrarySettings | None = None, **fields: Any
    ) -> Library:
        """Open an existing library read-only, without the lock; NoLibrary when there is none.
        Only the config's recorded settings count here: a reader never ingests."""
        library = cls(data_dir, embeddings, LibrarySettings.of(config, **fields), read_only=True)
        if not maintenance.diagnose(library, thorough=False):
            raise NoLibrary(str(library.data_dir))
        with store.connect(library.db_path, read_only=True) as conn:
            schema.require_current(conn, store.SCHEMA_VERSION, library.db_path)
            library._verify_settings(conn, None)
            generation = store.generation(conn)
            library.open_report, index, library.missing_vectors = maintenance.survey(library, conn)
        if index is not None:
            library.use_index(index, generation)
        return library

    @classmethod
    def rebuild(
        cls,
        data_dir: Path,
        embeddings: Embeddings,
        *,
        config: LibrarySettings | None = None,
        progress: ProgressFn | None = None,
        lock_timeout: float = LOCK_TIMEOUT_S,
        **fields: Any,
    ) -> Library:
        """Re-chunk and re-embed every document with ``config`` (the way out of IndexMismatch)."""
        library = cls(data_dir, embeddings, LibrarySettings.of(config, **fields), lock_timeout=lock_timeout)
        library._start(verify_settings=False)
        library.reindex_all(progress)
        return library

    # -- writing -----------------------------------------------------------------------------

    def add_pdf(
        self, data: bytes, file_name: str, *, password: str | None = None, progress: ProgressFn | None = None
    ) -> IngestResult:
        """Read, chunk, embed and store one PDF; the same bytes again are skipped."""
        report = progress or (lambda _: None)
        doc_id = doc_id_for(data)
        existing = self.document(doc_id)
        if existing is not None:
            return skipped(existing)
        prepared = prepare_pdf(self.config, self._embed, data, file_name, password, report)
        doc = prepared.doc
        with self._write_lock(), store.connect(self.db_path) as conn:
            found = queries.document(conn, doc_id)
            if found is not None and found[1] in store.LISTED:  # stored, or a job is adding it
                return skipped(found[0])
            self._verify_settings(conn, prepared.matrix.shape[1])
            self._commit_new(
                conn, doc, prepared.pages, prepared.chunks, prepared.matrix, prepared.pdf, report
            )
        return IngestResult("ok", doc, doc.chunks, doc.warnings)

    def embed_chunks(self, file_name: str, chunks: Sequence[Chunk], report: ProgressFn) -> np.ndarray:
        """The chunks' vectors (context and text, as stored), reporting embed progress."""
        return embed_chunks(self._embed, file_name, chunks, report)

    def delete(self, doc_id: str) -> bool:
        """Remove a document's rows, vectors and file; False when it was not there."""
        with self._write_lock(), store.connect(self.db_path) as conn:
            if queries.document(conn, doc_id) is None:
                return False
            with store.transaction(conn):
                vec_ids = store.delete_document(conn, doc_id)
            index = self._loaded.from_disk(conn)
            vectors.remove_vectors(index, vec_ids)
            self.save_index(conn, index)
            (self.files_dir / f"{doc_id}.pdf").unlink(missing_ok=True)
        return True

    def set_sections(self, doc_id: str, pages: Sequence[Page], chunks: dict[str, tuple[str, ...]]) -> bool:
        """Record a stored document's sections (its pages' and its chunks' by id: ingest.backfill);
        nothing else changes, vectors and the generation included. False when it is gone."""
        with self._write_lock(), store.connect(self.db_path) as conn:
            if queries.document(conn, doc_id) is None:
                return False
            with store.transaction(conn):
                store.set_sections(conn, doc_id, pages, chunks)
        return True

    def reindex_all(self, progress: ProgressFn | None = None) -> int:
        """Re-chunk every document from its stored pages and re-embed it; returns the chunk count."""
        with self._write_lock():
            return reindex.reindex_all(self, progress or (lambda _: None))

    def check(self, progress: ProgressFn | None = None) -> list[str]:
        """Reconcile vectors with chunk rows (re-embedding missing ones) and files with documents;
        returns what was done."""
        report = progress or (lambda _: None)
        with self._write_lock():
            return maintenance.check(
                self, report=lambda d, t: report(IngestProgress("repair", "embed", d, t))
            )

    # -- internals ---------------------------------------------------------------------------

    def _start(self, *, verify_settings: bool, repair: bool = True) -> None:
        with not_writable_as_error(self.data_dir):
            self.data_dir.mkdir(parents=True, exist_ok=True)
        with self._write_lock():
            maintenance.diagnose(self, thorough=True)  # before anything is created or removed
            with not_writable_as_error(self.data_dir):
                self.files_dir.mkdir(exist_ok=True)
            with store.connect(self.db_path) as conn:
                store.create_schema(conn, self.db_path)
                self.open_report = reindex.finish_interrupted(self, conn) + maintenance.recover(self, conn)
                if verify_settings:  # otherwise a re-index follows, which rebuilds every vector
                    self._verify_settings(conn, None)
                    self.open_report += maintenance.check(self, re_embed=repair)

    @contextmanager
    def _write_lock(self) -> Iterator[None]:
        """The folder's lock; LibraryBusy after ``lock_timeout`` seconds, ReadOnlyLibrary for readers."""
        if self.read_only:
            raise ReadOnlyLibrary(str(self.data_dir))
        # One FileLock per Library: re-entrant within a thread, exclusive across threads and processes.
        try:
            with not_writable_as_error(self.data_dir):  # the lock file is the first write
                self._file_lock.acquire(timeout=self.lock_timeout)
        except Timeout as exc:
            raise LibraryBusy(str(self.data_dir)) from exc
        try:
            yield
        finally:
            self._file_lock.release()

    def _verify_settings(self, conn, dim: int | None) -> None:
        """Refuse to mix settings; an empty library simply takes the current ones."""
        store.verify_settings(
            conn, self.config.recorded(), dim, where=str(self.data_dir), read_only=self.read_only
        )

    def _embed(self, label: str, texts: list[str], report: Callable[[int, int], None]) -> np.ndarray:
        return vectors.embed_in_batches(self.embeddings, texts, self.config.batch_size, label, report)

    def _commit_new(
        self,
        conn,
        doc: Document,
        pages: list[Page],
        chunks: list[Chunk],
        matrix: np.ndarray,
        data: bytes,
        report: Callable[[IngestProgress], None],
    ) -> None:
        maintenance.write_file(self.files_dir / f"{doc.doc_id}.pdf", data)
        with store.transaction(conn):
            store.delete_document(conn, doc.doc_id)  # a stale half-done row from a crash, if any
            store.insert_document(conn, doc, pages, store.INGESTING)
            vec_ids = store.take_vec_ids(conn, len(chunks))
            store.insert_chunks(conn, chunks, vec_ids)
        report(IngestProgress(doc.file_name, "index", 0, len(chunks)))
        index = self._loaded.from_disk(conn, dim=matrix.shape[1])
        vectors.add_vectors(index, matrix, vec_ids)
        self.save_index(conn, index, ready=doc.doc_id)
        report(IngestProgress(doc.file_name, "index", len(chunks), len(chunks)))

    # -- for the repair code (ingest.local.maintenance), which runs under the write lock -------------

    def save_index(self, conn, index: faiss.Index, ready: str | None = None) -> None:
        """Replace the index file, then (mark ``ready`` and) bump the generation so others reload."""
        vectors.save_index(index, self.index_path)
        with store.transaction(conn):
            if ready is not None:
                store.set_status(conn, ready, store.READY)
            generation = store.bump_generation(conn)
        self.use_index(index, generation)

    def use_index(self, index: faiss.Index, generation: int) -> None:
        """Search ``index`` from now on: the one just written to disk as of ``generation``."""
        self._loaded.use(index, generation)
