"""One line of a table in extracted PDF text, read as a row or as a column header: the one reader
that computed answers (rag.tables.passages), the offline answerer's units (rag.passages.units),
retrieval's page headings and line items (rag.retrieval.pages, rag.judgement.rows) all use.

Rows. A row is a label, then cells at the line's end; the label has a letter, opens with a
capital, a digit, "(" or a bullet, and ends neither a sentence nor on a stopword; a lone cell looks
like an amount (1,577, 3.5, (12), 4%, $9), not like a year or a page number. A cell is read as
printed and its value exactly (parse_amount): a filing's "( 1,177 )", "(57.8)%", "$ 1,577" and
dashes for empty columns, a percent sign printed apart ("40.1 %"); a paper's or a report's score with its deviation ("71.3(1.4)", "71.3 (1.4)"
in a row that glues another, "71.3±1.4"), a mark after it ("71.3†", "45.2*") and "n/a". A
capitalised heading run into a label is dropped, a header run into it read ("... 2021 2020
Operating revenues $ 3,930").

Headers. read_header reads a column header: dates, years and the words headers use ("Year Ended
December 31, 2023 2022", "Three Months Ended October 31, 2022 2021", "Fiscal Years 2023 2022", "Q3
2022", "1Q22 4Q21"), few other words before its years and only column names after them
(comparison columns, "% Change", "2016 vs. 2015", may follow), or a title and then only years
("Statements of Cash Flows 2023 2022"); each column's period carries what the header prints of it:
year, quarter, span in months, the day it ends. A header of words ("Model Accuracy F1") is known
only by the rows under it (rag.tables.passages).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation

from ingest.pdf.tables import YEAR
from rag.text import STOPWORDS

_NUMBER = r"\d(?:[\d,]*\d)?(?:\.\d+)?"  # 1,577  12.5  2023
_CURRENCY = "$\u20ac\u00a3"
_DASH = "\u2014\u2013-"  # a dash for an empty cell
_MARK = "*\u2020\u2021"  # a mark printed after a score: 45.2* 71.3\u2020
# A score with its deviation glued to it or after a plus-minus sign: 62.1(0.4) 53.6(\u2212) 71.3\u00b11.4.
_DEVIATION = rf"{_NUMBER}%?(?:\(\s*(?:{_NUMBER}|[{_DASH}\u2212])\s*\)|\s?\u00b1\s?{_NUMBER})[{_MARK}]*"
# A cell at the end of a line: (1,311 ) ( 1,177 ) $ 1,577 -12.5 3% 4.450% 1.00 62.1(0.4) 45.2* n/a,
# or a dash; a currency sign standing alone is read and dropped, a percent sign after a number is
# its cell's ("40.1 %": a quoted row keeps its unit).
_CELL = (
    rf"(?:{_DEVIATION}|\(\s*[{_CURRENCY}]?\s*{_NUMBER}\s*%?\s*\)|[-\u2212]?[{_CURRENCY}]?{_NUMBER}%?[{_MARK}]*"
    rf"|[{_DASH}](?=\s|$)|n/a(?=\s|$)|[{_CURRENCY}%])"
)
# A cell starts a word of its own ("GPT-4", "ViT-B/8" end in no cell); a percent sign may follow a
# parenthesis: "(57.8)%".
_CELL_AT_END = re.compile(rf"(?:(?<!\S){_CELL}|(?<=\))%)\s*$", re.IGNORECASE)
_ONE_CELL = re.compile(_CELL, re.IGNORECASE)
_GLUED = re.compile(rf"{_NUMBER}\(")  # a row that glues a deviation to its score: "62.1(0.4)"
_EMPTY = frozenset({"n/a"})
_SIGNS = frozenset(_CURRENCY + "%")
# A lone cell is an amount (1,577, 3.5, (12), 4%, $9), not a year or a page number.
_AMOUNT_MARK = re.compile(rf"[,.()%{_CURRENCY}]")
# Two rows extraction ran together: "Depreciation 636 604 582 Deferred income taxes (23) (20)".
_RUN_TOGETHER = re.compile(rf"(?<=[A-Za-z)\s])((?:\s+{_CELL}){{2,}})\s+(?=\(?[A-Z][A-Za-z])")
# "CASH FLOWS FROM OPERATING ACTIVITIES Net income": a capitalised heading run into a row's label.
_CAPS_LEAD = re.compile(r"^(?:[A-Z&'\u2019-]{2,}[,:]?\s+){2,}(?=[A-Z][a-z])")
_LEADER = re.compile(r"(?:\s*(?:\.\s?){3,}|\s*\u2026+)\s*")  # "Trade payables........ $ 93,307"
_AMOUNT = re.compile(
    r"^(?P<open>\()?\s*(?P<minus>[-\u2212])?\s*[$\u20ac\u00a3]?\s*(?P<digits>\d[\d,]*(?:\.\d+)?|\.\d+)"
    r"\s*(?P<pct>%)?\s*(?P<close>\))?(?:(?<=\))%)?$"
)
# A score's value before its deviation or mark: "62.1(0.4)", "62.6 (2.7)", "71.3\u00b11.4", "45.2*".
_SCORE = re.compile(
    rf"^(?P<score>{_NUMBER})%?\s*(?:\(\s*(?:{_NUMBER}|[{_DASH}\u2212])\s*\)|\s?\u00b1\s?{_NUMBER})?[{_MARK}]*$"
)
DASHES = frozenset({"-", "\u2013", "\u2014", "\u2212"})

MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DATE = re.compile(rf"\b({MONTH})\s+(\d{{1,2}})\b,?", re.IGNORECASE)
# Words a column header holds besides its dates: periods, the scale, the unit.
HEADER_WORDS = frozenset(
    "year years ended ending end months month three six nine twelve weeks week fiscal as of at for the "
    "in and millions thousands billions except per share shares amounts amount data unaudited dollars "
    "par value ratios quarter quarters first second third fourth fy restated audited us usd u.s. "
    "ended: period periods $".split()
)
HEADER_OTHER_WORDS = 2  # words a header may hold beyond HEADER_WORDS, dates and years before its years
AFTER_WORDS = 6  # words naming columns after its years ("Reported Operational Currency Adjusted")
_JOINERS = frozenset({"vs", "versus", "compared", "to", "over", "from", "and"})
# A header naming comparison columns: after it, years name no period column.
_COMPARISON = re.compile(r"\b(?:vs\.?|versus|change|compared|increase|decrease)\b|%", re.IGNORECASE)
# The span words of a header, as rag.tables.passages groups its columns by them.
SPAN = re.compile(
    r"\b(three|six|nine|twelve)\s+months\b|\b(quarter|q[1-4])\b|\b(years?)\s+ended\b", re.IGNORECASE
)
_SPAN_NAMES = {"three": "3m", "six": "6m", "nine": "9m", "twelve": "12m", "quarter": "3m", "year": "12m"}
_SPAN_NAMES.update({f"q{n}": "3m" for n in range(1, 5)})
# What a column's period spans, as the header words it: months, a quarter, a year.
_SPANNED = re.compile(
    r"\b(?P<three>three)\s+months\b|\b(?P<six>six)\s+months\b|\b(?P<nine>nine)\s+months\b"
    r"|\b(?P<twelve>twelve)\s+months\b|\b(?P<nth>(?:first|second|third|fourth)\s+quarter)\b"
    r"|\b(?P<q>q[1-4])\b|\b(?P<quarter>quarters?)\b|\b(?P<year>years?)\b(?![-\s]to[-\s]date)"
    r"|\b(?P<fiscal>fiscal)\b",
    re.IGNORECASE,
)
_SPANNED_MONTHS = {"three": 3, "six": 6, "nine": 9, "twelve": 12, "nth": 3, "q": 3, "quarter": 3, "year": 12}
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_QUARTER_YEAR = re.compile(r"([1-4])Q(\d\d)", re.IGNORECASE)
_TOKEN = re.compile(r"\b[1-4]Q\d\d\b|\d[\d,.]*|[A-Za-z][A-Za-z0-9.'&]*|%|\$", re.IGNORECASE)
# A footnote mark's digits after a word ("Revenue1", not a quarter's year "1Q22"), a mark "(a)",
# and the count of "52 weeks" or "12 months": no column's numbers.
_MARKS = re.compile(r"(?<=[A-Za-z])(?<![1-4][Qq])\d+(?:,\d+)*|\(\w\)|\b\d+(?=\s*(?:weeks|months))")
MIN_COLUMN_YEARS = 2  # years a line names to be taken for columns' (HeaderLine.years, _titled)
# Words a line with dates may have to be taken for columns' ("Fiscal years ended December 25, 2021,
# December 26, 2020 and December 28, 2019": 7), so that a sentence with two dates is not.
DATED_WORDS = 8
# A table's line no row reads ends in at least this many cells, percent signs or cells with a
# percent sign after them ("Operating income 4,021 9,538 10,386 (5,517) (57.8)% (848) (8.2)%",
# "per share) — — (5) (5)"): a table's, not prose's; a sentence's "May 31, 2023, 2022" is not.
TABLE_CELLS = 3


@dataclass(frozen=True)
class Cell:
    """A cell as printed, [start, end) in its line, and its value (parse_amount: None for a dash,
    nothing in that column); a percent sign is no part of the value and said by percent."""

    text: str
    start: int
    end: int
    value: Decimal | None
    percent: bool = False


@dataclass(frozen=True)
class Period:
    """A column's period as its header prints it: the year, and when printed the quarter ("Q3
    2022", "1Q22"), the months it spans (3 for a quarter or "Three Months Ended", 12 for a year
    or "Fiscal 2023") and the day it ends ("December 31, 2023"); a balance's column at a date
    has an end and no span."""

    year: int
    quarter: int | None = None
    months: int | None = None
    end: date | None = None
    coded: bool = False  # named by a quarter's code ("1Q22"): the quarter computed answers match on


@dataclass(frozen=True)
class HeaderLine:
    """A column header line: its columns' periods in order (the first run of years), whether more
    columns follow them (comparisons, "Reported", "% Change"), whether the years start again
    after other columns' words, the span of each group it names ("3m", "6m", "9m", "12m", "" in
    the order printed), and whether it names comparison columns."""

    columns: tuple[Period, ...]
    more: bool = False
    again: bool = False
    spans: tuple[str, ...] = ()
    comparison: bool = False

    @property
    def years(self) -> tuple[int, ...]:
        """The columns' years, when at least MIN_COLUMN_YEARS: a line naming one year is a
        caption's date as often as a column's."""
        years = tuple(p.year for p in self.columns)
        return years if len(years) >= MIN_COLUMN_YEARS else ()


@dataclass(frozen=True)
class Row:
    """A table row: its label, where the label starts in the line, its cells in order, and the
    header run into the row before its label, read_row's only ("Years Ended December 31, 2021 2020
    Operating revenues $ 3,930 ...")."""

    label: str
    start: int
    cells: tuple[Cell, ...]
    header: HeaderLine | None = None

    @property
    def printed(self) -> tuple[str, ...]:
        """The cells as printed."""
        return tuple(c.text for c in self.cells)


