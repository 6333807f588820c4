"""Fusing rankings and merging chunks into passages: reciprocal rank fusion of the dense and BM25
rankings, and neighbouring chunks of one document (their overlap joined once, or a sentence that
runs over a page break joined across it) merged into one passage with every page it covers,
continued past a heading it ends on."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

from ingest.pdf.chunking import PAGE_JOIN
from ingest.types import Chunk, LibraryReader, PageLocator
from rag.retrieval.page_stage import MAX_DOCUMENTS, continued

RRF_K = 60
MAX_MERGED = 3
# A chunk ending in none of these and the next chunk, on the next page, starting in lower case are
# one sentence over a page break (the chunker splits at the break, with no overlap). Merging them
# (both retrieved) quotes the sentence whole: "The best algorithm for this problem," / "due to
# Laszlo Babai and Eugene Luks has run time ...". Only a sentence is merged, not any two chunks
# over a break (measured both ways: bench/README.md, "How the rules were found").
SENTENCE_ENDS = (".", "!", "?", ":", ";", '"', "\u201d", ")")


def fuse(rankings: Iterable[Sequence[Chunk]], rrf_k: int = RRF_K) -> list[tuple[Chunk, float]]:
    """Reciprocal rank fusion: each chunk scores sum(1 / (rrf_k + rank)) over the rankings."""
    scores: dict[str, float] = {}
    by_id: dict[str, Chunk] = {}
    for ranking in rankings:
        for rank, chunk in enumerate(ranking, start=1):
            by_id.setdefault(chunk.chunk_id, chunk)
            scores[chunk.chunk_id] = scores.get(chunk.chunk_id, 0.0) + 1.0 / (rrf_k + rank)
    ordered = sorted(scores, key=lambda cid: -scores[cid])
    return [(by_id[cid], scores[cid]) for cid in ordered]


def overlap_join(left: str, right: str) -> str | None:
    """left + the part of right after their shared overlap, or None when they do not overlap."""
    probe = right[: min(40, len(right))]
    if not probe:
        return None
    pos = left.find(probe, max(0, len(left) - len(right) - 1))
    while pos != -1:
        if right.startswith(left[pos:]):
            return left + right[len(left) - pos :]
        pos = left.find(probe, pos + 1)
    return None


def merge_locators(chunks: Sequence[Chunk]) -> tuple[PageLocator, ...]:
    pages: dict[int, PageLocator] = {}
    for loc in (loc for chunk in chunks for loc in chunk.locators):
        old = pages.get(loc.page_index)
        if old is not None:
            loc = PageLocator(
                loc.page_index,
                old.page_label,
                min(old.char_start, loc.char_start),
                max(old.char_end, loc.char_end),
                old.ocr_confidence,
            )
        pages[loc.page_index] = loc
    return tuple(pages[i] for i in sorted(pages))


def merge_chunks(members: list[Chunk], best: Chunk) -> Chunk:
    """One chunk for overlapping neighbours, under the best-ranked member's id."""
    if len(members) == 1:
        return members[0]
    ordered = sorted(members, key=lambda c: c.ordinal)
    text = ordered[0].text
    for before, chunk in pairwise(ordered):
        joined = overlap_join(text, chunk.text)
        if joined is None:  # over a page break, as the pages' text is joined (ingest.pdf.chunking)
            joined = f"{text}{PAGE_JOIN if runs_over(before, chunk) else ' '}{chunk.text}"
        text = joined
    sections = tuple(dict.fromkeys(path for c in ordered for path in c.sections))  # where it starts first
    return Chunk(
        best.chunk_id,
        best.doc_id,
        ordered[0].ordinal,
        text,
        merge_locators(ordered),
        ordered[0].context,
        sections,
    )


def merged_passage(library: LibraryReader, members: list[Chunk], best: Chunk) -> Chunk:
    """The merged passage, continued into the next chunk when it ends on a heading (rag.retrieval.page_stage)."""
    joined = merge_chunks(members, best)
    last = max(members, key=lambda c: c.ordinal)
    return continued(
        library, joined, last.chunk_id, lambda passage, nxt: merge_chunks([passage, nxt], passage)
    )


def joins(group: list[Chunk], chunk: Chunk) -> bool:
    """Whether chunk is a neighbour of the group whose text overlaps it."""
    if chunk.doc_id != group[0].doc_id or len(group) >= MAX_MERGED:
        return False
    for member in group:
        if chunk.ordinal == member.ordinal + 1 and (
            overlap_join(member.text, chunk.text) or runs_over(member, chunk)
        ):
            return True
        if chunk.ordinal == member.ordinal - 1 and (
            overlap_join(chunk.text, member.text) or runs_over(chunk, member)
        ):
            return True
    return False


def runs_over(first: Chunk, second: Chunk) -> bool:
    """Whether second, the chunk after first, goes on with first's last sentence on the next page
    (see SENTENCE_ENDS)."""
    return (
        bool(first.locators and second.locators)
        and first.locators[-1].page_index + 1 == second.locators[0].page_index
        and not first.text.rstrip().endswith(SENTENCE_ENDS)
        and second.text[:1].islower()
    )


def passage_groups(fused: Sequence[tuple[Chunk, float]], k: int) -> list[tuple[list[Chunk], Chunk, float]]:
    """Up to k groups of overlapping neighbours (duplicate texts dropped): members, best, its score."""
    groups: list[list[Chunk]] = []
    best: list[tuple[Chunk, float]] = []
    seen_text: set[str] = set()
    for chunk, score in fused:
        key = " ".join(chunk.text.split()).lower()
        if key in seen_text:
            continue
        seen_text.add(key)
        home = next((g for g in groups if joins(g, chunk)), None)
        if home is not None:
            home.append(chunk)
            continue
        if len(groups) == k:
            continue  # keep scanning: a later candidate may still merge into a chosen group
        groups.append([chunk])
        best.append((chunk, score))
    return [(group, top, score) for group, (top, score) in zip(groups, best)]


def top_documents(fused: Sequence[tuple[Chunk, float]], depth: int) -> list[str]:
    """The documents of the best fused candidates, by their summed fusion scores, best first."""
    totals: dict[str, float] = {}
    for chunk, score in fused[:depth]:
        totals[chunk.doc_id] = totals.get(chunk.doc_id, 0.0) + score
    return sorted(totals, key=lambda d: -totals[d])[:MAX_DOCUMENTS]
