"""The page stage of retrieval: within the few documents a question is about, rank their pages,
then take chunks from the best pages.

A long filing is hundreds of pages that share its vocabulary; the chunk that holds the answer
competes with every chunk that repeats the question's words. A page is a better unit to rank:
a statement page has the statement's title, its column years and every row label together. So,
within the documents (rag.retrieval.retrieve: those the question names, else those its best chunks come
from, at most MAX_DOCUMENTS):

1. every chunk of those documents gets its BM25 score, and the DENSE_POOL closest their cosine;
2. a page scores by reciprocal rank fusion of its chunks' summed BM25 and its best cosine;
3. a question that names financial statements (rag.questions.request) puts the pages whose heading is one
   of them (rag.retrieval.pages) first; for each line item of a metric it defines, the chunk of those pages
   (or of the documents, when it names none) with the best BM25 for that item comes first;
4. then the named statements' best chunks, the JUDGED_AFTER best chunks overall, and a judgement
   question's first JUDGED_ROWS row chunks (rag.retrieval.concept_rows);
5. then the best chunk of each of the best PAGE_POOL pages, then their second chunks, and so on;
6. but before all of them, the chunks of the section the question names, if it names one
   (rag.retrieval.sections).

The order goes on to the usual merging and cut to k (rag.retrieval.retrieve), so the evidence stays chunks
with their locators.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ingest.types import Chunk, LibraryReader
from rag.passages.computed import holds_row
from rag.questions.read import Input, Question
from rag.questions.request import statements_in
from rag.questions.section import SUBSECTIONS
from rag.retrieval import sections
from rag.retrieval.concept_rows import concept_rows
from rag.retrieval.pages import DocumentPages, FactsCache

MAX_DOCUMENTS = 3
RRF_K = 60
DENSE_POOL = 300  # closest chunks of the documents whose cosine a page's dense score takes
NEAR_TOP = 0.9  # an input's chunks within this share of its best BM25 score tie (see _best_for)
ITEM_POOL = 30  # chunks by BM25 checked for a row holding a line item
NAMED_POOL = 4  # named statement pages whose best chunk comes first
JUDGED_AFTER = 2  # a judgement's rows come after this many of the best chunks (bench/README.md)
JUDGED_ROWS = 2  # and at most this many chunks of them: a third of the default evidence (k = 6)

HEADING_WORDS = 8  # a heading at a passage's end has at most this many words
HEADING_CONTEXT_CHARS = 120  # of a statement page's heading put before a chunk's context
ORDER_MAX = 60  # chunks the stage hands on (k is 6-20; the chunk-level ranking follows them)
_FACTS = FactsCache()


@dataclass(frozen=True)
class PageOrder:
    """The stage's chunks, best first, and the cosines it learned (by chunk id); when the question
    names a section, its path, how many of the first chunks are that section's, and how many of
    those the evidence needs whole (where it begins and where each subsection begins, when its
    subsections are asked)."""

    chunks: list[Chunk]
    cosine: dict[str, float]
    section: str = ""
    section_chunks: int = 0
    needed: int = 0


def _ranks(values: dict[Any, float]) -> dict[Any, int]:
    ordered = sorted((k for k, v in values.items() if v > 0), key=lambda key: -values[key])
    return {key: n for n, key in enumerate(ordered, start=1)}


def fused(*rankings: dict[Any, float]) -> dict[Any, float]:
    """Reciprocal rank fusion of score maps (only positive scores rank)."""
    scores: dict[Any, float] = {}
    for values in rankings:
        for key, rank in _ranks(values).items():
            scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
    return scores


def fused_blind(lexical: dict[Any, float], dense: dict[Any, float], unseen: Any) -> dict[Any, float]:
    """fused(lexical, dense), where a key dense cannot see (``unseen(key)``: its document's vectors
    are still being embedded) takes its lexical rank in the dense ranking too, instead of none."""
    lexical_rank, dense_rank = _ranks(lexical), _ranks(dense)
    scores: dict[Any, float] = {}
    for key, rank in lexical_rank.items():
        scores[key] = 1.0 / (RRF_K + rank) + (
            1.0 / (RRF_K + rank) if unseen(key) and key not in dense_rank else 0.0
        )
    for key, rank in dense_rank.items():
        scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
    return scores


def page_order(
    library: LibraryReader,
    index: Any,
    question: Question,
    query: str,
    vector: Any,
    doc_ids: Sequence[str],
    words_only: frozenset[str] = frozenset(),
) -> PageOrder:
    """Chunks of the documents in the page stage's order (see the module docstring). Documents in
    ``words_only`` have no vectors yet: their pages and chunks rank by words in both halves."""
    doc_ids = list(dict.fromkeys(doc_ids))[:MAX_DOCUMENTS]
    if not doc_ids:
        return PageOrder([], {})
    known: dict[str, DocumentPages] = {d: _FACTS.get(library, d) for d in doc_ids}
    page_of = {cid: (d, p) for d, pages in known.items() for cid, p in pages.chunk_pages.items()}
    dense = library.search_vector(vector, DENSE_POOL, doc_ids=doc_ids) if vector is not None else []
    chunks = {c.chunk_id: c for c, _ in dense}
    cosine = {c.chunk_id: float(s) for c, s in dense}
    lexical = index.scores(query, doc_ids)
    page_lexical: dict[tuple[str, int], float] = {}
    page_dense: dict[tuple[str, int], float] = {}
    for cid, score in lexical.items():
        if cid in page_of:
            page_lexical[page_of[cid]] = page_lexical.get(page_of[cid], 0.0) + score
    for cid, score in cosine.items():
        if cid in page_of:
            page_dense[page_of[cid]] = max(page_dense.get(page_of[cid], 0.0), score)
    page_score = fused_blind(page_lexical, page_dense, lambda key: key[0] in words_only)
    wanted = set(question.search.statements)
    named = {  # only a question naming statements reads every page's heading
        (d, f.page_index)
        for d, pages in known.items()
        if wanted
        for f in pages.facts
        if f.statement in wanted
    }
    # Ties go to the earlier page (doc_id, page index): never to a set's order, which changes with
    # each process's string hashing (PYTHONHASHSEED moved filings-dev's cited figure 0.574/0.565).
    ranked_pages = sorted(
        set(page_score) | named, key=lambda key: (key not in named, -page_score.get(key, 0.0), key)
    )
    chunk_score = fused_blind(lexical, cosine, lambda cid: page_of.get(cid, ("",))[0] in words_only)
    on_page: dict[tuple[str, int], list[str]] = {}
    for cid, key in page_of.items():
        on_page.setdefault(key, []).append(cid)
    among = [cid for key in sorted(named) for cid in on_page.get(key, [])] if named else list(page_of)

    def fetch(ids: Sequence[str]) -> dict[str, Chunk]:
        missing = [cid for cid in ids if cid not in chunks]
        if missing:
            chunks.update(library.chunks_by_id(missing))
        return {cid: chunks[cid] for cid in ids if cid in chunks}

    inputs = question.search.inputs
    first = [b for item in inputs if (b := _best_for(item, index, doc_ids, among, page_of, fetch))]
    judged = concept_rows(question, index, doc_ids, known, page_of, fetch)  # a judgement's rows
    # A chunk ranks by fusing its own rank (dense + BM25 in these documents) with its page's rank,
    # so a page that holds the question's words together lifts its chunks, and a good chunk on a
    # page of many topics still comes through. Named statement pages' best chunks come first.
    page_rank = {key: n for n, key in enumerate(ranked_pages, start=1)}
    chunk_rank = {cid: n for n, cid in enumerate(sorted(chunk_score, key=lambda c: -chunk_score[c]), start=1)}
    final = {
        cid: 1.0 / (RRF_K + rank)
        + (1.0 / (RRF_K + page_rank[page_of[cid]]) if cid in page_of and page_of[cid] in page_rank else 0.0)
        for cid, rank in chunk_rank.items()
    }
    leaders = [
        max(on_page.get(key, []), key=lambda cid: chunk_score.get(cid, 0.0), default=None)
        for key in ranked_pages
        if key in named
    ][:NAMED_POOL]
    spread = [cid for cid in leaders if cid]
    rest = sorted(final, key=lambda cid: -final[cid])
    lead = rest[:JUDGED_AFTER]
    asked = question.section
    named = sections.named_section(library, asked, doc_ids) if asked is not None else None
    section = sections.section_first(named, asked.asks, final) if named and asked else []
    section = section[:ORDER_MAX]
    order = list(dict.fromkeys([*section, *first, *spread, *lead, *judged[:JUDGED_ROWS], *rest]))[:ORDER_MAX]
    missing = [cid for cid in order if cid not in chunks]
    if missing:
        chunks.update(library.chunks_by_id(missing))
    found = [chunks[cid] for cid in order if cid in chunks]
    if named is None or asked is None:
        return PageOrder(found, cosine)
    needed = 1 + len(named.subsections) if asked.asks == SUBSECTIONS else 0
    held = len([cid for cid in section if cid in chunks])
    return PageOrder(found, cosine, named.path, held, min(needed, held))


def _best_for(
    item: Input,
    index: Any,
    doc_ids: Sequence[str],
    among: Sequence[str],
    page_of: dict[str, tuple[str, int]],
    fetch: Any,
) -> str | None:
    """The chunk id among these that holds one line item: of the ITEM_POOL best by BM25, one with a
    table row whose label holds the item (rag.passages.computed), from the first of the documents that have
    one (the filing whose cover covers the asked period comes first: rag.retrieval.documents); with no such
    row, the first document's among those within NEAR_TOP of the best score. The item is searched
    without the question's years: they are column headers, and a page of dates outscores the row."""
    scores = index.scores(item.search, doc_ids)
    candidates = sorted((cid for cid in among if scores.get(cid, 0.0) > 0), key=lambda cid: -scores[cid])
    candidates = candidates[:ITEM_POOL]
    if not candidates:
        return None
    texts = fetch(candidates)
    with_row = [cid for cid in candidates if cid in texts and holds_row(item, texts[cid].text)]
    order = {d: n for n, d in enumerate(doc_ids)}
    if with_row:  # a row that holds the item: the first document's, then the best scored
        return min(with_row, key=lambda cid: (order.get(page_of[cid][0], len(order)), -scores[cid]))
    top = max(scores[cid] for cid in candidates)
    near = [cid for cid in candidates if scores[cid] >= NEAR_TOP * top]
    return min(near, key=lambda cid: (order.get(page_of[cid][0], len(order)), -scores[cid]))


