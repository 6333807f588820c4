"""Lexical matching: BM25 over a library's chunks with rag.text's tokenizer (Snowball stems, the
stopwords every caller shares), an index that is rebuilt whenever the library's generation changes
and saved with the library (rag/retrieval/lexical_store.py) so that reopening it does not rebuild it."""

from __future__ import annotations

import gc
import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import bm25s
import numpy as np

from ingest.types import Chunk, LibraryReader
from rag.retrieval import lexical_store, lexical_terms
from rag.text import SOFT_HYPHEN, STOPWORDS, stem, tokenize

logger = logging.getLogger(__name__)
# bm25s sets its logger to DEBUG and gives it no handler, so each index build's "Building index from
# tokens" reached the root logger's handlers whatever their level: the command line printed it
# among its errors on stderr. Its notes are for its developers.
logging.getLogger("bm25s").setLevel(logging.WARNING)
__all__ = [
    "SOFT_HYPHEN",
    "STOPWORDS",
    "WORD",
    "LexicalCache",
    "LexicalIndex",
    "stem",
    "tokenize",
    "without_words",
    "without_written",
]

# A word of a text as the searches split it ("J&J", "year-end", "company's").
WORD = re.compile(r"[\w&'-]+")


def without_words(text: str, terms: Iterable[str]) -> str:
    """text without the words whose index term is one of terms (what is left to look for once
    the words that named a document have picked it); text itself when none would be left."""
    drop = set(terms)
    kept = [w for w in WORD.findall(text) if not (set(tokenize(w)) & drop)]
    return " ".join(kept) or text


def without_written(text: str, written: str) -> str:
    """text without the words written as one of written's words (case aside; "10-K" also as "10K"),
    not every word sharing their stem: "annual report" names a document, "reportable" does not;
    text itself when none would be left."""
    drop = {w.lower() for w in WORD.findall(written)}
    drop |= {w.replace("-", "") for w in drop}
    kept = [w for w in WORD.findall(text) if w.lower() not in drop]
    return " ".join(kept) or text


@dataclass(frozen=True)
class SavedRows:
    """The rows of a saved index, in its order: ids and documents now, full chunks read on demand."""

    ids: tuple[str, ...]
    doc_ids: tuple[str, ...]
    fetch: Callable[[Sequence[str]], dict[str, Chunk]]


