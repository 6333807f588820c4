"""The FAISS index a local library searches: a fresh copy from disk for writers, the copy in
memory for searches (reloaded when another process bumped the generation), and dense search
mapped to the chunk rows of ready documents."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import faiss
import numpy as np

from ingest.local import queries, store, vectors
from ingest.types import Chunk


class LoadedIndex:
    """The index in memory and the generation it is current as of; safe across threads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._mutex = threading.RLock()
        self._index: faiss.Index | None = None
        self._generation = -1

    def from_disk(self, conn, dim: int | None = None) -> faiss.Index:
        """A fresh copy of the index on disk (never the one readers are using)."""
        index = vectors.load_index(self.path)
        if index is not None and dim is not None and index.d != dim and index.ntotal == 0:
            index = None  # emptied, then reopened with a model of another dimension
        if index is None:
            meta_dim = store.read_meta(conn).get("dim")
            index = vectors.new_index(dim or int(meta_dim or 384))
        return index

    def current(self, conn) -> faiss.Index:
        """The in-memory index, reloaded when another writer changed the library."""
        generation = store.generation(conn)
        with self._mutex:
            if self._index is None or generation != self._generation:
                self._index = self.from_disk(conn)
                self._generation = generation
            return self._index

    def use(self, index: faiss.Index, generation: int) -> None:
        """Search ``index`` from now on: the one just written to disk as of ``generation``."""
        with self._mutex:
            self._index, self._generation = index, generation


def search_ready(
    conn, index: faiss.Index, query: np.ndarray, k: int, doc_ids: Sequence[str] | None
) -> list[tuple[Chunk, float]]:
    """The k ready chunks closest to a query row (cosine), optionally within documents."""
    allowed = None
    if doc_ids is not None:
        allowed = queries.ready_vec_ids(conn, doc_ids)
    # Vectors of half-written or just-deleted documents have no ready row: ask for more.
    want = k
    while True:
        hits = vectors.search(index, query, want, allowed)
        rows = dict(queries.chunks_where(conn, "vec_id", [v for v, _ in hits]))
        found = [(rows[v], s) for v, s in hits if v in rows]
        if len(found) >= k or want >= index.ntotal or len(hits) < want:
            return found[:k]
        want = min(index.ntotal, want * 2 + 16)
