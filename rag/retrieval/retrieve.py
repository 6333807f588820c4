"""Hybrid retrieval: dense search plus BM25, fused by reciprocal rank, neighbours merged, top k."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ingest.pdf.context import indexed_text
from ingest.types import Chunk, LibraryReader
from rag.citations.evidence import build_evidence
from rag.questions.read import Question
from rag.retrieval.documents import (
    DocumentPick,
    fiscal_year_ends,
    period_note,
    pick_documents,
    small_library_names,
)
from rag.retrieval.filings.profiles import ProfileCache
from rag.retrieval.fusion import fuse, merged_passage, passage_groups, top_documents
from rag.retrieval.lexical import WORD, LexicalCache, tokenize, without_words, without_written
from rag.retrieval.lists import lists_last
from rag.retrieval.page_stage import DENSE_POOL, MAX_DOCUMENTS, page_order, with_statement
from rag.retrieval.pending import vector_progress
from rag.retrieval.values import value_chunks, with_value_chunks
from rag.types import Evidence

_DEFAULT_CACHE = LexicalCache()
_DEFAULT_PROFILES = ProfileCache()
# Pieces of evidence beyond k for a section's subsections, one where each begins (set by hand: a
# longer list is cut there).
MAX_SUBSECTIONS = 12


@dataclass(frozen=True)
class Retrieval:
    """The evidence table of one question plus how relevant the best candidates looked."""

    evidence: tuple[Evidence, ...]
    best_dense: float = 0.0  # highest cosine similarity among the dense hits
    best_coverage: float = 0.0  # highest share of the question's words found in one candidate
    # whether a candidate holds a name the question gives, whole ("Margaret", "Los Angeles", "CBD")
    names_found: bool = False
    picked: tuple[str, ...] = ()  # the documents the question named (doc ids, best first), if any
    period_note: str = ""  # the library holds no filing of the period asked: which one was used
    section: str = ""  # the path of the section the question names (rag.sections.retrieval), if found
    # doc_id -> its company's fiscal year end (0-based month, by its annual covers), for each evidence
    # document: what dates a quarter's column for a computed figure
    fy_ends: dict[str, int] = field(default_factory=dict)
    # doc_id -> share of vectors embedded, for the documents searched by words only (rag.retrieval.pending)
    vector_progress: dict[str, float] = field(default_factory=dict)

    def is_relevant(self, min_dense: float, min_coverage: float) -> bool:
        """Whether anything retrieved looks related enough to be worth asking the model: close in
        meaning, holding most of the question's words, or naming what it names. A candidate holding
        a name the question gives (rag.questions.terms: a run of capitalised words or an acronym,
        every word of it, written with a capital there too) is related whatever share of the other
        words it holds: "Who was Margaret's husband?" (two words, one found) is answered by "King
        Malcolm III of Scotland married Edgar's sister Margaret". The capital keeps "Pride and
        Prejudice" from finding "without prejudice". The section a question names, found, is
        what it asks about, whatever words it shares ("What subsections make up chapter 5?")."""
        return bool(self.evidence) and (
            self.best_dense >= min_dense
            or self.best_coverage >= min_coverage
            or self.names_found
            or bool(self.section)
        )


def dense_similarities(
    embeddings: Any,
    query_vector: Sequence[float],
    groups: Sequence[Sequence[Chunk]],
    known: dict[str, float],
    words_only: frozenset[str] = frozenset(),
) -> list[float | None]:
    """Each group's cosine with the question (its best member's), clamped to 0..1; members the
    dense search did not return (found by BM25 only) are embedded here, in one batch, except those
    of documents searched by words only (``words_only``: their vectors are still being embedded):
    a group with no other member has no cosine (None). The cosine is only shown, never ranked on,
    and embedding a new filing's passages here cost its first answer 0.2-0.35 s (issue 21)."""
    missing = list(
        dict.fromkeys(
            indexed_text(c.context, c.text)
            for g in groups
            for c in g
            if c.chunk_id not in known and c.doc_id not in words_only
        )
    )
    found: dict[str, float] = {}
    if missing:
        query = np.asarray(query_vector, dtype=np.float64)
        matrix = np.asarray(embeddings.embed_documents(missing), dtype=np.float64)
        norms = np.linalg.norm(matrix, axis=1) * (np.linalg.norm(query) or 1.0)
        found = dict(zip(missing, (matrix @ query / np.where(norms > 0, norms, 1.0)).tolist()))
    sims = [_group_cosine(g, known, found, words_only) for g in groups]
    return [None if s is None else min(1.0, max(0.0, float(s))) for s in sims]


