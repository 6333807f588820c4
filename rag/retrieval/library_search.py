"""Search the library for words or "exact phrases": BM25 ranks the chunks, quoted phrases filter
them, and each hit says on which page its first match sits and shows the passage around it."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ingest.pdf.chunking import PAGE_JOIN
from ingest.types import Chunk, LibraryReader
from rag.citations.evidence import build_evidence
from rag.retrieval.lexical import SOFT_HYPHEN, tokenize
from rag.types import Evidence

_QUOTED = re.compile(r'"([^"]*)"|\u201c([^\u201d]*)\u201d')
_WORD = re.compile(r"\w+", re.UNICODE)
_SOFT_BREAK = re.compile(SOFT_HYPHEN + r"\s*")
SNIPPET_CHARS = 240  # context shown around a match in the result list
FIRST_CANDIDATES = 200  # BM25 candidates asked for first; 8x more each time phrases filter too many out


@dataclass(frozen=True)
class Query:
    """A search as typed: the exact phrases (quoted) and all of its words for ranking."""

    phrases: tuple[str, ...]
    text: str

    @property
    def empty(self) -> bool:
        return not _WORD.search(self.text)


@dataclass(frozen=True)
class SearchHit:
    """One chunk that matches: as evidence (what the side panel shows), where its first match is
    in the chunk text, the page that match is on, and plain text around the match."""

    evidence: Evidence
    match: tuple[int, int]
    page_index: int
    page_label: str
    snippet: str


def parse_query(raw: str) -> Query:
    """Quoted stretches ("..." or curly quotes) become phrases; an unclosed quote is just words."""
    quoted = (" ".join((m.group(1) or m.group(2) or "").split()) for m in _QUOTED.finditer(raw))
    phrases = tuple(p for p in quoted if p)
    return Query(phrases, raw.replace('"', " ").replace("\u201c", " ").replace("\u201d", " "))


def phrase_pattern(phrase: str) -> re.Pattern[str]:
    """The phrase's words in order, case-insensitive, across any spaces, line breaks or punctuation
    between them, and across the soft hyphen ingest leaves where a word was split over two lines."""

    def word(w: str) -> str:
        return f"(?:{SOFT_HYPHEN}\\s*)?".join(re.escape(c) for c in w)

    words = _WORD.findall(phrase)
    return re.compile(r"(?<!\w)" + r"\W+".join(word(w) for w in words) + r"(?!\w)", re.IGNORECASE)


def _has_words(text: str, words: Sequence[str]) -> bool:
    """Whether every (lowercased) word occurs in text, words split over lines rejoined: a cheap
    test that every phrase match passes, so the slower phrase patterns run on few chunks."""
    flat = text.lower()
    if SOFT_HYPHEN in flat:
        flat = _SOFT_BREAK.sub("", flat)
    return all(w in flat for w in words)


def _first_match(
    text: str, patterns: Sequence[re.Pattern[str]], terms: set[str], words: Sequence[str] = ()
) -> tuple[int, int] | None:
    """The first phrase match (every phrase must occur), else the first word that is a query term."""
    if patterns:
        if not _has_words(text, words):
            return None
        found = [p.search(text) for p in patterns]
        if not all(found):
            return None
        first = min(found, key=lambda m: m.start())
        return first.start(), first.end()
    for m in _WORD.finditer(text.replace(SOFT_HYPHEN, " ")):
        if set(tokenize(m.group(0))) & terms:
            return m.start(), m.end()
    return None


def page_of(chunk: Chunk, offset: int) -> tuple[int, int]:
    """(locator position, offset into that page's text) for an offset into the chunk text, which
    is the pages' slices joined with PAGE_JOIN."""
    position = 0
    for i, loc in enumerate(chunk.locators):
        length = loc.char_end - loc.char_start
        if offset < position + length or i == len(chunk.locators) - 1:
            return i, loc.char_start + max(0, min(offset - position, length))
        position += length + len(PAGE_JOIN)
    raise ValueError(f"chunk {chunk.chunk_id} has no page locators")


def snippet(text: str, match: tuple[int, int], width: int = SNIPPET_CHARS) -> str:
    """About width characters around the match, whitespace collapsed, ellipses where cut."""
    start = max(0, match[0] - width // 3)
    end = min(len(text), max(match[1], start + width))
    inside = " ".join(text[start:end].replace(SOFT_HYPHEN, "").split())
    return ("\u2026" if start > 0 else "") + inside + ("\u2026" if end < len(text) else "")


def _candidates(
    library: LibraryReader, lexical: Any, query: Query, doc_ids: Sequence[str] | None
) -> Iterator[tuple[Chunk, float]]:
    """Every chunk BM25 scores above zero, best first (asked for in growing batches: most searches
    stop early); for a phrase of stopwords only (which BM25 cannot rank), every chunk in order."""
    if tokenize(query.text):
        total, k, done = max(library.chunk_count(), 1), FIRST_CANDIDATES, 0
        while True:
            batch = lexical.search(query.text, min(k, total), doc_ids=doc_ids)
            yield from batch[done:]
            if len(batch) < min(k, total) or k >= total:
                return
            done, k = len(batch), k * 8
    elif query.phrases:  # one document at a time: a common phrase stops the scan early
        wanted = None if doc_ids is None else set(doc_ids)
        for doc in library.documents():
            if wanted is None or doc.doc_id in wanted:
                yield from ((c, 0.0) for c in library.chunks([doc.doc_id]))


def search_library(
    library: LibraryReader,
    raw_query: str,
    lexical: Any,
    *,
    limit: int = 20,
    doc_ids: Sequence[str] | None = None,
) -> list[SearchHit]:
    """Up to limit hits for the query (score: BM25, 0 for stopword-only phrases); the same match
    found again in an overlapping neighbour chunk is listed once."""
    query = parse_query(raw_query)
    if query.empty:
        return []
    patterns = [phrase_pattern(p) for p in query.phrases if _WORD.search(p)]
    words = sorted({w.lower() for p in query.phrases for w in _WORD.findall(p)}, key=len, reverse=True)
    terms = set(tokenize(query.text))
    found: list[tuple[Chunk, float, tuple[int, int], int, int]] = []
    seen: set[tuple[str, int, int]] = set()
    for chunk, score in _candidates(library, lexical, query, doc_ids):
        match = _first_match(chunk.text, patterns, terms, words)
        if match is None:
            continue
        where, page_offset = page_of(chunk, match[0])
        key = (chunk.doc_id, chunk.locators[where].page_index, page_offset)
        if key in seen:
            continue
        seen.add(key)
        found.append((chunk, score, match, where, page_offset))
        if len(found) == limit:
            break
    docs = {d: library.document(d) for d in {c.doc_id for c, *_ in found}}
    found = [f for f in found if docs[f[0].doc_id] is not None]
    evidence = build_evidence([(c, docs[c.doc_id], s) for c, s, *_ in found])
    return [
        SearchHit(
            ev, match, c.locators[where].page_index, c.locators[where].page_label, snippet(c.text, match)
        )
        for ev, (c, _s, match, where, _o) in zip(evidence, found)
    ]
