"""Documents searched by words only: an answer drawing on one whose vectors an ingest job is still
embedding says so, one line per document ("words only for <title>: vectors 40% done")."""

from __future__ import annotations

from dataclasses import replace

from ingest.types import LibraryReader
from rag.types import Answer


def vector_progress(library: LibraryReader) -> dict[str, float]:
    """doc_id -> share of vectors embedded, for documents searchable by words only."""
    return library.vector_progress()


def words_only_lines(answer: Answer, progress: dict[str, float]) -> tuple[str, ...]:
    """One line per document the answer cites (or, citing none, retrieved) still being embedded."""
    evidence = [f.evidence for f in answer.footnotes] or list(answer.evidence)
    titles: dict[str, str] = {}
    for ev in evidence:
        if ev.doc_id in progress:
            titles.setdefault(ev.doc_id, " ".join((ev.title or ev.file_name).split()))
    return tuple(
        f"words only for {title}: vectors {int(progress[doc_id] * 100)}% done"
        for doc_id, title in titles.items()
    )


def with_words_only(answer: Answer, progress: dict[str, float]) -> Answer:
    """The answer with its words-only lines (unchanged when it drew on no such document)."""
    lines = words_only_lines(answer, progress)
    return replace(answer, words_only=lines) if lines else answer
