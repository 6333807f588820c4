"""Column headers of extracted tables: which years (and spans: three, six, nine months) a
table's columns are, read from the run of header-like lines above its first row (see
rag.compute.tables). A line is header-like when it holds dates, years and header words, with few
other words before its years and only column names after them; comparison columns ("$ Change
2016 vs. 2015", "% Change") add no period; a year named twice gets its column only through a
span named once per group ("Three Months Ended ... Six Months Ended"), else none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.text import STOPWORDS

YEAR = re.compile(r"(?<![\d,.$])(?:19|20)\d\d(?![\d,.%])")
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# Words a column header holds besides its dates: periods, the scale, the unit.
HEADER_WORDS = frozenset(
    "year years ended ending end months month three six nine twelve weeks week fiscal as of at for the "
    "in and millions thousands billions except per share shares amounts amount data unaudited dollars "
    "par value ratios quarter quarters first second third fourth fy restated audited us usd u.s. "
    "ended: period periods $".split()
)
# A header line naming comparison columns: after it, years name no period column.
_COMPARISON = re.compile(r"\b(?:vs\.?|versus|change|compared|increase|decrease)\b|%", re.IGNORECASE)
_SPAN = re.compile(
    r"\b(three|six|nine|twelve)\s+months\b|\b(quarter|q[1-4])\b|\b(years?)\s+ended\b", re.IGNORECASE
)
_SPAN_NAMES = {"three": "3m", "six": "6m", "nine": "9m", "twelve": "12m", "quarter": "3m", "year": "12m"}
_SPAN_NAMES.update({f"q{n}": "3m" for n in range(1, 5)})
HEADER_OTHER_WORDS = 2  # words a header-like line may hold beyond HEADER_WORDS, dates and years
AFTER_WORDS = 6  # words naming columns after its years ("Reported Operational Currency Adjusted")
_JOINERS = frozenset({"vs", "versus", "compared", "to", "over", "from", "and"})


@dataclass(frozen=True)
class Column:
    """A column's period: its year and, when the header names them, its span ("3m", "6m", "12m")
    and quarter (a column headed "1Q22" is the first quarter of 2022)."""

    year: int
    span: str = ""
    quarter: int | None = None


Period = tuple[int, int | None]  # (year, quarter) as a header names it
_QUARTER_YEAR = re.compile(r"([1-4])Q(\d\d)", re.IGNORECASE)


@dataclass
class Header:
    """The header being read: its years in order, the spans it names, whether comparison columns follow."""

    years: list[Period]
    spans: list[str]
    frozen: bool = False  # comparison columns came: later years name no period
    wider: bool = False  # more columns than years follow (comparisons, "Reported", "% Change")
    repeated: bool = False  # the years start again after other columns: groups no span tells apart

    def columns(self) -> tuple[Column | None, ...]:
        years = self.years
        if self.repeated:
            return tuple(None for _ in years)
        if len(set(years)) == len(years):
            span = self.spans[0] if len(set(self.spans)) == 1 else ""
            return tuple(Column(y, "3m" if q else span, q) for y, q in years)
        groups = len(self.spans)
        if groups > 1 and len(years) % groups == 0:
            size = len(years) // groups
            chunks = [years[i * size : (i + 1) * size] for i in range(groups)]
            if all(len(set(c)) == len(c) for c in chunks):
                return tuple(Column(y, self.spans[i], q) for i, c in enumerate(chunks) for y, q in c)
        return tuple(None for _ in years)  # a year named twice, no span to tell: no column known


def header_years(line: str) -> tuple[list[Period], bool, bool] | None:
    """(the period years, whether more columns follow them, whether the years start again after
    other columns' words) when the line reads as a column header: dates, years and header words,
    at most HEADER_OTHER_WORDS other words before the first year and AFTER_WORDS after it, none a
    sentence's ("Chase's 2021 Form 10-K for additional information" is prose). Else None."""
    closing = line.find(")")  # a caption's parenthesis opened on the line before ends here
    if closing >= 0 and "(" not in line[:closing]:
        line = line[closing + 1 :]
    text = re.sub(rf"\b{MONTH}\s+\d{{1,2}}\b,?", " ", line, flags=re.IGNORECASE)
    # a footnote mark's digits after a word ("Revenue1"), not a quarter's year ("1Q22")
    text = re.sub(r"(?<=[A-Za-z])(?<![1-4][Qq])\d+(?:,\d+)*|\(\w\)|\b\d+(?=\s*(?:weeks|months))", " ", text)
    kept: list[str] = []  # years and other words, in order (header words and marks dropped)
    for token in re.findall(r"\b[1-4]Q\d\d\b|\d[\d,.]*|[A-Za-z][A-Za-z0-9.'&]*|%|\$", text, re.IGNORECASE):
        word = token.lower().strip(".")
        if YEAR.fullmatch(token) or _QUARTER_YEAR.fullmatch(token):
            kept.append(token)
        elif token[0].isdigit():
            return None  # another number: a row, a sentence
        elif not (re.fullmatch(r"[1-4]?q[1-4]?", word) or word in HEADER_WORDS or re.fullmatch(MONTH, word)):
            kept.append(word)
    first = next((i for i, t in enumerate(kept) if _is_period(t)), len(kept))
    before = kept[:first]
    after = [t for t in kept[first:] if not _is_period(t)]
    if len(before) > HEADER_OTHER_WORDS or len(after) > AFTER_WORDS or any(w in STOPWORDS for w in after):
        return None
    opening = kept[first:]
    lead = next((i for i, t in enumerate(opening) if not _is_period(t)), len(opening))
    years = [_period(t) for t in opening[:lead]]
    again = any(
        _is_period(t)
        and kept[first + i - 1] not in _JOINERS
        and (first + i + 1 >= len(kept) or kept[first + i + 1] not in _JOINERS)
        for i, t in enumerate(opening)
        if i > lead
    )
    return years, bool(after), again


def _is_period(token: str) -> bool:
    return bool(YEAR.fullmatch(token) or _QUARTER_YEAR.fullmatch(token))


def _period(token: str) -> Period:
    quarter = _QUARTER_YEAR.fullmatch(token)
    return (2000 + int(quarter.group(2)), int(quarter.group(1))) if quarter else (int(token), None)


def extend(header: Header, line: str, years: list[Period], more: bool, again: bool = False) -> None:
    """Add a header line: its spans, and its years unless comparison columns came before them."""
    header.repeated = header.repeated or again
    for match in _SPAN.finditer(line):
        word = (match.group(1) or match.group(2) or match.group(3)).lower().rstrip("s")
        header.spans.append(_SPAN_NAMES.get(word, ""))
    comparison = bool(_COMPARISON.search(line))
    if comparison and header.years:
        header.frozen = True
    if not header.frozen and years != header.years:  # a caption's years said again by the columns
        header.years.extend(years)
    header.wider = header.wider or more or comparison
    header.frozen = header.frozen or more


def context_columns(context: str) -> tuple[tuple[Column | None, ...], bool]:
    """The columns a passage's context line names (its last part that reads as a header); a
    context that says its header's years twice over ("2022 2021 2022 2021") names them once."""
    for part in reversed(context.split("|")):
        read = header_years(part)
        if read and read[0]:
            years, half = read[0], len(read[0]) // 2
            if len(years) % 2 == 0 and years[:half] == years[half:] and not _SPAN.search(part):
                read = (years[:half], *read[1:])
            header = Header([], [])
            extend(header, part, *read)
            return header.columns(), header.wider
    return (), False
