"""The period a filing's cover says it covers (year, and quarter for a quarterly report), and the
profile terms it adds to the document's profile (rag/retrieval/documents.py)."""

from __future__ import annotations

import re
from collections.abc import Sequence

PERIOD_TERM = "period:"  # never an index term (the tokenizer splits at ':'): a cover's period
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
# A cover's period: "For the fiscal year ended December 31, 2018", "For the quarterly period ended
# June 30, 2022" (a few words of another column may come between, as pdfium reads some covers).
_PERIOD_ENDED = re.compile(
    r"\bfor\s+the\s+(fiscal\s+year|year|quarterly\s+period|quarter|fiscal\s+quarter)\s+ended\b"
    r"[^.]{0,40}?\b([a-z]{3})[a-z]*\.?\s+\d{1,2}\s*,\s*((?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# A results release: "2023 Second-Quarter", "second quarter 2023".
_QUARTER_RESULTS = re.compile(
    r"\b(?:((?:19|20)\d\d)\s+(first|second|third|fourth)[- ]quarter|"
    r"(first|second|third|fourth)[- ]quarter\s+(?:of\s+)?((?:19|20)\d\d))\b",
    re.IGNORECASE,
)
_ORDINALS = ("first", "second", "third", "fourth")


def document_period(first_pages: Sequence[str]) -> tuple[int, int | None] | None:
    """(year, quarter or None) of the period a filing's cover says it covers, or None. A quarter is
    the calendar quarter its end month falls in (fiscal quarters of other year ends differ; it
    only breaks ties between one company's quarterly reports)."""
    text = " ".join(" ".join(first_pages).split())
    found = _PERIOD_ENDED.search(text)
    if found and found.group(2).lower() in _MONTHS:
        quarterly = "quarter" in found.group(1).lower()
        month = _MONTHS.index(found.group(2).lower()) + 1
        return int(found.group(3)), ((month - 1) // 3 + 1) if quarterly else None
    results = _QUARTER_RESULTS.search(text)
    if results:
        year = results.group(1) or results.group(4)
        ordinal = (results.group(2) or results.group(3)).lower()
        return int(year), _ORDINALS.index(ordinal) + 1
    return None


def period_terms(period: tuple[int, int | None] | None) -> list[str]:
    """The profile terms a cover's period adds: its year, and its year and quarter."""
    if period is None:
        return []
    year, quarter = period
    return [f"{PERIOD_TERM}{year}"] + ([f"{PERIOD_TERM}{year}q{quarter}"] if quarter else [])
