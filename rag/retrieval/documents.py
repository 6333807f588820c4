"""Which documents a question names: the companies its naming words pick (rag/retrieval/filings/profiles.py
profiles each document and groups one filer's documents into a company), then, among each
named company's filings, the one of the period and form the question asks for
(rag/retrieval/filings/periods.py).

The rule, which keeps a library of unnamed documents unaffected: a question word *names* a
company when it occurs in at least one company's profiles and in at most ``NAMING_SHARE`` of the
companies (in a library of at least ``1 / NAMING_SHARE`` documents, one company of several always
may be named; in a smaller library none is). Each company scores the summed IDF of the naming
words in its profiles; the companies within ``PICK_SHARE`` of the best score are picked, best
first, at most ``MAX_PICKED`` and never part of a tie. A word in no profile may still name a
company as a short form of its name or as its brand (rag.retrieval.filings.companies). Retrieval then
searches only the picked documents (rag.retrieval.retrieve).

Years and quarters say which of a company's filings, not which company: they choose among a
named company's filings (a filing of another period only when the asked one's is not in the
library: DocumentPick.missing), and when no company is named they pick the filings of that period
alone. A question that writes a word with a capital (past its first word) writes names that way:
a naming word it writes only in lower case is then an ordinary word ("any material legal
proceedings" does not name Kestrel Bay Materials). Why each rule, and what it changed:
bench/README.md, "How the rules were found".
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ingest.types import LibraryReader
from rag.questions.periods import Period
from rag.questions.read import Question
from rag.questions.shorthand import SHORTHAND
from rag.retrieval.filings.companies import abbreviates, brand_companies
from rag.retrieval.filings.periods import Filing, choose, filing_span, missing_line, year_end
from rag.retrieval.filings.profiles import DocumentProfiles
from rag.retrieval.lexical import tokenize
from rag.types import Answer

NAMING_SHARE = 0.2  # a word in more than a fifth of the companies is the library's, not a name
PICK_SHARE = 0.5  # companies scoring at least half the best score stay in the running
MAX_PICKED = 3  # companies a question may name (and documents a year alone may pick)
_WORD = re.compile(r"[A-Za-z0-9][\w&'-]*")
_PERIOD_TERM = re.compile(r"(?:19|20)\d\d|q[1-4]|[1-4]q\d*|fy\d+")  # "2021", "q2", "2q23", "fy2019"
_SENTENCE_START = re.compile(r"[.?!]\s+$")  # the text before a later sentence's first word
# A shorter name ("AM", "US") would start too many titles' words. The same length as the answer
# check's acronym match (rag.offline.rules.held: _holds_name); not measured apart.
MIN_TITLE_NAME = 3

Search = Callable[[str, int], Sequence[tuple[Any, float]]]


@dataclass(frozen=True)
class DocumentPick:
    """The documents a question names, best first, the words that named them, and the period the
    question asks for when the library holds no filing of it (the pick then has another)."""

    doc_ids: tuple[str, ...]
    words: tuple[str, ...]
    missing: Period | None = None


def pick_documents(
    profiles: DocumentProfiles,
    question: Question,
    doc_ids: Sequence[str] | None = None,
    search: Search | None = None,
) -> DocumentPick | None:
    """The documents the question names (among doc_ids), or None (see the module docstring).
    search: the library's lexical search, for a brand the question writes (optional)."""
    docs = [d for d in (doc_ids if doc_ids is not None else profiles.doc_ids) if d in profiles.position]
    if len(docs) <= MAX_PICKED:
        return None
    positions = [profiles.position[d] for d in docs]
    members: dict[int, list[int]] = {}
    for i in positions:
        members.setdefault(profiles.company[i], []).append(i)
    named, found = _named(profiles, question, set(members), search)
    if named:
        chosen: list[str] = []
        undated: list[int] = []
        missing = None
        for group in _alike(named, found):  # companies named by the same words are read as one
            together = [i for company in group for i in members[company]]
            choice = choose(_filings(profiles, together), question.periods)
            chosen += choice.doc_ids if choice else []
            undated += [] if choice else together
            missing = missing or (choice.missing if choice else None)
        chosen += _by_mention(profiles, undated, _years(question))
        words = tuple(sorted(t for t, c in found.items() if set(named) & c))
        return DocumentPick(tuple(dict.fromkeys(chosen)), words, missing)
    found = [
        d
        for company in members.values()
        if (choice := choose(_filings(profiles, company), question.periods, fallback=False))
        for d in choice.doc_ids
    ]
    if 0 < len(found) <= MAX_PICKED:  # no company named: the filings of the asked period
        return DocumentPick(tuple(found), ())
    return _by_years(profiles, question, docs)


