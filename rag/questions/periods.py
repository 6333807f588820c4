"""The one period reader: every period a text names, read in one pass into one value (``Periods``).

``read_periods(text)`` finds each period as English and analysts write it (FY2019, fiscal 2019,
Q3 2022, 2Q23, the second quarter of 2021, first-half 2023, H1 FY24, May 25, 2023, May 2023, a plain
2019), each year range (2018-2020, 2013 to 2015, between 2019 and 2021), the quarters named without
a year ("Q2", "second quarter"), whether three months or the first six or nine months are asked, the form of filing
named (10-K, 10-Q, 8-K, an earnings release), the year of a filing a figure is read from ("in its
FY2017 10-K") and how many years a question counts ("a three-year average", "the last 3 years"). The rest of the answerer reads those from the value: the fiscal periods a question is
about (``Periods.fiscal``: what search spells out and a figure's column is picked by), the periods a
filing is picked by (``Periods.asked``: a half-year asks for its second or fourth quarter's report,
"the start of 2019" for the end of 2018), the quarters named (``Periods.quarters``).

A question is read once: each part of it another reader takes (its asking sentences, a line item,
a formula's term) gets the question's reading carried to it (``carried``), never its own text read
again.

A year written as a maturity ("notes due 2025", "the 2030 Notes") is no period asked. The words are
data (periods.toml beside this module); the patterns are built from them here, and the few pattern
pieces other readers compose (a year as written, a range of them, a filing named) are exported from
here, so a period is written down in one place.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from functools import lru_cache
from pathlib import Path

_DATA = tomllib.loads(Path(__file__).with_name("periods.toml").read_text(encoding="utf-8"))
_MONTH_NAMES = [m.capitalize() for m in _DATA["months"]]
_ORDINALS: dict[str, int] = _DATA["ordinals"]

_MONTH = "(" + "|".join(_DATA["months"] + _DATA["month_abbreviations"]) + r")\.?"
_ORDINAL = "(" + "|".join(_ORDINALS) + ")"
_QUARTER_ORDINAL = "(" + "|".join(w for w, n in _ORDINALS.items() if w.isalpha()) + ")"
_Y4 = r"((?:19|20)\d\d)"
_YY = r"'?((?:19|20)\d\d|\d\d)"  # 2024, 24, '24
_YQ = r"((?:19|20)\d\d|'\d\d)"  # after a quarter's or half's ordinal: 2024, '24 (not "25 stores")
_FISCAL = r"(?:FY|fiscal(?:\s+year)?)"
_INSTRUMENT = "|".join(sorted(_DATA["maturity"]["instruments"], key=len, reverse=True))

# A year as a question writes it, fiscal or not: one group, the year (metrics, formulas, ranges).
WRITTEN_YEAR = r"(?:fy\s*'?|fiscal\s+(?:year\s+)?)?((?:19|20)\d\d)"
# Two such years joined by a dash: "2019-2021", "FY2019 - FY2021".
WRITTEN_RANGE = rf"{WRITTEN_YEAR}\s*[-\u2013]\s*{WRITTEN_YEAR}"
# A year as one token: "2019".
YEAR_TOKEN = re.compile(r"^(?:19|20)\d\d$")
# A period code as one token: "FY2019", "Q2", "2Q24" (lowercased words of a question).
PERIOD_CODE = r"fy\d+|q[1-4]|[1-4]q\d*"
# Every word a question writes a period with, to take a line item's words out from around it.
PERIOD_WORDS = re.compile(
    r"\b(?:fy\s*'?\d{2,4}|q[1-4]\s*(?:fy)?\s*'?\d{0,4}|fiscal(?:\s+year)?\s+(?:19|20)\d\d|(?:19|20)\d\d|"
    r"year[- ]?end|at\s+the\s+end\s+of|end\s+of|the\s+end)\b",
    re.I,
)
# "in its FY2017 10-K", "per its Q2 2023 earnings release": the document a figure is read from.
FILING = re.compile(
    r"\b(?:its|the|their)\s+(?:fy\s*'?|fiscal\s+(?:year\s+)?|q[1-4]\s*)?((?:19|20)\d\d)\s+"
    r"(?:" + "|".join(_DATA["filing"]["documents"]) + ")",
    re.I,
)

# (pattern, kind): read in this order; a later pattern skips text an earlier one read.
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
        (rf"(?<![\d.$])\b{_Y4}\b(?!\s*(?:{_INSTRUMENT})\b)", "year"),
        # a quarter named without its year: what a quarter's column or row is checked against
        (rf"\b{_QUARTER_ORDINAL}[\s-]+(?:fiscal\s+)?quarter", "quarter"),
        (r"\bQ([1-4])\b", "quarter"),
        (r"\b([1-4])Q(?:\d\d)?\b", "quarter"),
    )
)
_FISCAL_YEAR = re.compile(rf"\b{_FISCAL}\s*{_YY}\b", re.IGNORECASE)
_FISCAL_BEFORE = re.compile(rf"\b{_FISCAL}\s*$", re.IGNORECASE)
_MATURITY = re.compile(
    r"\b(?:" + "|".join(rf"{w}\w*" for w in _DATA["maturity"]["words"]) + r")\s+(?:in\s+)?"
    r"(?:\w+\.?\s+(?:\d{1,2},?\s+)?)?$",
    re.I,
)
# "2018-2020", "2013 to 2015", "between 2019 and 2021", "FY2018 - FY2020": both ends and the years between.
_RANGE = re.compile(
    rf"\b(?:{_FISCAL}\s*)?{_Y4}\s*(?:-|–|to|through|and)\s*(?:{_FISCAL}\s*)?{_Y4}\b",  # noqa: RUF001
    re.IGNORECASE,
)
_FORMS = tuple(
    (form["name"], re.compile("|".join(form["patterns"]), re.I), form["words"]) for form in _DATA["forms"]
)
FORM_WORDS = {name: written for name, _, written in _FORMS}
_HALF = re.compile(r"\b(?:" + "|".join(w.replace(" ", r"\s+") for w in _DATA["spans"]["half"]) + r")\b", re.I)
_NINE = re.compile(r"\b(?:" + "|".join(w.replace(" ", r"\s+") for w in _DATA["spans"]["nine"]) + r")\b", re.I)
_THREE = re.compile(
    r"\b(?:" + "|".join(w.replace(" ", r"\s+") for w in _DATA["spans"]["quarter"]) + r")\b", re.I
)
_SEARCH_ORDINALS = ("first", "second", "third", "fourth")
_COUNTS: dict[str, int] = _DATA["year_counts"]
_COUNT = r"(\d|" + "|".join(_COUNTS) + ")"
# "3 year", "three-year", "the last three years", "the past 3 fiscal years": how many years are counted.
_YEAR_COUNT = re.compile(
    rf"\b{_COUNT}[- ]year\b|\b(?:last|past|prior|previous|trailing)\s+{_COUNT}\s+(?:fiscal\s+)?years\b", re.I
)


@dataclass(frozen=True, order=True)
class Period:
    """A period: a fiscal year, a fiscal quarter of it (1-4), or a calendar month (and day) of a year."""

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

    def search_words(self) -> str:
        """How filings write a fiscal period: "fiscal 2018 2018", "second quarter Q2 fiscal 2024 2024"."""
        base = f"fiscal {self.year} {self.year}"
        if not self.quarter:
            return base
        return f"{_SEARCH_ORDINALS[self.quarter - 1]} quarter Q{self.quarter} {base}"


@dataclass(frozen=True)
class Mention:
    """One period as a text writes it: where, what it asks for (None: a quarter without its year),
    the year as written, the quarter it names (not a half's), whether it is written as a fiscal
    period (FY, fiscal, a quarter code) and whether it is a maturity ("notes due 2025")."""

    start: int
    end: int
    kind: str
    period: Period | None
    year: int | None = None  # the year as written ("the start of 2019": 2019, asking for 2018's end)
    quarter: int = 0
    fiscal: Period | None = None  # the fiscal period it writes (FY2019, Q2 FY24), if it writes one
    maturity: bool = False


@dataclass(frozen=True)
class Place:
    """Where the text writes one of the whole text's readings (a range, a form, a span, a filing,
    a count of years) and what it reads there: what ``carried`` keeps when a part of the text
    keeps those characters."""

    what: str  # "range", "form", "span", "filing" or "count"
    start: int
    end: int
    value: object


@dataclass(frozen=True)
class Periods:
    """What ``read_periods`` read (see the module docstring)."""

    mentions: tuple[Mention, ...] = ()
    ranges: tuple[tuple[int, int, int], ...] = ()  # (position, first year, last year) of each range
    form: str = ""  # "10-K", "10-Q", "8-K", "release" or ""
    span: str = ""  # "3m" (three months), "6m" (first half, six months), "9m" (nine months) or ""
    filing_year: int | None = None  # the year of a filing named ("in its FY2017 10-K")
    count: int | None = None  # how many years it counts ("a three-year average", "the last 3 years")
    # every place the readings above were read from, in the reader's order (carried keeps them)
    places: tuple[Place, ...] = field(default=(), compare=False, repr=False)

    @property
    def fiscal(self) -> tuple[Period, ...]:
        """The fiscal periods written as such (FY2018, fiscal 2018, Q2 FY24, 2Q24), in order, no repeats."""
        return tuple(dict.fromkeys(m.fiscal for m in self.mentions if m.fiscal is not None))

    @property
    def asked(self) -> tuple[Period, ...]:
        """The periods a filing is picked by: every dated mention but maturities, each range's
        years between its ends too, in order of appearance, no repeats."""
        found = [(m.start, m.period) for m in self.mentions if m.period is not None and not m.maturity]
        for start, low, high in self.ranges:
            found += [(start, Period(y)) for y in range(low, high + 1)]
        return tuple(dict.fromkeys(p for _, p in sorted(found, key=lambda item: item[0])))

    @property
    def quarters(self) -> frozenset[int]:
        """The quarters named, with or without a year ("Q2", "2Q24", "second fiscal quarter")."""
        return frozenset(m.quarter for m in self.mentions if m.quarter)

    @property
    def years(self) -> tuple[int, ...]:
        """Every year written (fiscal or plain, maturities too), in order, no repeats."""
        return tuple(dict.fromkeys(m.year for m in self.mentions if m.year is not None))

    @property
    def form_words(self) -> str:
        """The words the form asked for is written with ("10-K annual report form"), or ""."""
        return FORM_WORDS.get(self.form, "")

    def dated(self) -> tuple[Mention, ...]:
        """The mentions written as a day of a month ("December 31, 2022")."""
        return tuple(m for m in self.mentions if m.kind == "month day year")


def quarters_in(text: str) -> frozenset[int]:
    """The quarters a passage names ("Q2", "second quarter"): what the answer check holds a quote's
    quarter against the question's (rag.offline.rules.held)."""
    return read_periods(text).quarters