def parse_amount(printed: str) -> Decimal | None:
    """The value of a printed cell, or None for a dash, "n/a" or anything that is not one number.
    Parentheses and a leading minus make it negative; a percent sign is kept out (4.450% is 4.450);
    a score's deviation and mark are no part of it ("62.1(0.4)" is 62.1)."""
    text = " ".join(printed.split())
    if text in DASHES or text.lower() in _EMPTY:
        return None
    found = _AMOUNT.match(text)
    if not found or bool(found["open"]) != bool(found["close"]):
        score = _SCORE.match(text)
        return Decimal(score["score"].replace(",", "")) if score else None
    try:
        value = Decimal(found["digits"].replace(",", ""))
    except InvalidOperation:  # pragma: no cover - the pattern only lets digits through
        return None
    return -value if found["open"] or found["minus"] else value


def _split_cells(line: str) -> tuple[str, list[tuple[int, int]]]:
    """(label part, [start, end) of each cell at the line's end); a currency sign is no cell, a
    percent sign after a number is that number's."""
    cells: list[tuple[int, int]] = []
    end = len(line.rstrip())
    glued = 0  # the end of a percent sign after a number: "(57.8)%" and "40.1 %" are one cell each
    while end > 0:
        found = _CELL_AT_END.search(line, 0, end)
        if not found or (found.end() < end and line[found.end() : end].strip()):
            break
        printed = line[found.start() : end].strip()
        if printed not in _SIGNS:
            cells.append((found.start(), glued or found.start() + len(line[found.start() : end].rstrip())))
        before = line[: found.start()].rstrip()[-1:]
        glued = found.end() if printed == "%" and (before == ")" or before.isdigit()) else 0
        end = len(line[: found.start()].rstrip())
    return line[:end], cells[::-1]