class LexicalIndex:
    """BM25 over every chunk of a library, for one library generation."""

    def __init__(
        self,
        chunks: Sequence[Chunk],
        generation: Any = None,
        bm25: bm25s.BM25 | None = None,
        rows: SavedRows | None = None,
        saved: bool = False,
    ) -> None:
        self.generation = generation
        self.chunks = list(chunks)
        self.saved = saved  # True when read from the library's saved index, not built
        self._rows = rows
        self._doc_ids = rows.doc_ids if rows is not None else tuple(c.doc_id for c in self.chunks)
        self._bm25 = bm25 if bm25 is not None else build_bm25(self.chunks)

    @classmethod
    def for_library(cls, library: LibraryReader) -> LexicalIndex:
        """The index of library's current generation: its saved copy when that matches the chunks
        (whose rows are then read only for hits), else built (and saved when cache_dir is writable)."""
        generation = library.generation
        data_dir = library.cache_dir
        if data_dir is None:
            return cls(library.chunks(), generation)
        keys = library.chunk_keys()
        signed = [(chunk_id, context_len, text_len) for chunk_id, _, context_len, text_len in keys]
        bm25 = lexical_store.load(Path(data_dir), generation, signed) if keys else None
        if bm25 is not None:
            rows = SavedRows(tuple(k[0] for k in keys), tuple(k[1] for k in keys), library.chunks_by_id)
            return cls([], generation, bm25, rows, saved=True)
        # the texts only, their kept terms reused: a new generation tokenizes its new chunks
        words = library.chunk_words()
        ids = [w[0] for w in words]
        rows = SavedRows(tuple(ids), tuple(w[1] for w in words), library.chunks_by_id)
        index = cls([], generation, bm25_of(lexical_terms.terms_for(Path(data_dir), words)), rows)
        if ids and ids == [k[0] for k in keys]:  # no change in between
            lexical_store.save(Path(data_dir), generation, signed, index._bm25)
        return index

    def search(self, query: str, k: int, doc_ids: Iterable[str] | None = None) -> list[tuple[Chunk, float]]:
        """The k best chunks by BM25 (positive scores only), optionally only from doc_ids."""
        terms = tokenize(query)
        count = len(self._doc_ids)
        if not count or not terms:
            return []
        scores = np.asarray(self._bm25.get_scores(terms), dtype=float)
        if doc_ids is not None:
            wanted = set(doc_ids)
            mask = np.fromiter((d in wanted for d in self._doc_ids), bool, count)
            scores = np.where(mask, scores, 0.0)
        order = [int(i) for i in np.argsort(-scores, kind="stable")[:k] if scores[i] > 0]
        return [(c, float(scores[i])) for i, c in zip(order, self._chunks_at(order)) if c is not None]

    def scores(self, query: str, doc_ids: Iterable[str]) -> dict[str, float]:
        """Every positive BM25 score of the chunks of doc_ids, by chunk id (rag.retrieval.page_stage sums
        them per page); no chunk rows are read."""
        terms = tokenize(query)
        if not self._doc_ids or not terms:
            return {}
        wanted = set(doc_ids)
        scores = np.asarray(self._bm25.get_scores(terms), dtype=float)
        positions = [i for i, d in enumerate(self._doc_ids) if d in wanted and scores[i] > 0]
        ids = self._rows.ids if self._rows is not None else None
        return {(ids[i] if ids is not None else self.chunks[i].chunk_id): float(scores[i]) for i in positions}

    def _chunks_at(self, positions: Sequence[int]) -> list[Chunk | None]:
        """The chunks at these positions (None for one deleted since the index was saved)."""
        if self._rows is None:
            return [self.chunks[i] for i in positions]
        found = self._rows.fetch([self._rows.ids[i] for i in positions])
        return [found.get(self._rows.ids[i]) for i in positions]


def build_bm25(chunks: Sequence[Chunk]) -> bm25s.BM25:
    """A BM25 index over the chunks' indexed text (context + text), in the chunks' order."""
    return bm25_of([lexical_terms.terms_of(c.context, c.text) for c in chunks])


def bm25_of(terms: Sequence[list[str]]) -> bm25s.BM25:
    """A BM25 index over each chunk's terms, in order."""
    bm25 = bm25s.BM25()
    if terms:
        bm25.index(list(terms), show_progress=False)
    return bm25


_paused_lock = threading.Lock()
_pauses = 0
_was_enabled = False


@contextmanager
def collection_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off (process-wide) for the block, then restored if it
    was on. An index build makes tens of thousands of lists and no cycles, but it counts towards the
    collector's thresholds: in the app's process (worker, models, a new 549-page filing's chunks) it
    set off a full collection, 0.13 s of the filing's first answer (issue 21), which now runs later."""
    global _pauses, _was_enabled
    with _paused_lock:
        if _pauses == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _paused_lock:
            _pauses -= 1
            if _pauses == 0 and _was_enabled:
                gc.enable()


class LexicalCache:
    """Holds one LexicalIndex per library, rebuilt when library.generation changes (deletes too)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._index: LexicalIndex | None = None
        self._owner: Any = None
        self._warming: threading.Thread | None = None

    def warm(self, library: LibraryReader) -> threading.Thread | None:
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

    def _warm(self, library: LibraryReader) -> None:
        try:
            self.get(library)
        except Exception:
            logger.warning("warming the BM25 index failed; the next question builds it", exc_info=True)

    def get(self, library: LibraryReader) -> LexicalIndex:
        """The index for library's current generation, built if needed."""
        generation = library.generation
        with self._lock:
            index = self._index
            if index is None or self._owner is not library or index.generation != generation:
                with collection_paused():
                    index = LexicalIndex.for_library(library)
                self._index, self._owner = index, library
            return index