def without_filing(text: str) -> str:
    """The text without the filing it names ("in its FY2017 10-K"): what is left asks the period."""
    return FILING.sub(" ", text)


def without(text: str, mentions: Iterable[Mention]) -> str:
    """The text with these mentions (read from it) blanked out, each by one space."""
    out, last = [], 0
    for m in sorted(mentions, key=lambda m: m.start):
        out.append(text[last : m.start] + " ")
        last = m.end
    return "".join(out) + text[last:]


def year_of(raw: str) -> int:
    """A year as a question writes it: "2024", "24" or "'24" (this century)."""
    digits = raw.lstrip("'")
    return int(digits) if len(digits) == 4 else 2000 + int(digits)


@lru_cache(maxsize=4096)
def read_periods(text: str) -> Periods:
    """Every period the text names (see the module docstring)."""
    mentions: list[Mention] = []
    taken: list[range] = []
    for pattern, kind in _PATTERNS:
        for match in pattern.finditer(text):
            if any(match.start() in r or match.end() - 1 in r for r in taken):
                continue
            taken.append(range(match.start(), match.end()))
            mentions.append(_mention(text, match, kind))
    mentions.sort(key=lambda m: m.start)
    places = []
    for match in _RANGE.finditer(text):
        low, high = int(match.group(1)), int(match.group(2))
        if high - low <= 10:
            places.append(Place("range", match.start(), match.end(), (low, high)))
    places += [
        Place("form", m.start(), m.end(), name) for name, pattern, _ in _FORMS for m in pattern.finditer(text)
    ]
    for span, pattern in (("6m", _HALF), ("9m", _NINE), ("3m", _THREE)):
        places += [Place("span", m.start(), m.end(), span) for m in pattern.finditer(text)]
    places += [Place("filing", m.start(), m.end(), int(m.group(1))) for m in FILING.finditer(text)]
    for m in _YEAR_COUNT.finditer(text):
        count = next(g for g in m.groups() if g)
        places.append(
            Place("count", m.start(), m.end(), int(count) if count.isdigit() else _COUNTS[count.lower()])
        )
    return _periods(tuple(mentions), tuple(places))