def _label(raw: str) -> str:
    return _CAPS_LEAD.sub("", " ".join(_LEADER.sub(" ", raw).split())).rstrip(" :$%")


def _ends_label(label: str) -> bool:
    """Whether a row's label can end where its cells start: it has a letter and ends in neither a
    sentence's punctuation nor a stopword ("... in fiscal 2018, 2017 and 2016" is prose), "and
    other" aside ("Entertainment, retail and other 518,991")."""
    return (
        any(ch.isalpha() for ch in label)
        and label[-1] not in ".!?;,"
        and (label.split()[-1].lower() not in STOPWORDS or label.lower().endswith(" and other"))
    )


def _is_label(label: str, cells: list[str]) -> bool:
    if not label or not _ends_label(label):
        return False
    if not (label[0].isupper() or label[0] in "(\u2022" or label[0].isdigit()):
        return False
    numbers = [c for c in cells if re.search(r"\d", c)]
    if not numbers:  # "Marketable securities — —": a row of nothing in every column
        return len(cells) > 1 and all(c.strip() in _DASH for c in cells)
    return len(cells) > 1 or bool(_AMOUNT_MARK.search(numbers[0]))


def read_row(line: str) -> Row | None:
    """The row a line holds (see the module docstring), or None."""
    raw, spans = _split_cells(line)
    if any(_GLUED.match(line[a:b]) for a, b in spans):  # "62.6 (2.7)" beside "63.0(1.3)": one score
        spans = _join_deviations(line, spans)
    printed = [line[a:b].strip() for a, b in spans]
    joined = joined_header(raw)
    header = read_header(joined) if joined is not None else None
    if joined is not None and header is not None:
        raw = " " * len(joined) + raw[len(joined) :]
    label = _label(raw)
    if not _is_label(label, printed) or all(YEAR.fullmatch(p) for p in printed):
        return None
    if re.fullmatch(MONTH, label.lower()):
        return None
    cells = tuple(Cell(p, a, b, parse_amount(p), "%" in p) for (a, b), p in zip(spans, printed))
    return Row(label, len(raw) - len(raw.lstrip()), cells, header)


