"""Which documents a question names: each document's profile (what it says about itself) and
the question's words that occur in few profiles.

A profile is the document's title (PDF metadata, else the file name), its file name with letters
and digits split ("acme-10k-fy2023.pdf" gives acme 10k fy 2023) and the words of its first
``PROFILE_PAGES`` pages (a cover names the company, the form and the fiscal period). A name the
title or file name writes counts with its words run together or not ("MGM Resorts" of
MGMRESORTS_2018_10K.pdf), for covers whose text layer lost a word. The profiles of a library
generation are saved with a local library (rag/retrieval/profile_store.py).

The rule, which keeps a library of unnamed documents unaffected: a question word *names
documents* when it occurs in at least one profile and in at most ``NAMING_SHARE`` of them (so in a
library of fewer than ``1 / NAMING_SHARE`` documents none does). Each document scores the summed
IDF of the naming words in its profile; the documents within ``PICK_SHARE`` of the best score are
picked, best first, at most ``MAX_PICKED`` and never part of a tie. Retrieval then searches only
the picked documents (rag.retrieval.retrieve).

A year or a quarter says which of a company's filings, not which company (many companies' filings
cover the same period): it scores only when no other naming word is in any profile, and otherwise
only chooses among documents the other words tie on (rag/retrieval/covers.py reads the period a
cover covers). A question that writes a word with a capital (past its first word) writes names
that way: a naming word it writes only in lower case is then an ordinary word ("any material legal
proceedings" does not name Kestrel Bay Materials). Why each rule, and what it changed:
bench/README.md, "How the rules were found".
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rag.questions.read import Question
from rag.retrieval import profile_store
from rag.retrieval.covers import PERIOD_TERM, document_period, period_terms
from rag.retrieval.lexical import tokenize
from rag.types import Answer

PROFILE_PAGES = 2  # a cover page and what follows it (contents, or the first page of text)
NAMING_SHARE = 0.2  # a word in more than a fifth of the profiles is the library's, not a name
PICK_SHARE = 0.5  # documents scoring at least half the best score stay in the running
MAX_PICKED = 3  # same company, other years (or same year, other company) stay searchable
_WORD = re.compile(r"[A-Za-z0-9][\w&'-]*")
_YEAR = re.compile(r"(?:19|20)\d\d")
_LETTER_DIGIT = re.compile(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")
_ALNUM = re.compile(r"[a-z0-9]+")
_QUARTER_TERM = re.compile(r"q[1-4]|[1-4]q")  # "Q2", "2Q": a period, read as a year is

# A shorter name ("AM", "US") would start too many titles' words. The same length as the answer
# check's acronym match (rag.offline.rules.held: _holds_name); not measured apart.
MIN_TITLE_NAME = 3


@dataclass(frozen=True)
class DocumentPick:
    """The documents a question names, best first, and the words that named them."""

    doc_ids: tuple[str, ...]
    words: tuple[str, ...]


def profile_text(title: str, file_name: str, first_pages: Sequence[str]) -> str:
    """The text a document is known by: title, file name (letters and digits apart, "_" and "."
    as spaces: "PEPSICO_2021_10K.pdf" gives pepsico 2021 10 k pdf), first pages."""
    return "\n".join([title, _LETTER_DIGIT.sub(" ", re.sub(r"[_.]", " ", file_name)), *first_pages])


class DocumentProfiles:
    """The profiles of one library generation's documents, as postings: each index term and the
    positions (in doc_ids) of the documents whose profile has it."""

    def __init__(
        self,
        profiles: dict[str, str],
        generation: Any = None,
        periods: Mapping[str, tuple[int, int | None] | None] | None = None,
        titles: Mapping[str, str] | None = None,
    ) -> None:
        postings: dict[str, list[int]] = {}
        for position, (doc_id, text) in enumerate(profiles.items()):
            for term in dict.fromkeys(tokenize(text) + period_terms((periods or {}).get(doc_id))):
                postings.setdefault(term, []).append(position)
        self._set(tuple(profiles), {t: tuple(p) for t, p in postings.items()}, generation, saved=False)
        self.titles = {d: title_words(t) for d, t in (titles or {}).items()}

    @classmethod
    def from_postings(
        cls,
        doc_ids: Sequence[str],
        postings: Mapping[str, Sequence[int]],
        generation: Any = None,
        titles: Mapping[str, str] | None = None,
    ) -> DocumentProfiles:
        """Profiles whose postings are already known (read from the saved copy)."""
        profiles = cls.__new__(cls)
        profiles._set(tuple(doc_ids), {t: tuple(p) for t, p in postings.items()}, generation, saved=True)
        profiles.titles = {d: title_words(t) for d, t in (titles or {}).items()}
        return profiles

    def _set(
        self, doc_ids: tuple[str, ...], postings: dict[str, tuple[int, ...]], generation: Any, saved: bool
    ) -> None:
        self.generation = generation
        self.doc_ids = doc_ids
        self.postings = postings
        self.saved = saved  # True when read from the library's saved profiles, not built
        self._position = {d: i for i, d in enumerate(doc_ids)}

    @property
    def terms(self) -> dict[str, frozenset[str]]:
        """Each document's profile terms, by doc_id."""
        found: dict[str, set[str]] = {d: set() for d in self.doc_ids}
        for term, positions in self.postings.items():
            for i in positions:
                found[self.doc_ids[i]].add(term)
        return {d: frozenset(t) for d, t in found.items()}

    @property
    def df(self) -> Counter[str]:
        """How many profiles have each term."""
        return Counter({t: len(p) for t, p in self.postings.items()})

    def pick(self, question: Question, doc_ids: Sequence[str] | None = None) -> DocumentPick | None:
        """The documents the question's naming words pick (among doc_ids), or None."""
        docs = [d for d in (doc_ids if doc_ids is not None else self.doc_ids) if d in self._position]
        if len(docs) <= MAX_PICKED:
            return None
        n = len(self.doc_ids)
        text = question.search.naming.text
        extra = self._titled_postings(question.search.naming.names)
        naming = _as_written({t for t in tokenize(text) if 0 < self._df(t, extra) <= NAMING_SHARE * n}, text)
        years = {t for t in naming if _YEAR.fullmatch(t) or _QUARTER_TERM.fullmatch(t)}
        asked_years = {t for t in tokenize(text) if _YEAR.fullmatch(t)}  # a year on every cover too
        names = naming - years
        if not any(self._scores(docs, names, extra).values()):
            names, years, asked_years = years, set(), set()
        scores = self._scores(docs, names, extra)
        best = max(scores.values(), default=0.0)
        if best <= 0:
            return None
        picked: tuple[str, ...] = ()
        for value in sorted({s for s in scores.values() if s >= PICK_SHARE * best}, reverse=True):
            tied = tuple(d for d in docs if scores[d] == value)
            if len(tied) > 1 and asked_years:  # the year picks among them, best first
                by_year = self._period_scores(tied, asked_years, question.search.naming.quarters)
                tied = tuple(sorted(tied, key=lambda d: -by_year[d]))
                top = by_year[tied[0]]
                if top > 0 and len(picked) + len(tied) > MAX_PICKED:
                    tied = tuple(d for d in tied if by_year[d] == top)
            if len(picked) + len(tied) > MAX_PICKED:
                break  # never split a tie: which of them would be arbitrary
            picked += tied
        if not picked:
            return None
        chosen = {self._position[d] for d in picked}
        words = tuple(sorted(t for t in naming if chosen.intersection(self._holders(t, extra))))
        return DocumentPick(picked, words)

    def names(self, question: Question, doc_ids: Sequence[str] | None = None) -> tuple[str, ...]:
        """The question's capitalised words (past its first) that some document's profile holds
        and that belong to a name the title or file name of one of doc_ids (default: all) writes:
        in a library too small to pick documents by them, still what names a document ("PepsiCo"
        of PEPSICO_2021_10K.pdf, "American Water Works" of AMERICANWATERWORKS_2022_10K.pdf)
        rather than what to look for in it ("Los Angeles" and "San Diego" on the first page of an
        article titled "Southern California" are what the question is about)."""
        unframed = question.search.unframed
        capital: set[str] = set()
        for n, match in enumerate(_WORD.finditer(unframed.text)):
            word = match.group(0)
            if n > 0 and word[0].isupper():
                capital.update(tokenize(word))
        titles = [self.titles.get(d, ()) for d in (self.doc_ids if doc_ids is None else doc_ids)]
        titled = {t for name in unframed.names if _titled(name, titles) for t in tokenize(name)}
        return tuple(sorted(t for t in capital & titled if t in self.postings))

    def _period_scores(
        self, docs: Sequence[str], years: set[str], quarters: frozenset[int]
    ) -> dict[str, float]:
        """Among one company's filings: the one whose cover covers the asked year (and quarter)
        first, then those that merely mention the year."""
        covers = {f"{PERIOD_TERM}{y}" for y in years} | {
            f"{PERIOD_TERM}{y}q{q}" for y in years for q in quarters
        }
        covering = [{self.doc_ids[i] for i in self.postings.get(t, ())} for t in covers]
        mentioned = self._scores(docs, {y for y in years if y in self.postings})
        return {d: 10.0 * sum(d in c for c in covering) + mentioned[d] for d in docs}

    def _holders(self, term: str, extra: Mapping[str, set[int]]) -> set[int]:
        """The positions of the documents whose profile holds term, or whose title writes a name
        of the question that term is part of (extra: _titled_postings)."""
        return set(self.postings.get(term, ())) | extra.get(term, set())

    def _df(self, term: str, extra: Mapping[str, set[int]]) -> int:
        """How many documents hold term (see _holders)."""
        return len(self._holders(term, extra))

    def _titled_postings(self, names: Sequence[str]) -> dict[str, set[int]]:
        """The words of each name of the question with the documents whose title or file name
        writes it (_titled: "MGM Resorts" of MGMRESORTS_2018_10K.pdf), as more postings."""
        extra: dict[str, set[int]] = {}
        for name in names:
            found = {i for i, d in enumerate(self.doc_ids) if _titled(name, [self.titles.get(d, ())])}
            for term in tokenize(name) if found else ():
                extra.setdefault(term, set()).update(found)
        return extra

    def _scores(
        self, docs: Sequence[str], terms: set[str], extra: Mapping[str, set[int]] | None = None
    ) -> dict[str, float]:
        """Each of docs' summed idf of the terms its profile has."""
        n = len(self.doc_ids)
        scores = dict.fromkeys(docs, 0.0)
        for term in sorted(terms):  # a fixed order: equal sets of words give exactly equal sums
            holders = self._holders(term, extra or {})
            idf = math.log(n / len(holders))
            for i in sorted(holders):
                if self.doc_ids[i] in scores:
                    scores[self.doc_ids[i]] += idf
        return scores