def _periods(mentions: tuple[Mention, ...], places: tuple[Place, ...]) -> Periods:
    """The value read from mentions and places (each kind of place in the reader's order: the first
    form and span of their tables' order, the first filing and count written)."""

    def first(what: str) -> Place | None:
        return next((p for p in places if p.what == what), None)

    form, span, filing, count = first("form"), first("span"), first("filing"), first("count")
    return Periods(
        mentions,
        tuple((p.start, *p.value) for p in places if p.what == "range"),  # type: ignore[misc]
        str(form.value) if form else "",
        str(span.value) if span else "",
        int(filing.value) if filing else None,  # type: ignore[call-overload]
        int(count.value) if count else None,  # type: ignore[call-overload]
        places,
    )


def carried(periods: Periods, source: str, part: str) -> Periods:
    """The periods read from source that part, a text made from it (a sentence kept, words
    dropped or blanked, spaces collapsed), still writes whole, at their places in part: what a
    reader of part takes instead of reading its periods again. A period is carried when its
    characters are one run source and part share (difflib's matching blocks)."""
    if part == source or not (periods.mentions or periods.places):
        return periods
    blocks = SequenceMatcher(None, source, part, autojunk=False).get_matching_blocks()

    def moved(start: int, end: int) -> int | None:
        block = next((b for b in blocks if b.a <= start and end <= b.a + b.size), None)
        return None if block is None else start + block.b - block.a

    mentions = []
    for m in periods.mentions:
        at = moved(m.start, m.end)
        if at is not None:
            mentions.append(replace(m, start=at, end=at + m.end - m.start))
    places = []
    for p in periods.places:
        at = moved(p.start, p.end)
        if at is not None:
            places.append(replace(p, start=at, end=at + p.end - p.start))
    return _periods(tuple(mentions), tuple(places))