def _join_deviations(line: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cells with each parenthesised number right after a score joined to it, as its deviation."""
    joined: list[tuple[int, int]] = []
    for a, b in spans:
        if (
            joined
            and line[a] == "("
            and line[joined[-1][1] : a] == " "
            and _GLUED.match(line[joined[-1][0] : b].replace(" ", ""))
        ):
            joined[-1] = (joined[-1][0], b)
        else:
            joined.append((a, b))
    return joined


def joined_header(raw: str) -> str | None:
    """The header part when a row's label opens with a header's years ("... 2021 2020 2019")."""
    years = list(YEAR.finditer(raw))
    if len(years) < 2:
        return None
    cut = years[-1].end()
    if not re.match(r"\s+[A-Z]", raw[cut:]):
        return None
    return raw[:cut]


def split_rows(line: str) -> list[tuple[int, str]]:
    """The pieces of a line that may each be a row, each with its offset: several when
    extraction ran rows together (a run of two or more cells, not all years, then a capitalised
    word)."""
    pieces, begin = [], 0
    for run in _RUN_TOGETHER.finditer(line):
        cells = re.findall(r"\S+", run.group(1))
        if all(YEAR.fullmatch(c) or c in "$%" for c in cells):
            continue
        pieces.append((begin, line[begin : run.end(1)]))
        begin = run.end(1)
    pieces.append((begin, line[begin:]))
    return pieces


def table_line(line: str) -> bool:
    """Whether a line ends as a table's row does (see TABLE_CELLS), read as a row or not."""
    tokens = line.split()
    ending = tokens[-TABLE_CELLS:]
    return len(tokens) > TABLE_CELLS and all(_ONE_CELL.fullmatch(t.removesuffix("%") or t) for t in ending)


def read_header(line: str) -> HeaderLine | None:
    """The line as a column header, or None: dates, years and HEADER_WORDS, at most
    HEADER_OTHER_WORDS other words before the first year and AFTER_WORDS after it, none a
    stopword ("Chase's 2021 Form 10-K for additional information" is prose); or a title and then
    only years, at least MIN_COLUMN_YEARS ("Statements of Cash Flows 2023 2022", see _titled). A
    line of header words and no year ("Three Months Ended Six Months Ended") is one, with no columns."""
    closing = line.find(")")  # a caption's parenthesis opened on the line before ends here
    text = line[closing + 1 :] if closing >= 0 and "(" not in line[:closing] else line
    offset = len(line) - len(text)
    blank = _DATE.sub(lambda m: " " * len(m.group()), text)
    blank = _MARKS.sub(lambda m: " " * len(m.group()), blank)
    kept: list[re.Match[str]] = []  # years and other words, in order (header words and marks dropped)
    for token in _TOKEN.finditer(blank):
        word = token.group().lower().strip(".")
        if _is_period(token.group()):
            kept.append(token)
        elif token.group()[0].isdigit():
            return None  # another number: a row, a sentence
        elif not (re.fullmatch(r"[1-4]?q[1-4]?", word) or word in HEADER_WORDS or re.fullmatch(MONTH, word)):
            kept.append(token)
    words = [t.group() if _is_period(t.group()) else t.group().lower().strip(".") for t in kept]
    first = next((i for i, t in enumerate(words) if _is_period(t)), len(words))
    after = [t for t in words[first:] if not _is_period(t)]
    opening = words[first:]
    lead = next((i for i, t in enumerate(opening) if not _is_period(t)), len(opening))
    if first > HEADER_OTHER_WORDS and not _titled(text, after, lead):
        return None
    if len(after) > AFTER_WORDS or any(w in STOPWORDS for w in after):
        return None
    again = any(
        _is_period(t)
        and words[first + i - 1] not in _JOINERS
        and (first + i + 1 >= len(words) or words[first + i + 1] not in _JOINERS)
        for i, t in enumerate(opening)
        if i > lead
    )
    columns = tuple(_period(line, offset + t.start(), t.group()) for t in kept[first : first + lead])
    spans = tuple(_SPAN_NAMES.get(_span_word(m), "") for m in SPAN.finditer(line))
    return HeaderLine(columns, bool(after), again, spans, bool(_COMPARISON.search(line)))


def _titled(text: str, after: list[str], lead: int) -> bool:
    """Whether a header's words before its years are a title: the line ends in its years, at
    least MIN_COLUMN_YEARS of them, and holds at most DATED_WORDS words when it holds dates (a
    sentence with two dates is none)."""
    if after or lead < MIN_COLUMN_YEARS:
        return False
    undated = _DATE.sub(" ", text)
    return undated == text or len(re.findall(r"[A-Za-z]+", undated)) <= DATED_WORDS


def _span_word(match: re.Match[str]) -> str:
    return (match.group(1) or match.group(2) or match.group(3)).lower().rstrip("s")


def _is_period(token: str) -> bool:
    return bool(YEAR.fullmatch(token) or _QUARTER_YEAR.fullmatch(token))


def _period(line: str, at: int, token: str) -> Period:
    """A column's period from its year's token at that offset and the words before it on the line:
    the span the last span words name ("fiscal" only when no other does), and the last date after
    them ("Three Months Ended October 31, 2022 2021": both end on October 31)."""
    code = _QUARTER_YEAR.fullmatch(token)
    if code:
        return Period(2000 + int(code.group(2)), int(code.group(1)), 3, None, coded=True)
    year, before = int(token), line[:at]
    months = quarter = None
    where = -1
    for found in _SPANNED.finditer(before):
        named = found.lastgroup
        if named == "fiscal":
            months = months or 12
            continue
        word = found.group().lower()
        months, quarter = _SPANNED_MONTHS[named], None
        if named == "q":
            quarter = int(word[1])
        elif named == "nth":
            quarter = _ORDINALS[word.split()[0]]
        where = found.start()
    dates = [d for d in _DATE.finditer(before) if d.start() > where]
    return Period(year, quarter, months, _end(dates[-1], year) if dates else None)


def _end(found: re.Match[str], year: int) -> date | None:
    month = _MONTHS.index(found.group(1).lower()[:3]) + 1
    try:
        return date(year, month, int(found.group(2)))
    except ValueError:  # "February 29" of a year without one, or a day no month has
        return None


def header_years(line: str) -> tuple[int, ...]:
    """The years of a line read as a column header (read_header, HeaderLine.years), or ()."""
    read = read_header(line)
    return read.years if read is not None else ()
