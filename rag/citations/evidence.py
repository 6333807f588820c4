"""The evidence table of one answer: short ids for retrieved chunks, collision-free."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ingest.types import Chunk, Document
from rag.types import Evidence

SHORT_ID_LENGTH = 7


def short_id_candidates(chunk_id: str) -> Iterable[str]:
    """The short ids a chunk may take, best first: its 7-character prefix, its 8-character
    prefix, then each later 7-character window of its id."""
    yield chunk_id[:SHORT_ID_LENGTH]
    yield chunk_id[: SHORT_ID_LENGTH + 1]
    for i in range(1, len(chunk_id) - SHORT_ID_LENGTH + 1):
        yield chunk_id[i : i + SHORT_ID_LENGTH]


def assign_short_ids(chunk_ids: Iterable[str]) -> dict[str, str]:
    """Give each distinct chunk id a short id unique within this set.

    Deterministic and independent of retrieval order: ids are visited in sorted order and each
    takes its first candidate not yet taken, so a collision lengthens or shifts the later id.
    """
    taken: set[str] = set()
    out: dict[str, str] = {}
    for chunk_id in sorted(set(chunk_ids)):
        for candidate in short_id_candidates(chunk_id.lower()):
            if candidate not in taken:
                taken.add(candidate)
                out[chunk_id] = candidate
                break
        else:  # pragma: no cover - needs two identical 64-character ids, which set() removed
            raise ValueError(f"no free short id for chunk {chunk_id}")
    return out


def build_evidence(hits: Sequence[tuple[Chunk, Document, float | None]]) -> tuple[Evidence, ...]:
    """Evidence for retrieved chunks (best first), each under its collision-free short id."""
    short = assign_short_ids(chunk.chunk_id for chunk, _doc, _score in hits)
    return tuple(
        Evidence(
            short_id=short[chunk.chunk_id],
            chunk_id=chunk.chunk_id,
            doc_id=chunk.doc_id,
            title=doc.title,
            file_name=doc.file_name,
            text=chunk.text,
            score=None if score is None else float(score),
            locators=chunk.locators,
            context=chunk.context,
            sections=chunk.sections,
        )
        for chunk, doc, score in hits
    )
