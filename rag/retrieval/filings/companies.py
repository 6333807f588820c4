"""Which documents of a library are one company's filings, and the short names a question may
give that company.

Filings are one company's when their covers share an identifier (employer identification
number, Commission file number, trading symbol, the registrant's name: rag.retrieval.filings.covers), so
a FY2016 cover that prints no trading symbol still joins the company's later filings that do.
A document whose first pages identify no filer is a company of its own.

Analysts write companies short: the initials of the name's words ("KHC" for The Kraft Heinz
Company, "J&J"), its words' prefixes run together ("AmWater" for American Water Works), the start
of its first word ("Pepsi"), or a brand the company's filings write on many pages ("Coke").
The first three are read against the names the filings give themselves (registrant, title,
file name); a brand, against the library's own text (brand_companies). No list of names.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rag.retrieval.filings.covers import Cover

MIN_PART = 2  # letters of each camel-case part: "Am" of American
MIN_PREFIX = 4  # a shortened first word keeps at least this many letters: "Pepsi", not "Pe"
# A brand: among the BRAND_POOL passages that best match the word, those writing it as the
# question does (its capitals), on at least BRAND_PAGES pages, BRAND_SHARE of them one company's.
# Measured on filings-dev's 51 filings: "Coke" 24 of 30 such passages are Coca-Cola's (AES
# writes "Pet Coke"), "Pepsi" 41 of 42, "Jordan" 27 AES to 18 Nike (no brand).
BRAND_POOL = 50
BRAND_PAGES = 5
BRAND_SHARE = 2 / 3
_PARTS = re.compile(r"[A-Z][a-z]+|[A-Z]+(?![a-z])|[a-z]+")
_ALNUM = re.compile(r"[a-z0-9]+")
_SKIPPED = frozenset({"the"})  # "The Kraft Heinz Company": KHC
# The words of a registrant's name that say what kind of entity it is, not which: legal forms and
# the generic words beside them. They are initials of a name ("KHC") but name no company alone.
ENTITY_WORDS = frozenset(
    "the and of company companies co corporation corp incorporated inc holdings holding group "
    "international plc ltd limited llc lp sa ag nv se".split()
)


def company_of(covers: Sequence[Cover], stems: Sequence[Sequence[str]] = ()) -> list[int]:
    """The company number of each document (by position): documents sharing a cover key or a
    registrant name are one company (transitively); of those whose cover has neither, the ones
    whose file names start with the same words (stems: "KESTRELMINING_2018_10K.pdf"), unless most
    of the library's do ("report-1.pdf" names no one); any other document is its own."""
    parent = list(range(len(covers)))
    common = Counter(" ".join(s) for s in stems)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for i, cover in enumerate(covers):
        name = "".join(_ALNUM.findall(cover.name.lower()))
        keys = [*cover.keys, *([f"name:{name}"] if len(name) >= MIN_PREFIX else [])]
        stem = " ".join(stems[i]) if i < len(stems) else ""
        shared = stem and common[stem] <= len(covers) / 2
        for key in keys or ([f"stem:{stem}"] if shared else []):
            if key in first:
                parent[root(i)] = root(first[key])
            else:
                first[key] = i
    roots: dict[int, int] = {}
    return [roots.setdefault(root(i), len(roots)) for i in range(len(covers))]


def name_words(text: str) -> tuple[str, ...]:
    """A name as lower-case runs of letters and digits ("JPMorgan Chase & Co." -> jpmorgan chase co)."""
    return tuple(_ALNUM.findall(text.lower()))


def abbreviates(written: str, names: Sequence[Sequence[str]]) -> bool:
    """Whether a word as the question writes it shortens one of the names (name_words): its
    capitals are the initials of consecutive words ("KHC", "J&J"), its camel-case parts start
    consecutive words ("AmWater"), or it starts the name's first word ("Pepsi" of PepsiCo)."""
    letters = re.sub(r"[&.'-]", "", written)
    if not letters.isalpha():
        return False
    if letters.isupper() and len(letters) >= 2:
        return any(_initials(letters.lower(), _named(n)) for n in names)
    parts = [p.lower() for p in _PARTS.findall(letters)]
    if len(parts) >= 2 and all(len(p) >= MIN_PART for p in parts):
        return any(_prefixes(parts, _named(n)) for n in names)
    word = letters.lower()
    return len(word) >= MIN_PREFIX and any(
        (n := _named(name)) and n[0] != word and n[0].startswith(word) for name in names
    )


def _named(name: Sequence[str]) -> tuple[str, ...]:
    return tuple(w for w in name if w not in _SKIPPED)


def _initials(letters: str, words: Sequence[str]) -> bool:
    n = len(letters)
    return any("".join(w[0] for w in words[i : i + n]) == letters for i in range(len(words) - n + 1))


def _prefixes(parts: Sequence[str], words: Sequence[str]) -> bool:
    n = len(parts)
    return any(
        all(words[i + j].startswith(p) for j, p in enumerate(parts)) for i in range(len(words) - n + 1)
    )


def brand_companies(
    written: str, search: Callable[[str, int], Sequence[tuple[Any, float]]], company: Mapping[str, int]
) -> set[int]:
    """The company whose filings write this word (as written, capitals and all) on many pages, and
    few others do (see BRAND_SHARE): a brand names its filer ("Coke"). Empty when none does."""
    pattern = re.compile(rf"(?<![\w&]){re.escape(written)}(?![\w&])")
    pages: Counter[int] = Counter()
    seen: set[tuple[str, int]] = set()
    for chunk, _ in search(written, BRAND_POOL):
        page = (chunk.doc_id, chunk.locators[0].page_index if chunk.locators else chunk.ordinal)
        if chunk.doc_id in company and page not in seen and pattern.search(chunk.text):
            seen.add(page)
            pages[company[chunk.doc_id]] += 1
    if not pages:
        return set()
    best, count = pages.most_common(1)[0]
    return {best} if count >= BRAND_PAGES and count >= BRAND_SHARE * sum(pages.values()) else set()