def title_words(title: str) -> tuple[str, ...]:
    """A document's title and file name as lower-case runs of letters and digits."""
    return tuple(_ALNUM.findall(title.lower()))


def _titled(name: str, titles: Sequence[Sequence[str]]) -> bool:
    """Whether a name (lower case, "american water works") is written, without its spaces and
    marks, from the start of a word of one of the titles (title_words): "AMERICANWATERWORKS_2022"
    writes "American Water Works", "JPMorgan Chase & Co." writes "JPM" and "JPMorgan Chase"."""
    joined = "".join(_ALNUM.findall(name))
    if len(joined) < MIN_TITLE_NAME:
        return False
    return any("".join(words[i:]).startswith(joined) for words in titles for i in range(len(words)))


def _as_written(naming: set[str], text: str) -> set[str]:
    """The naming words, without those written only in lower case when the question capitalises a
    word past its first: it writes names that way, whether or not that name is on a cover
    ("immediately north of Luxor" names no document, though "immediately" and "north" are on two
    covers)."""
    capital: set[str] = set()
    lower: set[str] = set()
    for n, match in enumerate(_WORD.finditer(text)):
        word = match.group(0)
        if word.islower():
            lower.update(tokenize(word))
        elif n > 0 and word[0].isupper():
            capital.update(tokenize(word))
    if not capital:
        return naming
    return {t for t in naming if t in capital or t not in lower}


