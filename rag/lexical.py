"""Lexical matching: BM25 over a library's chunks with rag.text's tokenizer (Snowball stems, the
stopwords every caller shares), an index that is rebuilt whenever the library's generation changes
and saved with the library (rag/lexical_store.py) so that reopening it does not rebuild it."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import bm25s
import numpy as np

from ingest.context import indexed_text
from ingest.types import Chunk
from rag import lexical_store
from rag.text import SOFT_HYPHEN, STOPWORDS, stem, tokenize

logger = logging.getLogger(__name__)
__all__ = ["SOFT_HYPHEN", "STOPWORDS", "LexicalCache", "LexicalIndex", "stem", "tokenize"]


class LexicalIndex:
    """BM25 over every chunk of a library, for one library generation."""

    def __init__(
        self, chunks: Sequence[Chunk], generation: Any = None, bm25: bm25s.BM25 | None = None
    ) -> None:
        self.generation = generation
        self.chunks = list(chunks)
        self.saved = bm25 is not None  # True when read from the library's saved index, not built
        self._bm25 = bm25 if bm25 is not None else build_bm25(self.chunks)

    @classmethod
    def for_library(cls, library: Any) -> LexicalIndex:
        """The index of library's current generation: its saved copy when that matches the chunks,
        else built (and saved when the library has a writable data_dir)."""
        generation = library.generation
        chunks = library.chunks()
        data_dir = getattr(library, "data_dir", None)
        if data_dir is None or not chunks:
            return cls(chunks, generation)
        bm25 = lexical_store.load(Path(data_dir), generation, chunks)
        if bm25 is not None:
            return cls(chunks, generation, bm25)
        index = cls(chunks, generation)
        lexical_store.save(Path(data_dir), generation, index.chunks, index._bm25)
        return index

    def search(
        self, query: str, k: int, doc_ids: Iterable[str] | None = None
    ) -> list[tuple[Chunk, float]]:
        """The k best chunks by BM25 (positive scores only), optionally only from doc_ids."""
        terms = tokenize(query)
        if not self.chunks or not terms:
            return []
        scores = np.asarray(self._bm25.get_scores(terms), dtype=float)
        if doc_ids is not None:
            wanted = set(doc_ids)
            mask = np.fromiter((c.doc_id in wanted for c in self.chunks), bool, len(self.chunks))
            scores = np.where(mask, scores, 0.0)
        order = np.argsort(-scores, kind="stable")[:k]
        return [(self.chunks[i], float(scores[i])) for i in order if scores[i] > 0]


def build_bm25(chunks: Sequence[Chunk]) -> bm25s.BM25:
    """A BM25 index over the chunks' indexed text (context + text), in the chunks' order."""
    bm25 = bm25s.BM25()
    if chunks:
        bm25.index([tokenize(indexed_text(c.context, c.text)) for c in chunks], show_progress=False)
    return bm25


class LexicalCache:
    """Holds one LexicalIndex per library, rebuilt when library.generation changes (deletes too)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._index: LexicalIndex | None = None
        self._owner: Any = None
        self._warming: threading.Thread | None = None

    def warm(self, library: Any) -> threading.Thread | None:
        """Build the index for library's current generation in a background thread, unless it is
        built or being built; a question asked meanwhile waits only for the rest of the build.
        (At 100,000 chunks the build takes seconds: better paid while the user is still typing.)"""
        generation = library.generation
        with self._lock:
            index = self._index
            if self._warming is not None and self._warming.is_alive():
                return None
            if index is not None and self._owner is library and index.generation == generation:
                return None
            self._warming = thread = threading.Thread(
                target=self._warm, args=(library,), name="bm25-warm-up", daemon=True
            )
        thread.start()
        return thread

    def _warm(self, library: Any) -> None:
        try:
            self.get(library)
        except Exception:  # noqa: BLE001 - a failed warm-up only means the question builds it
            logger.warning("warming the BM25 index failed; the next question builds it", exc_info=True)

    def get(self, library: Any) -> LexicalIndex:
        """The index for library's current generation, built if needed."""
        generation = library.generation
        with self._lock:
            index = self._index
            if index is None or self._owner is not library or index.generation != generation:
                index = LexicalIndex.for_library(library)
                self._index, self._owner = index, library
            return index
