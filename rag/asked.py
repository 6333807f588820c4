"""A question read for the offline answerer: its concepts (content words, with analysts' shorthand
spelled out as alternatives), the fiscal years it names, the other numbers it names, and whether
it asks for an amount."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.shorthand import SHORTHAND, fiscal_periods
from rag.text import tokenize, words

# Questions whose answer is an amount, a count or a duration; a question naming a fiscal period
# asks for that period's figure too.
_QUANTITY = re.compile(
    r"\b(how (much|many|long|old|far|often|large|big)|amount|total|number of|pay|pays|"
    r"paid|cost|costs|price|percent|percentage|rate)\b",
    re.IGNORECASE,
)
_SHORTHAND_TOKEN = re.compile(r"(?<![\w&-])[A-Za-z0-9][\w&-]*(?![\w&])")
_PERIOD_WORD = re.compile(r"^(fy\d*|q[1-4]|[1-4]q\d*|fiscal|year|end|ended|ending)$")
# "the fiscal year ended December 31, 2022": the year is the period asked for, the day is no figure.
_DATE_YEAR = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?\s+"
    r"((?:19|20)\d\d)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Question:
    """The question read for scoring: concepts (alternative terms each), fiscal years, numbers."""

    concepts: tuple[frozenset[str], ...]
    years: tuple[int, ...]
    numbers: frozenset[str]
    amount: bool


def read_question(question: str) -> Question:
    """The question's concepts: each shorthand term with its spelled-out words as alternatives,
    each other content word alone; its fiscal years; the other numbers it names."""
    concepts: list[frozenset[str]] = []
    taken: set[str] = set()
    for match in _SHORTHAND_TOKEN.finditer(question):
        key = match.group(0).lower()
        if key in SHORTHAND:
            concepts.append(frozenset(tokenize(SHORTHAND[key])) | frozenset(tokenize(key)))
            taken.update(tokenize(key))
    dated = [int(m.group(1)) for m in _DATE_YEAR.finditer(question)]
    question = _DATE_YEAR.sub(" ", question)
    years = tuple(dict.fromkeys([p.year for p in fiscal_periods(question)] + dated))
    if years:
        taken.update(t for w in words(question) if _PERIOD_WORD.match(w) for t in tokenize(w))
        taken.update(str(y) for y in years)
        taken.update(str(y)[2:] for y in years)
    plain = [t for t in dict.fromkeys(tokenize(question)) if t not in taken]
    concepts += [frozenset([t]) for t in plain]
    numbers = frozenset(t for t in plain if any(ch.isdigit() for ch in t))
    return Question(tuple(concepts), years, numbers, bool(_QUANTITY.search(question) or years))
