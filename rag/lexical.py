"""Lexical matching: BM25 over a library's chunks with rag.text's tokenizer (Snowball stems, the
stopwords every caller shares), an index that is rebuilt whenever the library's generation changes."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import bm25s
import numpy as np

from ingest.context import indexed_text
from ingest.types import Chunk
from rag.text import SOFT_HYPHEN, STOPWORDS, stem, tokenize

logger = logging.getLogger(__name__)
__all__ = ["SOFT_HYPHEN", "STOPWORDS", "LexicalCache", "LexicalIndex", "stem", "tokenize"]


class LexicalIndex:
    """BM25 over every chunk of a library, for one library generation."""

    def __init__(self, chunks: Sequence[Chunk], generation: Any = None) -> None:
        self.generation = generation
        self.chunks = list(chunks)
        self._bm25 = bm25s.BM25()
        if self.chunks:
            self._bm25.index([tokenize(indexed_text(c.context, c.text)) for c in self.chunks], show_progress=False)

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
                index = LexicalIndex(library.chunks(), generation)
                self._index, self._owner = index, library
            return index