def fiscal_year_ends(profiles: DocumentProfiles, doc_ids: Sequence[str]) -> dict[str, int]:
    """Each document's company's fiscal year end, a 0-based month read from its annual covers
    (rag.retrieval.filings.periods.year_end), for the documents profiled."""
    ends: dict[str, int] = {}
    for doc_id in doc_ids:
        if doc_id in profiles.position and doc_id not in ends:
            company = profiles.company[profiles.position[doc_id]]
            covers = [profiles.covers[i] for i, c in enumerate(profiles.company) if c == company]
            ends[doc_id] = year_end(covers)
    return ends


def _filings(profiles: DocumentProfiles, positions: Sequence[int]) -> list[Filing]:
    covers = [profiles.covers[i] for i in positions]
    fy_end = year_end(covers)
    return [Filing(profiles.doc_ids[i], c.form, filing_span(c, fy_end), c) for i, c in zip(positions, covers)]


def _named(
    profiles: DocumentProfiles, question: Question, among: set[int], search: Search | None
) -> tuple[list[int], dict[str, set[int]]]:
    """The companies (among these) the question's naming words pick, best first, and the words
    with the companies each names:
    words of the companies' own names (registrant, symbol, file name) first; failing those, a
    word in no profile that shortens a name or is a brand; failing those, their first pages' words."""
    naming = question.search.naming
    companies = len(set(profiles.company))
    limit = NAMING_SHARE * companies
    if companies > 1 and len(profiles.doc_ids) * NAMING_SHARE >= 1:
        limit = max(limit, 1)
    written = [t for w in naming.written for t in tokenize(w)]  # instructions' names too
    tokens = [t for t in dict.fromkeys([*tokenize(naming.text), *written]) if not _PERIOD_TERM.fullmatch(t)]
    extra = _titled_companies(profiles, naming.names)
    held = {t: profiles.named_by.get(t, set()) | extra.get(t, set()) for t in tokens}
    found = _naming(held, limit, naming.text)
    if not found:
        unknown = [w for w in naming.written if not any(profiles.postings.get(t) for t in tokenize(w))]
        short = {w: {c for c in among if abbreviates(w, profiles.names(c))} for w in unknown}
        short = {w: c for w, c in short.items() if 0 < len(c) <= limit}
        if not short and search is not None:
            company = {d: profiles.company[i] for d, i in profiles.position.items()}
            short = {w: hit for w in unknown if (hit := brand_companies(w, search, company) & among)}
        found = {t: c for w, c in short.items() for t in tokenize(w) or [w.lower()]}
    if not found:  # the words of their first pages
        held = {t: {profiles.company[i] for i in profiles.postings.get(t, ())} for t in tokens}
        found = _naming(held, limit, naming.text)
    scores: dict[int, float] = dict.fromkeys(among, 0.0)
    _add(scores, [found[t] for t in sorted(found)], companies)
    return _best(scores), found


def _alike(named: Sequence[int], found: Mapping[str, set[int]]) -> list[list[int]]:
    """The named companies grouped by the words that name them, in order: a company's filings
    whose covers identify no filer are each a company of their own, named alike."""
    groups: dict[frozenset[str], list[int]] = {}
    for company in named:
        groups.setdefault(frozenset(t for t, c in found.items() if company in c), []).append(company)
    return list(groups.values())


def _naming(held: Mapping[str, set[int]], limit: float, text: str) -> dict[str, set[int]]:
    """The terms that name companies (in 1..limit of them), as the question writes names."""
    kept = _as_written({t for t, c in held.items() if 0 < len(c) <= limit}, text)
    return {t: held[t] for t in kept}


def _add(scores: dict[int, float], holders: Sequence[set[int]], companies: int) -> None:
    """Each company holding a word scores its idf (in a fixed order: equal sets give equal sums)."""
    for found in holders:
        for c in sorted(found):
            if c in scores:
                scores[c] += math.log(companies / len(found)) if companies > 1 else 1.0


def _best(scores: dict[int, float]) -> list[int]:
    """The companies within PICK_SHARE of the best score, best first; never part of a tie."""
    best = max(scores.values(), default=0.0)
    if best <= 0:
        return []
    picked: list[int] = []
    for value in sorted({s for s in scores.values() if s >= PICK_SHARE * best}, reverse=True):
        tied = sorted(c for c, s in scores.items() if s == value)
        if len(picked) + len(tied) > MAX_PICKED:
            break  # never split a tie: which of them would be arbitrary
        picked += tied
    return picked


def _years(question: Question) -> set[str]:
    """The question's years and quarters as index terms ("2021", "q2")."""
    return {t for t in tokenize(question.search.naming.text) if _PERIOD_TERM.fullmatch(t)}