def build_profiles(library: Any, documents: Sequence[Any] | None = None) -> DocumentProfiles:
    """Profiles of every ready document of the library (or of these, read from it just before),
    for its current generation."""
    generation = library.generation
    profiles: dict[str, str] = {}
    titles: dict[str, str] = {}
    periods: dict[str, tuple[int, int | None] | None] = {}
    first = library.first_pages(PROFILE_PAGES) if hasattr(library, "first_pages") else None
    for doc in library.documents() if documents is None else documents:
        found = first.get(doc.doc_id, []) if first is not None else library.pages(doc.doc_id)[:PROFILE_PAGES]
        profiles[doc.doc_id] = profile_text(doc.title, doc.file_name, [p.text for p in found])
        titles[doc.doc_id] = f"{doc.title} {doc.file_name}"
        periods[doc.doc_id] = document_period([p.text for p in found])
    return DocumentProfiles(profiles, generation, periods, titles)


def profiles_for(library: Any) -> DocumentProfiles:
    """The profiles of library's current generation: its saved copy when that matches the
    documents, else built (and saved when data_dir is a writable folder)."""
    data_dir = getattr(library, "data_dir", None)
    if not isinstance(data_dir, Path):  # PostgreSQL's data_dir is the masked URL: nowhere to save
        return build_profiles(library)
    generation = library.generation
    documents = library.documents()
    postings = profile_store.load(data_dir, generation, documents, PROFILE_PAGES)
    if postings is not None:
        titles = {d.doc_id: f"{d.title} {d.file_name}" for d in documents}
        return DocumentProfiles.from_postings([d.doc_id for d in documents], postings, generation, titles)
    profiles = build_profiles(library, documents)
    if profiles.generation == generation == library.generation:  # nothing added or deleted meanwhile
        profile_store.save(data_dir, generation, documents, PROFILE_PAGES, profiles.postings)
    return profiles


class ProfileCache:
    """Holds the DocumentProfiles of one library, read or rebuilt when library.generation changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._profiles: DocumentProfiles | None = None
        self._owner: Any = None

    def get(self, library: Any) -> DocumentProfiles:
        """The profiles for library's current generation, built if needed."""
        generation = library.generation
        with self._lock:
            found = self._profiles
            if found is None or self._owner is not library or found.generation != generation:
                found = profiles_for(library)
                self._profiles, self._owner = found, library
            return found


def drew_on(answer: Answer) -> tuple[tuple[str, str], ...]:
    """(doc_id, title) of each document the answer's footnotes cite, in order of first citation."""
    seen: dict[str, str] = {}
    for footnote in answer.footnotes:
        ev = footnote.evidence
        seen.setdefault(ev.doc_id, " ".join((ev.title or ev.file_name).split()))
    return tuple(seen.items())