def _mention(text: str, match: re.Match[str], kind: str) -> Mention:
    g = [x for x in match.groups() if x is not None]
    maturity = bool(_MATURITY.search(text[: match.start()]))
    written = match.group(0)
    if kind == "quarter":
        word = g[0].lower()
        return Mention(match.start(), match.end(), kind, None, quarter=_ORDINALS.get(word) or int(word))
    period, quarter = _period(kind, g)
    fiscal = None
    if kind == "quarter year":  # Q2 FY24, 2Q24: a fiscal quarter
        fiscal = Period(year_of(g[1]), quarter)
    elif (inner := _FISCAL_YEAR.search(written)) is not None:  # FY2019, "first half of fiscal 2023"
        fiscal = Period(year_of(inner.group(1)))
    elif kind in ("year quarter", "year ordinal") and _FISCAL_BEFORE.search(text, 0, match.start()):
        fiscal = Period(int(g[0]))  # "FY 2023 Q2": the fiscal year, written before the quarter
    return Mention(
        match.start(), match.end(), kind, period, _written_year(kind, g), quarter, fiscal, maturity
    )


def _written_year(kind: str, g: list[str]) -> int:
    """The year a mention writes (whichever group holds it for its kind)."""
    if kind in ("month day year",):
        return int(g[2])
    if kind in ("month year", "half year", "h year", "ordinal year", "quarter year"):
        return year_of(g[1])
    return year_of(g[0])


def _period(kind: str, g: list[str]) -> tuple[Period | None, int]:
    """The period a mention asks for, and the quarter it names (a half names none)."""
    if kind == "month day year":
        return Period(int(g[2]), month=_month(g[0]), day=int(g[1])), 0
    if kind == "month year":
        return Period(int(g[1]), month=_month(g[0])), 0
    if kind == "start":  # the start of a year is the end of the one before
        return Period(int(g[0]) - 1, month=12, day=31), 0
    if kind in ("half year", "h year"):
        half = _ORDINALS.get(g[0].lower(), 0) or int(g[0])
        return (Period(year_of(g[1]), quarter=2 * half) if half in (1, 2) else None), 0
    if kind == "ordinal year":
        quarter = _ORDINALS[g[0].lower()]
        return Period(year_of(g[1]), quarter=quarter), quarter
    if kind == "year ordinal":
        quarter = _ORDINALS[g[1].lower()]
        return Period(int(g[0]), quarter=quarter), quarter
    if kind == "quarter year":
        return Period(year_of(g[1]), quarter=int(g[0])), int(g[0])
    if kind == "year quarter":
        return Period(int(g[0]), quarter=int(g[1])), int(g[1])
    return Period(year_of(g[0])), 0


def _month(name: str) -> int:
    return [m[:3] for m in _DATA["months"]].index(name.lower()[:3]) + 1