def _group_cosine(
    group: Sequence[Chunk], known: dict[str, float], found: dict[str, float], words_only: frozenset[str]
) -> float | None:
    measured = [
        known[c.chunk_id] if c.chunk_id in known else found.get(indexed_text(c.context, c.text), 0.0)
        for c in group
        if c.chunk_id in known or c.doc_id not in words_only
    ]
    return max(measured) if measured else None


def _capitalised(text: str) -> set[str]:
    """The index terms of text's words written with a capital (a name is matched by a name:
    "Pride and Prejudice" is not found in "without prejudice")."""
    return set(tokenize(" ".join(w for w in WORD.findall(text) if w[:1].isupper())))


def _share(question_terms: frozenset[str], held: set[str]) -> float:
    """Share of the question's distinct content words among a text's (held)."""
    return len(question_terms & held) / len(question_terms) if question_terms else 0.0


def _rankings(
    library: LibraryReader,
    query: str,
    vector: Any,
    n: int,
    doc_ids: Sequence[str] | None,
    index: Any,
    pick: DocumentPick | None,
    rest: tuple[str, Any] | None,
    words_only: frozenset[str] = frozenset(),
) -> tuple[list[list[Chunk]], list[tuple[Chunk, float]]]:
    """Dense and BM25 rankings over doc_ids or, when the question names documents, over those
    only, plus both again for the question without its naming words (rest: that text and its
    vector; so that the pages which merely repeat a company's name do not crowd out the answer);
    also the dense hits."""
    if pick is not None:
        doc_ids = pick.doc_ids
    dense = library.search_vector(vector, n, doc_ids=doc_ids) if vector is not None else []
    words = [c for c, _ in index.search(query, n, doc_ids=doc_ids)]
    rankings = [stand_in([c for c, _ in dense], words, words_only), words]
    if rest is not None:
        text, rest_vector = rest
        named = library.search_vector(rest_vector, n, doc_ids=doc_ids) if rest_vector is not None else []
        rest_words = [c for c, _ in index.search(text, n, doc_ids=doc_ids)]
        rankings += [stand_in([c for c, _ in named], rest_words, words_only), rest_words]
    return rankings, dense


def stand_in(dense: Sequence[Chunk], words: Sequence[Chunk], words_only: frozenset[str]) -> list[Chunk]:
    """The dense ranking with the chunks it cannot see, those of documents whose vectors are still
    being embedded (``words_only``), put in at their rank by words: such a document is then fused
    as if the two halves agreed on it, not as if dense had ranked it last (issue 21: a new filing
    is answerable by words beside documents that have vectors)."""
    out = list(dense)
    if words_only:
        for rank, chunk in enumerate(words):
            if chunk.doc_id in words_only:
                out.insert(min(rank, len(out)), chunk)
    return out


