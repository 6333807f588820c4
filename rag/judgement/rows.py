"""The statement rows a judgement question needs (rag.judgement.question): for each line item an
analyst reads for the concept, the chunk of the question's documents holding its row, on a page of
the statement the item belongs to when one has it. A statement's row carries every year the
filing shows, so the rows are the evidence of the judgement, one footnote each.

The page stage (rag.retrieval.page_stage) puts the first JUDGED_ROWS of these chunks after a
defined metric's inputs, the named statements' best chunks and the JUDGED_AFTER best chunks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ingest.types import Chunk
from rag.judgement.question import STATEMENT_KINDS, row_rank
from rag.questions.read import Question
from rag.questions.vocabulary import load_vocabulary
from rag.retrieval.pages import DocumentPages
from rag.tables.lines import read_row

ITEM_POOL = 30  # chunks by BM25 checked for an item's row (as the page stage checks an input's)


@dataclass(frozen=True)
class _Searched:
    """The question's documents as the page stage reads them."""

    index: Any  # the lexical index (scores(text, doc_ids))
    doc_ids: Sequence[str]
    pages: Mapping[str, DocumentPages]
    page_of: Mapping[str, tuple[str, int]]
    fetch: Callable[[Sequence[str]], dict[str, Chunk]]


def concept_rows(
    question: Question,
    index: Any,
    doc_ids: Sequence[str],
    pages: Mapping[str, DocumentPages],
    page_of: Mapping[str, tuple[str, int]],
    fetch: Callable[[Sequence[str]], dict[str, Chunk]],
) -> list[str]:
    """The chunk ids holding the rows of the question's judgement, once each: those on a page of
    their item's statement first (the page stage keeps only the first few: a row from a note or
    another statement is what an analyst reads last), then in the items' order."""
    judgement = question.judgement
    if judgement is None or not doc_ids:
        return []
    searched = _Searched(index, doc_ids, pages, page_of, fetch)
    found: dict[str, bool] = {}  # chunk id -> on a page of its item's statement
    for key in judgement.items:
        best = _row_chunk(key, searched)
        if best is not None:
            cid, own = best
            found[cid] = found.get(cid, False) or own
    return sorted(found, key=lambda cid: not found[cid])


def _row_chunk(key: str, searched: _Searched) -> tuple[str, bool] | None:
    """The chunk holding one item's row, and whether it is on a page of the item's statement:
    on its statement's page before any other, printed under
    one of its labels before one holding a label's words, in the first document before the rest,
    on the earlier page (the statements come before the notes and schedules that repeat their
    rows), then by BM25 for the labels."""
    item = load_vocabulary().line_items[key]
    scores = searched.index.scores(" ".join(item.labels), searched.doc_ids)
    candidates = sorted(
        (c for c in scores if scores[c] > 0 and c in searched.page_of), key=lambda c: -scores[c]
    )
    texts = searched.fetch(candidates[:ITEM_POOL])
    order = {d: n for n, d in enumerate(searched.doc_ids)}
    kind = STATEMENT_KINDS.get(item.statement, "")
    ranked = []
    for cid, chunk in texts.items():
        ranks = [
            r
            for line in chunk.text.splitlines()
            if (row := read_row(" ".join(line.split())))
            if (r := row_rank(key, row.label)) is not None
        ]
        if ranks:
            doc, page = searched.page_of[cid]
            elsewhere = searched.pages[doc].fact(page).statement != kind
            ranked.append(((elsewhere, min(ranks), order.get(doc, len(order)), page, -scores[cid]), cid))
    if not ranked:
        return None
    key_of, cid = min(ranked)
    return cid, not key_of[0]
