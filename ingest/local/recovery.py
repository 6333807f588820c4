"""Rebuilding a lost library database from what is left: the stored PDFs and the vector index.

``recover`` is the way out of LibraryDamaged (``python -m cli.ingest recover``). Under the write
lock it sets the old database aside as ``library.sqlite3.damaged-<timestamp>`` (never deleted),
reads every ``files/<doc_id>.pdf`` again, re-chunks it with the current settings, reuses a
vector from ``index.faiss`` when what can still be read of the old database ties it to the
same chunk id and embedding model, and embeds the rest. The new database is written to a
temporary file and renamed into place last, so a crash midway leaves "no database" again (and
the next ``recover`` reads the same set-aside file). Original file names survive only when the
old database still gives them; otherwise a document is named ``<doc_id>.pdf`` and shown by its
PDF title. PDFs that cannot be read are moved to ``unrecovered/``, not deleted.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from ingest.errors import IngestError, LibraryDamaged, LibraryError
from ingest.local import maintenance, store, vectors
from ingest.local.folder import not_writable_as_error
from ingest.local.library import IngestProgress, Library, ProgressFn
from ingest.local.reindex import PLAN_FILE
from ingest.pdf.chunking import chunk_pages
from ingest.pdf.context import indexed_text
from ingest.pdf.reader import read_pdf
from ingest.types import Chunk, Document, Page

DOC_FILE = re.compile(r"^[0-9a-f]{64}\.pdf$")


@dataclass(frozen=True)
class RecoveryReport:
    """What ``recover`` rebuilt: document titles, chunk counts, and what could not be saved."""

    documents: tuple[str, ...]
    chunks: int
    reused: int
    embedded: int
    renamed: int  # documents whose original file name was lost
    unreadable: tuple[str, ...] = field(default=())
    kept_as: str | None = None

    def lines(self) -> list[str]:
        """The report, one sentence a line."""
        out = [
            (
                f"Recovered {len(self.documents)} documents ({self.chunks} chunks: {self.reused} vectors "
                f"reused from index.faiss, {self.embedded} embedded again)."
            )
        ]
        if self.kept_as:
            out.append(f"The damaged database is kept as {self.kept_as}.")
        if self.renamed:
            out.append(
                f"{self.renamed} original file names were lost with the database: those documents "
                "are named <doc_id>.pdf and shown by their PDF title."
            )
        out += [f"Could not read {name}; it was moved to unrecovered/." for name in self.unreadable]
        return out


@dataclass(frozen=True)
class _Salvage:
    """What can still be read from the old database (each part may be empty)."""

    meta: dict[str, str]
    names: dict[str, tuple[str, str]]  # doc_id -> (file name, added at)
    vec_ids: dict[str, int]  # chunk_id -> vector id in the old index


def recover(library: Library, progress: ProgressFn | None = None) -> RecoveryReport:
    """Rebuild ``library``'s database from its stored PDFs (see the module docstring)."""
    report = progress or (lambda _: None)
    with not_writable_as_error(library.data_dir):
        library.data_dir.mkdir(parents=True, exist_ok=True)
    with library._write_lock():
        try:
            exists = maintenance.diagnose(library, thorough=True)
        except LibraryDamaged:
            pass
        else:
            state = "is readable" if exists else "holds no library"
            raise LibraryError(
                str(library.data_dir),
                f"{library.data_dir} {state}: nothing to recover "
                "(`python -m cli.ingest --check` repairs a readable library)",
            )
        # A re-index plan speaks of the database being replaced: never finish it on the new one.
        (library.data_dir / PLAN_FILE).unlink(missing_ok=True)
        kept = _set_aside(library.db_path)
        source = kept or _newest_damaged(library.db_path)
        salvage = _salvage(library.data_dir / source if source else None)
        docs, unreadable = _read_all(library, salvage, report)
        return _write(library, docs, salvage, unreadable, kept, report)


def _set_aside(db: Path) -> str | None:
    """Rename the database and its WAL companions to ``<name>.damaged-<timestamp>``."""
    if not db.exists():
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target, n = db.with_name(f"{db.name}.damaged-{stamp}"), 1
    while target.exists():  # never replace an earlier set-aside file
        target, n = db.with_name(f"{db.name}.damaged-{stamp}-{n}"), n + 1
    for suffix in ("-wal", "-shm"):
        companion = db.with_name(db.name + suffix)
        if companion.exists():
            os.replace(companion, target.with_name(target.name + suffix))
    os.replace(db, target)
    vectors.fsync_dir(db.parent)
    return target.name


def _newest_damaged(db: Path) -> str | None:
    found = sorted(
        p.name for p in db.parent.glob(f"{db.name}.damaged-*") if not p.name.endswith(("-wal", "-shm"))
    )
    return found[-1] if found else None


def _salvage(path: Path | None) -> _Salvage:
    """Every part of the old database that still reads; unreadable parts stay empty."""
    parts: list[list[tuple]] = []
    for sql in (
        "SELECT key, value FROM meta",
        "SELECT doc_id, file_name, added_at FROM documents",
        "SELECT chunk_id, vec_id FROM chunks",
    ):
        rows: list[tuple] = []
        if path is not None:
            try:  # its -wal was set aside under the matching name, so committed rows there count
                conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
                try:
                    rows = conn.execute(sql).fetchall()
                finally:
                    conn.close()
            except sqlite3.DatabaseError:
                rows = []
        parts.append(rows)
    meta, names, ids = parts
    return _Salvage(
        {str(k): str(v) for k, v in meta}, {r[0]: (r[1], r[2]) for r in names}, {c: int(v) for c, v in ids}
    )