def search_evidence(
    library: LibraryReader,
    question: Question,
    *,
    k: int,
    doc_ids: Sequence[str] | None = None,
    candidates: int | None = None,
    lexical: LexicalCache | None = None,
    profiles: ProfileCache | None = None,
) -> Retrieval:
    """Dense + BM25 candidates (only from the documents the question names, when it names
    some: see rag.retrieval.documents) fused by reciprocal rank, pages of its documents ranked
    first, lists of documents last, merged, cut to k, with short ids. The fused order ranks the
    evidence; each piece's score is its cosine similarity to the question (None for a piece of a
    document searched by words only: see dense_similarities)."""
    n = candidates or max(4 * k, 20)
    search = question.search
    # Every stage, dense too, reads the question with its shorthand spelled out ("D&A", "capex"
    # find their line items by meaning too), not its fiscal periods: those pick among a company's
    # filings (rag.retrieval.documents), while as search words they favour the pages that print
    # the year most, not the page that answers.
    expanded = search.words
    vector = None
    if search.text.strip():
        vector = library.embeddings.embed_query(expanded)
    known_profiles = (profiles or _DEFAULT_PROFILES).get(library)
    index = _lexical(library, lexical)
    pick = pick_documents(known_profiles, question, doc_ids, index.search)
    rest = None
    # In a library too small to pick documents, the capitalised words a title or file name writes
    # name them all the same: in a library of one report every page holds its name, which would
    # outweigh what the question asks (small_library_names).
    naming = pick.words if pick is not None else small_library_names(known_profiles, question, doc_ids)
    # The form of filing the question names ("its FY2022 10-K") names its document too: searched
    # for, it favours the pages that print it most (the cover, the officers' certifications, the
    # exhibit index). Its words leave as written, not by stem: "reportable segments" keeps
    # "reportable" (without_written).
    form = question.periods.form_words
    if naming or form:  # the question without the words that named its documents
        text = without_written(without_words(expanded, naming), form)
        rest = (text, library.embeddings.embed_query(text) if vector is not None else None)
    progress = vector_progress(library)  # documents without their vectors yet
    words_only = frozenset(progress)
    rankings, dense = _rankings(library, expanded, vector, n, doc_ids, index, pick, rest, words_only)
    fused = fuse(rankings)
    known = {c.chunk_id: s for c, s in dense}
    section, first, needed = "", 0, 0
    if fused:
        few = pick.doc_ids if pick and len(pick.doc_ids) <= MAX_DOCUMENTS else None
        stage_docs = few or top_documents(fused, 2 * k)
        query, query_vector = rest if rest is not None else (expanded, vector)
        stage = page_order(library, index, question, query, query_vector, stage_docs, words_only)
        fused = _in_order([*stage.chunks, *(c for c, _ in fused)])
        known.update(stage.cosine)
        section, first, needed = stage.section, stage.section_chunks, stage.needed
    # A named section's chunks stay first, lists or not (its subsections' headings are numbered
    # lines); the evidence holds every one it needs, up to MAX_SUBSECTIONS more than k. Chunks
    # printing the kind of value asked for (rag.retrieval.values) come second among the rest.
    after = with_value_chunks(lists_last(fused[first:]), value_chunks(library, question, doc_ids))
    fused = fused[:first] + after
    groups = passage_groups(fused, max(k, min(needed, k + MAX_SUBSECTIONS)))
    docs = {doc_id: library.document(doc_id) for doc_id in {top.doc_id for _, top, _ in groups}}
    groups = [g for g in groups if docs[g[1].doc_id] is not None]
    members = [g for g, _, _ in groups]
    sims = dense_similarities(library.embeddings, vector, members, known, words_only) if groups else []
    hits = [
        (with_statement(merged_passage(library, members, top)), docs[top.doc_id], sim)
        for (members, top, _), sim in zip(groups, sims)
    ]
    terms = search.terms
    names = [set(tokenize(name)) for name in search.names]
    names = [name for name in names if name]
    texts = [indexed_text(c.context, c.text) for c, _ in fused[: 2 * k]]
    held_terms = [set(tokenize(text)) for text in texts]
    capitalised = [_capitalised(text) for text in texts] if names else []
    return Retrieval(
        evidence=build_evidence(hits),
        best_dense=max((float(s) for _, s in dense), default=0.0),
        best_coverage=max((_share(terms, held) for held in held_terms), default=0.0),
        names_found=any(name <= held for name in names for held in capitalised),
        picked=pick.doc_ids if pick else (),
        period_note=period_note(library, known_profiles, pick),
        section=section,
        fy_ends=fiscal_year_ends(known_profiles, [top.doc_id for _, top, _ in groups]),
        vector_progress=progress,
    )


def _in_order(chunks: Iterable[Chunk]) -> list[tuple[Chunk, float]]:
    """Chunks without repeats, each with a score that falls with its place (for _groups)."""
    unique: dict[str, Chunk] = {}
    for chunk in chunks:
        unique.setdefault(chunk.chunk_id, chunk)
    return [(c, 1.0 / (1 + n)) for n, c in enumerate(unique.values())]


class _OwnLexical:
    """A library's own lexical ranking (PostgreSQL full text) behind LexicalIndex's search() and scores()."""

    def __init__(self, library: LibraryReader) -> None:
        self.library = library

    def search(self, query: str, k: int, doc_ids: Sequence[str] | None = None) -> list[tuple[Chunk, float]]:
        """The library's lexical_search."""
        return self.library.lexical_search(query, k, doc_ids) or []

    def scores(self, query: str, doc_ids: Sequence[str]) -> dict[str, float]:
        """The scores of the best DENSE_POOL chunks of doc_ids, by chunk id (not every chunk's, as
        BM25's: the store ranks and returns rows, each read whole)."""
        return {c.chunk_id: s for c, s in self.search(query, DENSE_POOL, doc_ids=doc_ids)}


def _lexical(library: LibraryReader, lexical: LexicalCache | None = None) -> Any:
    """The library's own lexical search when it offers one (nothing to build), else shared BM25."""
    if library.has_lexical_search:
        return _OwnLexical(library)
    return (lexical or _DEFAULT_CACHE).get(library)


def warm_lexical(library: LibraryReader) -> Any:
    """Start building the shared BM25 index for library's current generation in the background
    (a no-op when it is built or being built, or the library searches text itself); returns the
    thread, or None."""
    return None if library.has_lexical_search else _DEFAULT_CACHE.warm(library)


def lexical_index(library: LibraryReader) -> Any:
    """The lexical index questions use for library's current generation, built if needed."""
    return _lexical(library)


def document_profiles(library: LibraryReader) -> Any:
    """The document profiles questions use for library's current generation, read or built."""
    return _DEFAULT_PROFILES.get(library)
