"""Keeping a library whole: recovery after a crash and the consistency check (re-indexing, and
finishing an interrupted re-index, are ``ingest.local.reindex``'s).

Every function here runs under the library's write lock (the ``Library`` methods take it),
except ``diagnose`` and ``survey``, which only read. What they need of a library is ``Repairable``. The check deletes only what a readable,
consistent database says is garbage: ``diagnose`` runs first and stops at a lost database.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

import faiss
import numpy as np
from langchain_core.embeddings import Embeddings

from ingest.errors import LibraryDamaged
from ingest.local import queries, store, vectors
from ingest.pdf.context import indexed_text
from ingest.types import LibrarySettings

log = logging.getLogger(__name__)


class Repairable(Protocol):
    """What the repair code reads and calls on a library (ingest.local.library.Library)."""

    data_dir: Path
    db_path: Path
    index_path: Path
    files_dir: Path
    config: LibrarySettings
    embeddings: Embeddings
    missing_vectors: int

    def save_index(self, conn, index: faiss.Index, ready: str | None = None) -> None:
        """Replace the index file, bump the generation and search the new index."""

    def use_index(self, index: faiss.Index, generation: int) -> None:
        """Search an index already written to disk as of ``generation``."""


def write_file(path: Path, data: bytes) -> None:
    """Write bytes atomically (temporary file, fsync, rename); content-addressed, so skip if present."""
    if path.exists() and path.stat().st_size == len(data):
        return
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    vectors.fsync_dir(path.parent)


def recover(library: Repairable, conn) -> list[str]:
    """Remove documents an interrupted ingest left half-written; returns what was removed."""
    half_done = queries.documents(conn, status=store.INGESTING)
    if not half_done:
        return []
    removed: list[int] = []
    with store.transaction(conn):
        for doc in half_done:
            removed += store.delete_document(conn, doc.doc_id)
    index = vectors.load_index(library.index_path)
    if index is not None and vectors.remove_vectors(index, removed):
        library.save_index(conn, index)
    for doc in half_done:
        (library.files_dir / f"{doc.doc_id}.pdf").unlink(missing_ok=True)
    messages = [
        f"Removed {doc.file_name}: an earlier ingest was interrupted; add it again." for doc in half_done
    ]
    for message in messages:
        log.warning(message)
    return messages


def diagnose(library: Repairable, *, thorough: bool) -> bool:
    """Whether a library database exists (False: a new, empty folder). LibraryDamaged, touching
    nothing, when the database is missing, empty, unreadable or lists nothing while stored PDFs
    or vectors remain; ``thorough`` adds SQLite's quick_check (a full read, for writers)."""
    db, where = library.db_path, str(library.data_dir)
    pdfs = len(list(library.files_dir.glob("*.pdf"))) if library.files_dir.is_dir() else 0
    remains = f"{pdfs} stored PDFs remain" if pdfs else "the vector index remains"
    left = pdfs or _has_vectors(library.index_path)
    if not db.exists() or db.stat().st_size == 0:
        if left:
            raise LibraryDamaged(where, f"{db} is {'missing' if not db.exists() else 'empty'} but {remains}")
        return False
    with store.connect(db, read_only=True) as conn:  # never writes to a file it is judging
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "documents" not in tables or "meta" not in tables:
            if left:
                raise LibraryDamaged(where, f"{db} holds no library tables but {remains}")
            return thorough  # a writer creates the tables; a reader finds no library
        if thorough and (result := conn.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
            detail = " ".join(result.replace("*** in database main ***", "").split())[:160]
            raise LibraryDamaged(where, f"{db} is damaged ({detail})")
        never_used = conn.execute("SELECT 1 FROM meta WHERE key = 'next_vec_id'").fetchone() is None
        # Every database this version creates has the counter from the start, so a missing one
        # means an empty database an older version made after the real one was lost; not a
        # first ingest whose PDF is written just before its rows.
        if never_used and left:
            raise LibraryDamaged(where, f"{db} lists no documents but {remains}")
    return True


def _has_vectors(path: Path) -> bool:
    index = vectors.load_index(path)
    return index is not None and index.ntotal > 0


def survey(library: Repairable, conn) -> tuple[list[str], object, int]:
    """What a writer would repair, said without repairing (for readers): the notes, the index
    loaded, and how many chunks have no vector."""
    notes = []
    half = queries.documents(conn, status=store.INGESTING)
    if half:
        notes.append(
            f"{len(half)} document(s) were left half-added by an interrupted ingest and are not searched."
        )
    index = vectors.load_index(library.index_path)
    rows = {  # chunks of documents a job is still embedding are on their way, not missing
        r[0]
        for r in conn.execute(
            "SELECT c.vec_id FROM chunks c JOIN documents d USING (doc_id) WHERE d.status = ?", (store.READY,)
        )
    }
    missing = len(rows - set(vectors.index_ids(index).tolist())) if index is not None else len(rows)
    if missing and index is None and library.index_path.exists():
        notes.append(
            f"{vectors.DAMAGED.capitalize()} ({library.index_path}), so answers are found by words only. "
            f"Repair: `python -m cli.ingest --check --data-dir {library.data_dir}` or the Library page."
        )
    elif missing:
        notes.append(
            f"{missing} of {len(rows)} chunks have no vectors (after an interrupted re-index?), so only "
            f"the rest are found by meaning. Repair: `python -m cli.ingest --check --data-dir {library.data_dir}`"
            " or the Library page."
        )
    return notes, index, missing


def check(
    library: Repairable, *, re_embed: bool = True, report: Callable[[int, int], None] | None = None
) -> list[str]:
    """Make vectors match chunk rows (repairing either way) and files match documents; without
    ``re_embed``, chunks whose vectors are missing are only reported (see ``missing_vectors``)."""
    diagnose(library, thorough=False)  # never delete on the word of a lost database
    with store.connect(library.db_path) as conn:
        actions = _check_vectors(library, conn, re_embed, report or (lambda d, t: None))
        actions += _check_files(library, conn)
    for action in actions:
        log.warning(action)
    return actions


def _check_vectors(
    library: Repairable, conn, re_embed: bool, report: Callable[[int, int], None]
) -> list[str]:
    row_ids = set(queries.all_vec_ids(conn))
    index = vectors.load_index(library.index_path)
    if index is None and not row_ids:
        return []
    actions = []
    if index is None:
        state = vectors.DAMAGED if library.index_path.exists() else "the vector index was missing"
        index = vectors.new_index(int(store.read_meta(conn).get("dim") or 384))
        actions.append(
            f"{state.capitalize()}; "
            + ("rebuilding it from the stored chunks." if re_embed else "a new, empty one was started.")
        )
    have = set(vectors.index_ids(index).tolist())
    extra, missing = sorted(have - row_ids), sorted(row_ids - have)
    if extra:
        vectors.remove_vectors(index, extra)
        actions.append(f"Removed {len(extra)} vectors that belonged to no chunk.")
    library.missing_vectors = 0 if re_embed else len(missing)
    if missing and not re_embed:
        actions.append(
            f"{len(missing)} chunks have no vectors, so only the rest are found by meaning; "
            "re-embed them with `python -m cli.ingest --check` or on the Library page."
        )
        missing = []
    if missing:
        found = dict(queries.chunks_where(conn, "vec_id", missing))
        texts = [indexed_text(found[v].context, found[v].text) for v in missing]
        matrix = _embed(library, "re-embedding chunks whose vectors were missing", texts, report)
        vectors.add_vectors(index, matrix, missing)
        actions.append(f"Re-embedded {len(missing)} chunks whose vectors were missing.")
    if extra or missing or not library.index_path.exists():
        library.save_index(conn, index)
    return actions


def _check_files(library: Repairable, conn) -> list[str]:
    known = {row[0] for row in conn.execute("SELECT doc_id FROM documents")}
    actions = []
    for path in library.files_dir.iterdir():
        if path.suffix == ".tmp" or path.stem not in known:
            path.unlink(missing_ok=True)
            if path.suffix != ".tmp":
                actions.append(f"Removed {path.name}, a PDF file that belonged to no document.")
    for doc in queries.documents(conn):
        if not (library.files_dir / f"{doc.doc_id}.pdf").exists():
            actions.append(
                f"The PDF of {doc.file_name} is missing, so its pages cannot be shown: delete it and add it again."
            )
    index_tmp = library.index_path.with_name(library.index_path.name + ".tmp")
    index_tmp.unlink(missing_ok=True)
    return actions


def _embed(
    library: Repairable, label: str, texts: list[str], report: Callable[[int, int], None]
) -> np.ndarray:
    return vectors.embed_in_batches(library.embeddings, texts, library.config.batch_size, label, report)