def with_statement(chunk: Chunk) -> Chunk:
    """The chunk with its page's heading before its context when the page is a financial
    statement its context does not name (a chunk from the middle of a statement page has the
    nearest heading, often none): the reader and the model then know which statement a row is
    from. Only for documents whose page facts this process has read (the page stage's)."""
    known = _FACTS.peek(chunk.doc_id)
    if known is None or not chunk.locators:
        return chunk
    page = chunk.locators[0].page_index
    facts = known.fact(page) if 0 <= page < len(known) else None
    if facts is None or not facts.statement or facts.statement in statements_in(chunk.context):
        return chunk
    title = facts.heading[:HEADING_CONTEXT_CHARS].strip()
    return replace(chunk, context=f"{title} | {chunk.context}" if chunk.context else title)


def ends_on_heading(text: str) -> bool:
    """Whether a passage's last line is a heading ("Item 3. Legal Proceedings."): short, its words
    capitalised, after a finished line: the passage stops where what it announces begins."""
    lines = [" ".join(x.split()) for x in text.splitlines() if x.strip()]
    if len(lines) < 2:
        return False
    last, before = lines[-1], lines[-2]
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", last)  # noqa: RUF001
    long_words = [w for w in words if len(w) > 3]
    return (
        0 < len(words) <= HEADING_WORDS
        and bool(long_words)
        and all(w[0].isupper() for w in long_words)
        and not last.endswith((",", ";"))
        and not re.search(r"\d[\d,.]*\s*$", last)  # a table row ends in a number
        and before[-1:] in ".:;)!?"
    )


def continued(library: LibraryReader, passage: Chunk, last_id: str, merge: Any) -> Chunk:
    """The passage with the chunk after its last one (last_id) when it ends on a heading (see
    ends_on_heading), so the heading comes with what it heads; merge joins the two."""
    known = _FACTS.peek(passage.doc_id)
    if known is None or not ends_on_heading(passage.text):
        return passage
    following = known.next_chunk(last_id)
    found = library.chunks_by_id([following]).get(following) if following else None
    return merge(passage, found) if found is not None else passage