def _by_mention(profiles: DocumentProfiles, positions: Sequence[int], years: set[str]) -> list[str]:
    """Documents whose covers give no period, those whose profiles hold more of the years first."""
    held = {i: sum(i in profiles.postings.get(t, ()) for t in years) for i in positions}
    return [profiles.doc_ids[i] for i in sorted(positions, key=lambda i: -held[i])]


def _by_years(profiles: DocumentProfiles, question: Question, docs: Sequence[str]) -> DocumentPick | None:
    """With no company named and no cover of the asked period: the documents whose profiles hold
    the question's years (a library of documents without covers), when few do."""
    years = _years(question)
    n = len(profiles.doc_ids)
    years = {t for t in years if 0 < len(profiles.postings.get(t, ())) <= NAMING_SHARE * n}
    scores = dict.fromkeys(docs, 0.0)
    for term in sorted(years):
        holders = profiles.postings[term]
        for i in holders:
            if profiles.doc_ids[i] in scores:
                scores[profiles.doc_ids[i]] += math.log(n / len(holders))
    best = max(scores.values(), default=0.0)
    top = tuple(d for d in docs if best > 0 and scores[d] >= PICK_SHARE * best)
    return DocumentPick(top, tuple(sorted(years))) if 0 < len(top) <= MAX_PICKED else None


def small_library_names(
    profiles: DocumentProfiles, question: Question, doc_ids: Sequence[str] | None = None
) -> tuple[str, ...]:
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
    titles = [profiles.titles.get(d, ()) for d in (profiles.doc_ids if doc_ids is None else doc_ids)]
    titled = {t for name in unframed.names if _titled(name, titles) for t in tokenize(name)}
    return tuple(sorted(t for t in capital & titled if t in profiles.postings))


def _titled_companies(profiles: DocumentProfiles, names: Sequence[str]) -> dict[str, set[int]]:
    """The words of each name of the question with the companies whose own names write it, its
    words run together or not (_titled: "MGM Resorts" of MGMRESORTS_2018_10K.pdf)."""
    extra: dict[str, set[int]] = {}
    for name in names:
        found = {c for c in set(profiles.company) if _titled(name, profiles.names(c))}
        for term in tokenize(name) if found else ():
            extra.setdefault(term, set()).update(found)
    return extra


def _titled(name: str, titles: Sequence[Sequence[str]]) -> bool:
    """Whether a name (lower case, "american water works") is written, without its spaces and
    marks, from the start of a word of one of the titles (title words): "AMERICANWATERWORKS_2022"
    writes "American Water Works", "JPMorgan Chase & Co." writes "JPM" and "JPMorgan Chase"."""
    joined = "".join(re.findall(r"[a-z0-9]+", name))
    if len(joined) < MIN_TITLE_NAME:
        return False
    return any("".join(words[i:]).startswith(joined) for words in titles for i in range(len(words)))


def _as_written(naming: set[str], text: str) -> set[str]:
    """The naming words, without those written only in lower case when the question capitalises a
    word past its first: it writes names that way, whether or not that name is on a cover
    ("immediately north of Luxor" names no document, though "immediately" and "north" are on two
    covers). A later sentence's first word is an ordinary word unless a capitalised word follows it,
    as rag.questions.terms reads names ("Two decimals." names no document), and an analyst's
    shorthand is one too ("EPS" names no document, though two covers print it)."""
    capital: set[str] = set()
    lower: set[str] = set()
    found = list(_WORD.finditer(text))
    for n, match in enumerate(found):
        word = match.group(0)
        following = found[n + 1].group(0) if n + 1 < len(found) else ""
        opens = _SENTENCE_START.search(text[: match.start()]) and not following[:1].isupper()
        if word.islower() or opens or word.lower() in SHORTHAND:
            lower.update(tokenize(word))
        elif n > 0 and word[0].isupper():
            capital.update(tokenize(word))
    if not capital:
        return naming
    return {t for t in naming if t in capital or t not in lower}


def period_note(library: LibraryReader, profiles: DocumentProfiles, pick: DocumentPick | None) -> str:
    """The answer's line for a pick made without a filing of the asked period, else ""."""
    if pick is None or pick.missing is None:
        return ""
    used = []
    for doc_id in pick.doc_ids:
        doc = library.document(doc_id)
        if doc is not None:
            used.append((doc.file_name or doc.title, profiles.covers[profiles.position[doc_id]]))
    return missing_line(pick.missing, used) if used else ""


def drew_on(answer: Answer) -> tuple[tuple[str, str], ...]:
    """(doc_id, title) of each document the answer's footnotes cite, in order of first citation."""
    seen: dict[str, str] = {}
    for footnote in answer.footnotes:
        ev = footnote.evidence
        seen.setdefault(ev.doc_id, " ".join((ev.title or ev.file_name).split()))
    return tuple(seen.items())