def _read_all(
    library: Library, salvage: _Salvage, report
) -> tuple[list[tuple[Document, list[Page]]], list[str]]:
    """Read every stored PDF again; unreadable ones are moved to ``unrecovered/``."""
    paths = sorted(p for p in library.files_dir.glob("*.pdf") if DOC_FILE.match(p.name))
    docs, unreadable = [], []
    for n, path in enumerate(paths):
        doc_id = path.stem
        name, added = salvage.names.get(doc_id, (f"{doc_id}.pdf", ""))
        report(IngestProgress(name, "read", n, len(paths)))
        data = path.read_bytes()
        try:
            read = read_pdf(data, name, ocr=library.config.ocr)  # scanned pages are read again
        except IngestError:
            unreadable.append(path.name)
            (library.data_dir / "unrecovered").mkdir(exist_ok=True)
            os.replace(path, library.data_dir / "unrecovered" / path.name)
            continue
        added = added or datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="seconds")
        docs.append(
            (
                Document(doc_id, read.title, name, len(read.pages), len(data), 0, added, read.warnings),
                read.pages,
            )
        )
    return docs, unreadable


def _write(
    library: Library,
    docs: list[tuple[Document, list[Page]]],
    salvage: _Salvage,
    unreadable: list[str],
    kept: str | None,
    report,
) -> RecoveryReport:
    """Chunk, find or make the vectors, then write the index and the database (renamed in last)."""
    config = library.config
    chunked = [
        (doc, pages, chunk_pages(doc.doc_id, pages, config.chunk_size, config.chunk_overlap))
        for doc, pages in docs
    ]
    chunks = [c for _, _, cs in chunked for c in cs]
    reused, vec_ids = _reusable(library, salvage, chunks)
    todo = [i for i in range(len(chunks)) if i not in reused]
    fresh = library._embed(
        "recovery",
        [indexed_text(chunks[i].context, chunks[i].text) for i in todo],
        lambda d, t: report(IngestProgress("recovery", "embed", d, t)),
    )
    if todo:
        dim = fresh.shape[1]
    else:
        dim = (
            len(next(iter(reused.values())))
            if reused
            else len(library.embeddings.embed_query("dimension probe"))
        )
    matrix = np.zeros((len(chunks), dim), dtype=np.float32)
    for i, vec in reused.items():
        matrix[i] = vec
    if todo:
        matrix[todo] = fresh
    tmp = library.db_path.with_name(library.db_path.name + ".recovering")
    for suffix in ("", "-wal", "-shm"):
        tmp.with_name(tmp.name + suffix).unlink(missing_ok=True)
    with store.connect(tmp) as conn:
        _insert(conn, tmp, config, chunked, vec_ids, dim)
    index = vectors.new_index(dim)
    vectors.add_vectors(index, vectors.as_matrix(matrix), vec_ids)
    vectors.save_index(index, library.index_path)
    os.replace(tmp, library.db_path)
    vectors.fsync_dir(library.data_dir)
    report(IngestProgress("recovery", "index", len(chunks), len(chunks)))
    renamed = sum(doc.doc_id not in salvage.names for doc, _ in docs)
    return RecoveryReport(
        tuple(d.title for d, _ in docs), len(chunks), len(reused), len(todo), renamed, tuple(unreadable), kept
    )


def _reusable(
    library: Library, salvage: _Salvage, chunks: list[Chunk]
) -> tuple[dict[int, np.ndarray], list[int]]:
    """Old vectors of chunks the old database ties to the same chunk id and embedding model, and
    every chunk's vector id: a reused vector keeps its old id, the others get ids above every id
    the old rows or the index know, so an id can never point at another chunk's vector (not even
    after a recovery killed between saving the index and renaming the database in)."""
    index = vectors.load_index(library.index_path)
    have = set(vectors.index_ids(index).tolist()) if index is not None else set()
    same_model = salvage.meta.get("embedding_name") == library.config.embedding_name
    found: dict[int, np.ndarray] = {}
    ids: list[int] = []
    fresh = max(
        [
            int(salvage.meta.get("next_vec_id", 1)),
            *(v + 1 for v in salvage.vec_ids.values()),
            *(v + 1 for v in have),
        ]
    )
    for i, chunk in enumerate(chunks):
        vec_id = salvage.vec_ids.get(chunk.chunk_id)
        if same_model and vec_id is not None and vec_id in have:
            found[i] = index.reconstruct(vec_id)
            ids.append(vec_id)
        else:
            ids.append(fresh)
            fresh += 1
    return found, ids


def _insert(conn, path: Path, config, chunked, vec_ids: list[int], dim: int) -> None:
    store.create_schema(conn, path)
    with store.transaction(conn):
        for doc, pages, doc_chunks in chunked:
            store.insert_document(conn, replace(doc, chunks=len(doc_chunks)), pages, store.READY)
        store.insert_chunks(conn, [c for _, _, cs in chunked for c in cs], vec_ids)
        # A generation no process can still hold in memory from the lost database.
        store.write_meta(
            conn,
            {
                "embedding_name": config.embedding_name,
                "chunk_size": config.chunk_size,
                "chunk_overlap": config.chunk_overlap,
                "dim": dim,
                "generation": time.time_ns(),
                "next_vec_id": max(vec_ids, default=0) + 1,
            },
        )
