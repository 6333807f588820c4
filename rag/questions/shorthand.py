"""Analysts' shorthand in questions, spelled out the way filings write it: one small table.

``expand_question("What was the FY2018 capex?")`` returns the question followed by
``fiscal 2018 capital expenditures purchases of property and equipment``, so that word matching
(BM25, the offline answerer) finds the statement line; the fiscal periods come from the one period
reader (rag.questions.periods).

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

from rag.questions.periods import Periods, read_periods
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
# "capex", "D&A", "PP&E": whole tokens only (letters, digits, & and -), case-insensitive.
_TOKEN = re.compile(r"(?<![\w&-])[A-Za-z0-9][\w&-]*(?![\w&])")


def _holds_run(terms: list[str], phrase: list[str]) -> bool:
    n = len(phrase)
    return any(terms[i : i + n] == phrase for i in range(len(terms) - n + 1))


def synonym_groups(text: str) -> list[tuple[str, ...]]:
    """The SYNONYMS groups one of whose phrases text holds (its content words in a row, stemmed:
    "capital expenditure" holds "capital expenditures"), in table order."""
    terms = tokenize(text)
    return [g for g in SYNONYMS if any(_holds_run(terms, tokenize(p)) for p in g)]


def expansions(text: str, periods: bool = True, read: Periods | None = None) -> list[str]:
    """The spelled-out forms of the shorthand, the other phrases of its synonyms and (unless not
    periods) the periods in text, in order of appearance (synonyms of spelled-out phrases after
    the shorthand). read: text's periods when already read (a question's, carried to this part)."""
    out = [SHORTHAND[t.group(0).lower()] for t in _TOKEN.finditer(text) if t.group(0).lower() in SHORTHAND]
    for group in synonym_groups(" ".join([text, *out])):
        out += [p for p in group if p not in out]
    if periods:
        out += [p.search_words() for p in (read if read is not None else read_periods(text)).fiscal]
    return list(dict.fromkeys(out))


def expand_question(text: str, periods: bool = True, read: Periods | None = None) -> str:
    """The question with its shorthand spelled out after it (unchanged when there is none); with
    periods, its fiscal periods spelled out too ("fiscal 2018 2018"; read: as expansions)."""
    extra = expansions(text, periods, read)
    return f"{text} {' '.join(extra)}" if extra else text
