"""Table rows in extracted PDF text: a label followed by number cells ("Capital expenditures
$ 1,577 $ 1,602"), the column header line that names their years ("2023 2022 2021"), and how a
row is quoted with the column the question asks for. Nothing here invents a number: every
number quoted is a cell of the row as written, and a year is named only when a header gave it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rag.text import STOPWORDS

# A number cell: 1,577  (1,577)  -12.5  3%  $1,602 ; a dash stands for an empty cell.
_NUMBER_CELL = re.compile(r"^[(\-\u2212]?[$\u20ac\u00a3]?\(?\d(?:[\d,]*\d)?(?:\.\d+)?%?\)?$")
_EMPTY_CELL = frozenset({"-", "\u2013", "\u2014"})
_CURRENCY = frozenset({"$", "\u20ac", "\u00a3"})
_YEAR_LABEL = re.compile(r"(?:19|20)\d\d\s+[A-Za-z]")
_LEADER = re.compile(r"(?:\s*(?:\.\s?){3,}|\s*\u2026+)\s*")
_YEAR = re.compile(r"(?<![\d,.])(?:19|20)\d\d(?![\d,.])")
# A header line names at least this many years and has no other numbers.
MIN_HEADER_YEARS = 2
# "December 31," in a header: the day is dropped before counting numbers.
_DAY = re.compile(
    r"\b((?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?)\s+\d{1,2}\b\s*,?", re.IGNORECASE
)
# A header with dates has at most this many words ("Fiscal years ended December 25, 2021, December
# 26, 2020 and December 28, 2019": 7), so a sentence with two dates is not taken for one.
HEADER_DATE_WORDS = 8


@dataclass(frozen=True)
class Row:
    """A table row: its label and its cells as written (numbers, or a dash for an empty cell)."""

    label: str
    cells: tuple[str, ...]


def _is_cell(token: str) -> bool:
    return bool(_NUMBER_CELL.match(token)) or token in _EMPTY_CELL or token in _CURRENCY


# A line no row parses whose last TABLE_CELLS tokens are cells, percent signs or cells with a percent
# sign after them is a table's line ("Operating income 4,021 9,538 10,386 (5,517) (57.8)% (848)
# (8.2)%": percent columns; "per share) — — (5) (5)": a wrapped label), not prose; a sentence's
# "May 31, 2023, 2022" is not (a cell ends in no comma). Set by hand, the one value tried: on
# filings-dev it kept two such runs from being answers; squad-dev, the generated filings and the
# structure and obligations sets had none among their answers (bench/README.md, "2026-12-05
# (seventh session)").
TABLE_CELLS = 3


def table_line(line: str) -> bool:
    """Whether a line ends as a table's row does (see TABLE_CELLS), parsed as one or not."""
    tokens = line.split()
    ending = tokens[-TABLE_CELLS:]
    return len(tokens) > TABLE_CELLS and all(t == "%" or _is_cell(t.removesuffix("%")) for t in ending)


def parse_row(line: str) -> Row | None:
    """The row a line holds, or None: a label that starts with a capital letter (or a year and a
    word) and does not end in a stopword, then only cells. A lone cell must look like an amount (1,577, 3.5, (12), 4%, $9), not
    like a year or a page number, so that a wrapped prose line ending in "2022" is not a row."""
    tokens = _LEADER.sub(" ", line).split()  # "Trade payables........ $ 93,307": dot leaders
    i = len(tokens)
    while i > 0 and _is_cell(tokens[i - 1]):
        i -= 1
    label = " ".join(tokens[:i]).rstrip(" :$")
    cells = tuple(t for t in tokens[i:] if t not in _CURRENCY)
    numbers = [c for c in cells if c not in _EMPTY_CELL]
    # A label starts with a capital, or with a year before a word ("2021 restructuring charges":
    # a roll-forward table's row).
    opens = bool(label) and (label[0].isupper() or bool(_YEAR_LABEL.match(label)))
    if not label or not numbers or not opens or label[-1] in ".!?;,":
        return None
    if label.split()[-1].lower() in STOPWORDS:  # "... in fiscal 2018, 2017 and 2016" is prose
        return None
    if not any(ch.isalpha() for ch in label):
        return None
    if len(cells) == 1 and not re.search(r"[,.()%$\u20ac\u00a3]", numbers[0]):
        return None
    return Row(label, cells)


def header_years(line: str) -> tuple[int, ...]:
    """The column years a header line names ("2023 2022 2021", "Fiscal Years 2023 2022",
    "Year Ended December 31, 2017 2016 2015"), or (). A date's day is not another number; a line
    with dates must be short (HEADER_DATE_WORDS words), as a column header is, not a sentence."""
    undated = _DAY.sub(" ", line)
    years = tuple(int(y) for y in _YEAR.findall(undated))
    others = re.findall(r"\d[\d,.]*", _YEAR.sub(" ", undated))
    if len(years) < MIN_HEADER_YEARS or others:
        return ()
    if undated != line and len(re.findall(r"[A-Za-z]+", undated)) > HEADER_DATE_WORDS:
        return ()
    return years


def context_years(context: str) -> tuple[int, ...]:
    """The column years in a source's context line ("Cash flows | 2023 2022"): its last part
    that reads as a header line, or ()."""
    for part in reversed(context.split("|")):
        years = header_years(part)
        if years:
            return years
    return ()


def value_for(row: Row, columns: Sequence[int], year: int) -> str | None:
    """The row's cell in the column of that year, when the header and the cells line up."""
    if year not in columns or len(columns) != len(row.cells):
        return None
    cell = row.cells[list(columns).index(year)]
    return None if cell in _EMPTY_CELL else cell


def quote_row(row: Row, columns: Sequence[int], years: Sequence[int]) -> str:
    """The row as an answer: "Capital expenditures: 1,577 in 2022 (columns 2023, 2022:
    1,602 / 1,577)", or the label and cells as written when no column can be named."""
    cells = " / ".join(row.cells)
    aligned = len(columns) == len(row.cells)
    where = f" (columns {', '.join(map(str, columns))}: {cells})" if aligned else ""
    for year in years:
        value = value_for(row, columns, year)
        if value is not None:
            return f"{row.label}: {value} in {year}{where}"
    return f"{row.label}: {cells}" + (f" (columns {', '.join(map(str, columns))})" if aligned else "")
