"""Re-indexing a local library, and finishing one that was killed after it saved its vectors.

A re-index writes its new rows in one SQLite transaction and replaces ``index.faiss`` just before
the COMMIT. Just before that replacement it writes ``reindex.json``: the settings, the vector ids
it took and digests of its chunk ids and of the new index file. A crash between the replacement
and the COMMIT leaves the old rows with the new vectors; the next writer to open the library
re-derives the same chunks from the stored pages and, when they and the index are exactly what the
plan says, commits them: the saved vectors are used, none is re-embedded. Anything else (the plan
is stale, the index was changed since, a different chunker) discards the plan, and the usual
check repairs the library by re-embedding.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from ingest.local import queries, store, vectors
from ingest.local.maintenance import Repairable
from ingest.pdf.chunking import chunk_pages
from ingest.pdf.context import indexed_text
from ingest.types import Chunk, IngestProgress

log = logging.getLogger(__name__)

PLAN_FILE = "reindex.json"


@dataclass(frozen=True)
class ReindexPlan:
    """What a re-index is about to commit: enough to finish it from the saved index alone."""

    embedding_name: str
    chunk_size: int
    chunk_overlap: int
    dim: int
    first_vec_id: int
    count: int
    chunk_ids_sha256: str  # of the chunk ids in vector-id order: the same chunker, the same pages
    index_sha256: str = ""  # of the index file that replaces the old one


def reindex_all(library: Repairable, report: Callable[[IngestProgress], None]) -> int:
    """Re-chunk every document from its stored pages with the library's settings and re-embed it."""
    config = library.config
    with store.connect(library.db_path) as conn:
        chunks = chunk_library(conn, config.chunk_size, config.chunk_overlap)
        report(IngestProgress("all documents", "chunk", len(chunks), len(chunks)))
        matrix = vectors.embed_in_batches(  # before any write: a failure leaves the library as it was
            library.embeddings,
            [indexed_text(c.context, c.text) for c in chunks],
            config.batch_size,
            "re-index of all documents",
            lambda d, t: report(IngestProgress("all documents", "embed", d, t)),
        )
        dim = matrix.shape[1] if chunks else len(library.embeddings.embed_query("dimension probe"))
        index = vectors.new_index(dim)
        with store.transaction(conn):
            plan = ReindexPlan(
                config.embedding_name,
                config.chunk_size,
                config.chunk_overlap,
                dim,
                int(store.read_meta(conn).get("next_vec_id") or 1),
                len(chunks),
                _ids_digest(chunks),
            )
            vectors.add_vectors(index, matrix, write_rows(conn, chunks, plan))
            vectors.save_index(
                index,
                library.index_path,
                before_replace=lambda sha: _write_plan(library.data_dir, replace(plan, index_sha256=sha)),
            )
            generation = store.bump_generation(conn)
        (library.data_dir / PLAN_FILE).unlink(missing_ok=True)  # committed: nothing left to finish
        report(IngestProgress("all documents", "index", len(chunks), len(chunks)))
    library.use_index(index, generation)
    return len(chunks)


def finish_interrupted(library: Repairable, conn) -> list[str]:
    """Commit the rows of a re-index killed after it saved its index, when the plan it left, the
    stored pages and the index file agree exactly; returns what was done. The plan is then gone."""
    path = library.data_dir / PLAN_FILE
    plan = _read_plan(path)
    if plan is None:
        path.unlink(missing_ok=True)
        return []
    try:
        if int(store.read_meta(conn).get("next_vec_id") or 1) != plan.first_vec_id:
            return []  # it committed (or something else wrote since): the plan is stale
        if _file_digest(library.index_path) != plan.index_sha256:
            return []  # not the index it saved
        chunks = chunk_library(conn, plan.chunk_size, plan.chunk_overlap)
        index = vectors.load_index(library.index_path)
        wanted = set(range(plan.first_vec_id, plan.first_vec_id + plan.count))
        if _ids_digest(chunks) != plan.chunk_ids_sha256 or index is None:
            return []
        if set(vectors.index_ids(index).tolist()) != wanted:
            return []
        with store.transaction(conn):
            write_rows(conn, chunks, plan)
            generation = store.bump_generation(conn)
        library.use_index(index, generation)
    finally:
        path.unlink(missing_ok=True)
        path.with_name(path.name + ".tmp").unlink(missing_ok=True)
    done = (
        f"Finished a re-index that was interrupted after it saved its vectors ({plan.count} chunks, "
        "none re-embedded)."
    )
    log.warning(done)
    return [done]


def chunk_library(conn, chunk_size: int, chunk_overlap: int) -> list[Chunk]:
    """Every ready document's chunks, from its stored pages, in the order vector ids are given."""
    chunks: list[Chunk] = []
    for doc in queries.documents(conn):
        chunks += chunk_pages(doc.doc_id, queries.pages(conn, doc.doc_id), chunk_size, chunk_overlap)
    return chunks


def write_rows(conn, chunks: Sequence[Chunk], plan: ReindexPlan) -> list[int]:
    """Replace every chunk row and record the plan's settings (inside a transaction); the vector ids."""
    conn.execute("DELETE FROM chunks")
    vec_ids = store.take_vec_ids(conn, len(chunks))
    store.insert_chunks(conn, chunks, vec_ids)
    conn.execute(
        "UPDATE documents SET chunks = (SELECT COUNT(*) FROM chunks c WHERE c.doc_id = documents.doc_id)"
    )
    # Every chunk is embedded now, those of documents a job was embedding too: that job then finds
    # its document ready and ends (ingest/local/jobs.py).
    conn.execute("UPDATE documents SET status = ? WHERE status = ?", (store.READY, store.EMBEDDING))
    store.write_meta(
        conn,
        {
            "embedding_name": plan.embedding_name,
            "chunk_size": plan.chunk_size,
            "chunk_overlap": plan.chunk_overlap,
            "dim": plan.dim,
        },
    )
    return vec_ids


def _ids_digest(chunks: Sequence[Chunk]) -> str:
    return hashlib.sha256("\n".join(c.chunk_id for c in chunks).encode()).hexdigest()


def _file_digest(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


def _write_plan(data_dir: Path, plan: ReindexPlan) -> None:
    path = data_dir / PLAN_FILE
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(asdict(plan)), encoding="utf-8")
    with open(tmp, "rb+") as handle:
        vectors.fsync_file(handle)
    tmp.replace(path)
    vectors.fsync_dir(data_dir)


def _read_plan(path: Path) -> ReindexPlan | None:
    try:
        return ReindexPlan(**json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError):  # cut short or from another version: not trusted
        log.warning("%s is unreadable; ignored", path)
        return None
