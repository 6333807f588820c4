"""Analysts' shorthand in questions, spelled out the way filings write it: one small table.

``expand_question("What was the FY2018 capex?")`` returns the question followed by
``fiscal 2018 capital expenditures purchases of property and equipment``, so that word matching
(BM25, the offline answerer) finds the statement line, and ``fiscal_periods`` says which fiscal
year (and quarter) a question is about, so a table's year column can be picked.

The table holds only general accounting abbreviations as SEC filings and annual reports spell
them out (no company, data set or year in it). Ambiguous ones are left out: "CFO" (officer or
cash flow), "AR" (receivable or report), "OI".

``SYNONYMS`` holds the phrases analysts and filings use for one line item: "capital expenditures"
is printed as "Purchases of property and equipment" in most cash flow statements (and as
"Additions to property and equipment" in others), so a question with any of them, spelled out or
as its abbreviation, looks for all of them (``synonym_groups``: the words the question lacks are
added once), and holding one phrase whole is holding the concept (rag.questions.asked).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.text import tokenize

SHORTHAND: dict[str, str] = {
    "capex": "capital expenditures",
    "d&a": "depreciation and amortization",
    "pp&e": "property plant and equipment",
    "sg&a": "selling general and administrative expenses",
    "sm&a": "selling marketing and administrative expenses",
    "r&d": "research and development",
    "yoy": "year over year compared with prior year change",
    "qoq": "quarter over quarter compared with prior quarter change",
    "eps": "earnings per share",
    "opex": "operating expenses",
    "cogs": "cost of goods sold cost of sales",
    "fcf": "free cash flow",
    "ebit": "operating income earnings before interest and taxes",
    "ebitda": "earnings before interest taxes depreciation and amortization",
    "m&a": "mergers and acquisitions",
    "ocf": "net cash provided by operating activities operating cash flow",
    "10-k": "annual report form 10-k",
    "10-q": "quarterly report form 10-q",
}
SYNONYMS: tuple[tuple[str, ...], ...] = (
    (
        "capital expenditures",
        "purchases of property and equipment",  # also holds "Purchases of property, plant and equipment"
        "additions to property and equipment",
    ),
)
_QUARTER_WORDS = ("first", "second", "third", "fourth")
# "capex", "D&A", "PP&E": whole tokens only (letters, digits, & and -), case-insensitive.
_TOKEN = re.compile(r"(?<![\w&-])[A-Za-z0-9][\w&-]*(?![\w&])")
_YEAR = r"((?:19|20)\d\d|'?\d\d)"
_PERIODS = [
    # Q2 FY24, Q2 FY2024, Q2 2024, Q2 fiscal 2024
    (re.compile(rf"\bQ([1-4])\s*(?:FY|fiscal(?:\s+year)?)?\s*{_YEAR}\b", re.IGNORECASE), True),
    # 2Q24, 2Q 2024
    (re.compile(rf"\b([1-4])Q\s*{_YEAR}\b", re.IGNORECASE), True),
    # FY2018, FY 18, FY'18, fiscal 2018, fiscal year 2018
    (re.compile(rf"\b(?:FY|fiscal(?:\s+year)?)\s*{_YEAR}\b", re.IGNORECASE), False),
]


@dataclass(frozen=True)
class Period:
    """A fiscal year, and the quarter (1-4) when the question names one."""

    year: int
    quarter: int | None = None

    def words(self) -> str:
        """How filings write it: "fiscal 2018 2018", "second quarter Q2 fiscal 2024 2024"."""
        base = f"fiscal {self.year} {self.year}"
        if self.quarter is None:
            return base
        return f"{_QUARTER_WORDS[self.quarter - 1]} quarter Q{self.quarter} {base}"


def year_of(raw: str) -> int:
    """A year as a question writes it: "2024", "24" or "'24" (this century)."""
    digits = raw.lstrip("'")
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


def fiscal_periods(text: str) -> tuple[Period, ...]:
    """The fiscal periods a question names, in order of appearance, without repeats."""
    found: list[tuple[int, Period]] = []
    taken: list[range] = []
    for pattern, has_quarter in _PERIODS:
        for match in pattern.finditer(text):
            if any(match.start() in r for r in taken):
                continue
            taken.append(range(match.start(), match.end()))
            if has_quarter:
                period = Period(year_of(match.group(2)), int(match.group(1)))
            else:
                period = Period(year_of(match.group(1)))
            found.append((match.start(), period))
    return tuple(dict.fromkeys(p for _, p in sorted(found, key=lambda item: item[0])))


def _holds_run(terms: list[str], phrase: list[str]) -> bool:
    n = len(phrase)
    return any(terms[i : i + n] == phrase for i in range(len(terms) - n + 1))


def synonym_groups(text: str) -> list[tuple[str, ...]]:
    """The SYNONYMS groups one of whose phrases text holds (its content words in a row, stemmed:
    "capital expenditure" holds "capital expenditures"), in table order."""
    terms = tokenize(text)
    return [g for g in SYNONYMS if any(_holds_run(terms, tokenize(p)) for p in g)]


def expansions(text: str, periods: bool = True) -> list[str]:
    """The spelled-out forms of the shorthand, the other phrases of its synonyms and (unless not
    periods) the periods in text, in order of appearance (synonyms of spelled-out phrases after
    the shorthand)."""
    out = [SHORTHAND[t.group(0).lower()] for t in _TOKEN.finditer(text) if t.group(0).lower() in SHORTHAND]
    for group in synonym_groups(" ".join([text, *out])):
        out += [p for p in group if p not in out]
    if periods:
        out += [p.words() for p in fiscal_periods(text)]
    return list(dict.fromkeys(out))


def expand_question(text: str, periods: bool = True) -> str:
    """The question with its shorthand spelled out after it (unchanged when there is none); with
    periods, its fiscal periods spelled out too ("fiscal 2018 2018")."""
    extra = expansions(text, periods)
    return f"{text} {' '.join(extra)}" if extra else text
