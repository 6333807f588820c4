"""Which filing a question asks about: the periods it names (fiscal years, quarters, half-years,
months and dates, year ranges) and the form of filing (annual, quarterly or current report, an
earnings release), read from the whole question, instructions too ("Use FY2019.").

Retrieval picks a company's filing by them (rag.retrieval.filings.periods). These are the ways English
and analysts write periods (FY2019, fiscal 2019, Q3 2022, 2Q23, the second quarter of 2021,
first-half 2023, May 25, 2023, 2018-2020, 2013 to 2015) and the SEC's form names; no data set's
words. A year written as a maturity ("notes due 2025", "the 2030 Notes") is no period asked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.questions.shorthand import year_of

_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
_MONTH = (
    r"(january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
)
_ORDINAL = r"(first|second|third|fourth|1st|2nd|3rd|4th)"
_Y4 = r"((?:19|20)\d\d)"
_YY = r"'?((?:19|20)\d\d|\d\d)"  # 2024, 24, '24
_YQ = r"((?:19|20)\d\d|'\d\d)"  # after a quarter's or half's ordinal: 2024, '24 (not "25 stores")
_FISCAL = r"(?:FY|fiscal(?:\s+year)?)"
# (pattern, what its groups are): read in this order; a later pattern skips text an earlier read.
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), kind)
    for p, kind in (
        (rf"\b{_MONTH}\s+(\d{{1,2}}),?\s+{_Y4}\b", "month day year"),
        (rf"\b(?:start|beginning)\s+of\s+(?:{_FISCAL}\s*)?{_Y4}\b", "start"),
        (rf"\b{_ORDINAL}[\s-]+half\s+(?:of\s+)?(?:{_FISCAL}\s*)?{_YQ}\b", "half year"),
        (rf"\b(?:H([12])|([12])H)\s*(?:{_FISCAL}\s*)?{_YY}\b", "h year"),
        (rf"\b{_ORDINAL}[\s-]+(?:fiscal[\s-]+)?quarter\s+(?:of\s+)?(?:{_FISCAL}\s*)?{_YQ}\b", "ordinal year"),
        (rf"\b{_Y4}\s+{_ORDINAL}[\s-]+(?:fiscal[\s-]+)?quarter\b", "year ordinal"),
        (rf"\bQ([1-4])\s*(?:of\s+)?(?:{_FISCAL}\s*)?{_YY}\b", "quarter year"),
        (rf"\b([1-4])Q\s*{_YY}\b", "quarter year"),
        (rf"\b{_Y4}\s*Q([1-4])\b", "year quarter"),
        (rf"\b{_MONTH}\s+{_Y4}\b", "month year"),
        (rf"\b{_FISCAL}\s*{_YY}\b", "year"),
        (rf"(?<![\d.$])\b{_Y4}\b(?!\s*(?:notes?|senior|debentures?|bonds?)\b)", "year"),
    )
)
# "notes due 2025", "maturing in 2030": the year of a maturity, not of the period asked.
_MATURITY = re.compile(r"\b(?:due|matur\w*|expir\w*)\s+(?:in\s+)?(?:\w+\.?\s+(?:\d{1,2},?\s+)?)?$", re.I)
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
# "2018-2020", "2013 to 2015", "between 2019 and 2021", "FY2018 - FY2020": both ends and the years between.
_RANGE = re.compile(
    rf"\b(?:{_FISCAL}\s*)?{_Y4}\s*(?:-|–|to|through|and)\s*(?:{_FISCAL}\s*)?{_Y4}\b",  # noqa: RUF001
    re.IGNORECASE,
)
# Each form of filing: its name, how a question names it, and the words it is written with (they
# name the document, not what to look for in it: rag.retrieval.retrieve; a release keeps
# "earnings", which may be what a question asks about).
_FORMS = (
    ("8-K", re.compile(r"\b8-?K\b|\bcurrent\s+report\b", re.I), "8-K current report form"),
    ("10-Q", re.compile(r"\b10-?Q\b|\bquarterly\s+report\b", re.I), "10-Q quarterly report form"),
    ("10-K", re.compile(r"\b10-?K\b|\bannual\s+report\b", re.I), "10-K annual report form"),
    ("release", re.compile(r"\b(?:earnings|press|news|results)\s+release\b", re.I), "release"),
)
FORM_WORDS = {name: written for name, _, written in _FORMS}


@dataclass(frozen=True, order=True)
class PeriodAsked:
    """A period a question names: a fiscal year, a fiscal quarter of it (a half-year asks for its
    second or fourth quarter, whose report covers it), or a calendar month (and day) within a year."""

    year: int
    quarter: int = 0
    month: int = 0
    day: int = 0

    def words(self) -> str:
        """The period as a reader writes it: "FY2019", "Q2 FY2023", "May 25, 2023", "May 2023"."""
        if self.month:
            name = _MONTH_NAMES[self.month - 1]
            return f"{name} {self.day}, {self.year}" if self.day else f"{name} {self.year}"
        return f"Q{self.quarter} FY{self.year}" if self.quarter else f"FY{self.year}"


_MONTH_NAMES = "January February March April May June July August September October November December".split()


@dataclass(frozen=True)
class FilingAsked:
    """The periods a question names (in order of appearance, no repeats; the years between a
    range's ends included) and the form of filing it names ("10-K", "10-Q", "8-K", "release"
    or "")."""

    periods: tuple[PeriodAsked, ...] = ()
    form: str = ""

    @property
    def form_words(self) -> str:
        """The words the form asked for is written with ("10-K annual report form"), or ""."""
        return FORM_WORDS.get(self.form, "")


def _period(kind: str, groups: tuple[str | None, ...]) -> PeriodAsked | None:
    g = [x for x in groups if x is not None]
    if kind == "month day year":
        return PeriodAsked(int(g[2]), month=_month(g[0]), day=int(g[1]))
    if kind == "month year":
        return PeriodAsked(int(g[1]), month=_month(g[0]))
    if kind == "start":  # the start of a year is the end of the one before
        return PeriodAsked(int(g[0]) - 1, month=12, day=31)
    if kind in ("half year", "h year"):
        half = _ORDINALS.get(g[0].lower(), 0) or int(g[0])
        return PeriodAsked(year_of(g[1]), quarter=2 * half) if half in (1, 2) else None
    if kind == "ordinal year":
        return PeriodAsked(year_of(g[1]), quarter=_ORDINALS[g[0].lower()])
    if kind == "year ordinal":
        return PeriodAsked(int(g[0]), quarter=_ORDINALS[g[1].lower()])
    if kind == "quarter year":
        return PeriodAsked(year_of(g[1]), quarter=int(g[0]))
    if kind == "year quarter":
        return PeriodAsked(int(g[0]), quarter=int(g[1]))
    return PeriodAsked(year_of(g[0]))


def _month(name: str) -> int:
    return _MONTHS.index(name.lower()[:3]) + 1


def read_filing_asked(text: str) -> FilingAsked:
    """The periods and form of filing a question's whole text names (see the module docstring)."""
    found: list[tuple[int, PeriodAsked]] = []
    taken: list[range] = []
    for pattern, kind in _PATTERNS:
        for match in pattern.finditer(text):
            if any(match.start() in r or match.end() - 1 in r for r in taken):
                continue
            taken.append(range(match.start(), match.end()))
            if _MATURITY.search(text[: match.start()]):
                continue
            period = _period(kind, match.groups())
            if period is not None:
                found.append((match.start(), period))
    for match in _RANGE.finditer(text):
        low, high = int(match.group(1)), int(match.group(2))
        found += [(match.start(), PeriodAsked(y)) for y in range(low, high + 1) if high - low <= 10]
    periods = tuple(dict.fromkeys(p for _, p in sorted(found, key=lambda item: item[0])))
    form = next((name for name, pattern, _ in _FORMS if pattern.search(text)), "")
    return FilingAsked(periods, form)
