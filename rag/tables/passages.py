"""A passage's table rows with where each cell sits and which column it is, so that an operand can
be cited by its own cell: "Total current liabilities 3,527,457 2,811,635" under a header naming
2017 and 2016, in thousands, gives two cells, each with its column's year and its characters in
the text. Each line is read by rag.tables.lines.

Filings' headers come in many shapes once extracted: the years on one line ("2023 2022"), one a
line under a date ("December 1,", "2017"), after the scale ("(Amounts in millions) 2018 2017"),
joined to the first row ("... December 31, 2021 2020 2019 Operating revenues $ 3,930 ..."). A
header is the run of header lines above a table's first row; comparison columns ("$ Change 2016
vs. 2015", "% Change") add no period; a year named twice gets its column only through a span
named once per group ("Three Months Ended ... Six Months Ended"), else none. Rows extraction ran
together on one line are split; a heading in capitals run into a label is dropped. A short
heading over a block of rows ("Revenues" over "Casino", "Rooms") is kept with each row; a line of
cells alone that its block's rows add up to in every column is that heading's total ("Total
Revenues"); a label set a word a line ("Operating" / "income 1,469,486") is read whole when its
last line opens in lower case. A passage that
starts below its header takes the header from its context line, or from the page above it
(page_header). Nothing is guessed: a cell whose column is not known has no year, and a parent
company's own statements (Schedule I) give no rows.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from ingest.pdf.tables import YEAR
from rag.questions.request import statements_in
from rag.tables.lines import (
    HEADER_WORDS,
    MONTH,
    SPAN,
    HeaderLine,
    joined_header,
    read_header,
    read_row,
    split_rows,
)
from rag.text import STOPWORDS

_SCALE = re.compile(r"\bin\s+(thousands|millions|billions)\b", re.IGNORECASE)
_PARENT = re.compile(
    r"\bfinancial\s+information\s+of\s+(?:the\s+)?(?:parent|registrant)\b|\bparent\s+company\s+only\b",
    re.IGNORECASE,
)
_PER_SHARE_TITLE = re.compile(r"^\W*(?:\w+\s+)?per\s+(?:common\s+)?share\b(?!.*\bexcept\b)", re.IGNORECASE)
PER_SHARE = "per share"  # the scale of a per-share row: units, never mixed with amounts
_AMOUNT_COLUMN = re.compile(r"\bamount\b", re.IGNORECASE)  # a column's name: the amount, beside its %
_PER_SHARE = re.compile(r"\bper\s+(?:common\s+|diluted\s+|basic\s+)?share\b|\beps\b", re.IGNORECASE)
SENTENCE_WORDS = 8  # a line of more words that is no row is prose (a note under a statement)
MID_MONTH = 15  # a period ending before this day of a month ends the month before (52-53 week years)
# A header of words holds at most this many words per column (its columns' names, and the label
# column's before them); a longer line above a table's rows is prose.
HEADER_NAMES = 2
TITLE_WORDS = 12  # a table's title or a section heading inside it is at most this long
HEADING_WORDS = 4  # a heading over a block of rows ("Revenues", "Operating expenses") is at most this long
# A company name's abbreviations, whose full stop ends no sentence ("Acme Holdings, Inc. Consolidated
# Balance Sheets" is a title).
_ABBREVIATION = re.compile(r"\b(?:Inc|Corp|Co|Ltd|L\.P|N\.A|U\.S)\.", re.IGNORECASE)


@dataclass(frozen=True)
class Column:
    """A column's period as computed answers match it: its year and, when the header names them,
    its span ("3m", "6m", "12m") and the quarter a quarter's code names (a column headed "1Q22"
    is the first quarter of 2022)."""

    year: int
    span: str = ""
    quarter: int | None = None
    # the month its period ends, as year * 12 + month - 1, rounded to the nearest month end (a
    # "Three Months Ended July 2, 2023" column ends in June), when the header prints the date
    end: int | None = None


@dataclass(frozen=True)
class TableCell:
    """One cell as printed, [start, end) in the passage's text, its column (None: unknown), its
    value (rag.tables.lines.Cell: None for a dash) and the column's name when a header of words
    names it ("Rel.", "5-shot"; see headed)."""

    text: str
    start: int
    end: int
    column: Column | None
    value: Decimal | None = None
    column_name: str = ""


@dataclass(frozen=True)
class TableRow:
    """A row: its label and where it sits, its cells, the table's scale ("units" when the table
    states none or the row is per share; "" when not known) and the title above it."""

    label: str
    label_start: int
    label_end: int
    cells: tuple[TableCell, ...]
    scale: str
    title: str
    statement: str = ""  # the financial statement the table is (rag.questions.request.STATEMENTS), if named
    table: int = 0  # which table of its passage: a new title or header starts the next
    heading: str = ""  # the short heading over its block of rows ("Revenues" over "Casino", "Rooms")


YearQuarter = tuple[int, int | None]  # a column as a header groups them: its year, a "1Q22" quarter


@dataclass
class Header:
    """The header being read: its years in order, the spans it names, whether comparison columns follow."""

    years: list[YearQuarter]
    spans: list[str]
    frozen: bool = False  # comparison columns came: later years name no period
    wider: bool = False  # more columns than years follow (comparisons, "Reported", "% Change")
    repeated: bool = False  # the years start again after other columns: groups no span tells apart
    ends: list[int | None] = field(default_factory=list)  # each year's period end, when dated (Column.end)

    def columns(self) -> tuple[Column | None, ...]:
        years = self.years
        ends = self.ends if len(self.ends) == len(years) else [None] * len(years)
        if self.repeated:
            return tuple(None for _ in years)
        if len(set(years)) == len(years):
            span = self.spans[0] if len(set(self.spans)) == 1 else ""
            return tuple(Column(y, "3m" if q else span, q, e) for (y, q), e in zip(years, ends))
        groups = len(self.spans)
        if groups > 1 and len(years) % groups == 0:
            size = len(years) // groups
            chunks = [years[i * size : (i + 1) * size] for i in range(groups)]
            if all(len(set(c)) == len(c) for c in chunks):
                return tuple(
                    Column(y, self.spans[i], q, ends[i * size + j])
                    for i, c in enumerate(chunks)
                    for j, (y, q) in enumerate(c)
                )
        return tuple(None for _ in years)  # a year named twice, no span to tell: no column known

    def extend(self, line: HeaderLine, years: list[YearQuarter] | None = None) -> None:
        """Add a header line: its spans, and its years unless comparison columns came before them."""
        self.repeated = self.repeated or line.again
        self.spans.extend(line.spans)
        if line.comparison and self.years:
            self.frozen = True
        found = _periods(line) if years is None else years
        if not self.frozen and found != self.years:  # a caption's years said again by the columns
            self.years.extend(found)
            self.ends.extend(
                _ends(line)[: len(found)] if len(_ends(line)) >= len(found) else [None] * len(found)
            )
        self.wider = self.wider or line.more or line.comparison
        self.frozen = self.frozen or line.more


def _periods(line: HeaderLine) -> list[YearQuarter]:
    return [(p.year, p.quarter if p.coded else None) for p in line.columns]


def _ends(line: HeaderLine) -> list[int | None]:
    """Each column's period end as a month index, rounded to the nearest month end (Column.end)."""
    return [
        None if p.end is None else p.end.year * 12 + p.end.month - 1 - (p.end.day < MID_MONTH)
        for p in line.columns
    ]


def context_columns(context: str) -> tuple[tuple[Column | None, ...], bool]:
    """The columns a passage's context line names (its last part that reads as a header); a
    context that says its header's years twice over ("2022 2021 2022 2021") names them once."""
    for part in reversed(context.split("|")):
        read = read_header(part)
        if read and read.columns:
            years, half = _periods(read), len(read.columns) // 2
            if len(years) % 2 == 0 and years[:half] == years[half:] and not SPAN.search(part):
                years = years[:half]
            header = Header([], [])
            header.extend(read, years)
            return header.columns(), header.wider
    return (), False


def page_header(lines: Sequence[str]) -> str:
    """The last column header above a passage (its header lines with years, as one line) and the
    scale stated above it, or ""."""
    block: list[str] = []
    years = 0
    for line in reversed(lines):
        read = read_header(line) if line.strip() else None
        if (
            read is None and (joined := joined_header(line)) is not None
        ):  # "... 2020 2019 2018 Cash flows from"
            read, line = read_header(joined), joined
        if read is not None and (read.columns or block):
            block.insert(0, " ".join(line.split()))
            years += len(read.columns)
        elif block:
            break
    if not years:
        return ""
    scale = scale_of("\n".join(lines))
    return " ".join([f"(in {scale})"] * bool(scale) + block)


def header_below(lines: Sequence[str]) -> str:
    """The column header a page prints below a table (extraction can put a table's header lines
    last): page_header of the lines down to the last header naming years, when no row follows it; or ""."""
    last = next(
        (n for n in range(len(lines) - 1, -1, -1) if (r := read_header(lines[n])) and r.columns), None
    )
    if last is None or any(read_row(line) for line in lines[last + 1 :]):
        return ""
    return page_header(lines[: last + 1])


def _lines(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for line in text.split("\n"):
        yield start, line
        start += len(line) + 1


def scale_of(text: str) -> str:
    """The scale the last "in thousands/millions/billions" of the text states, or ""."""
    found = _SCALE.findall(text)
    return found[-1].lower() if found else ""


def table_rows(text: str, context: str = "", below: bool = False) -> list[TableRow]:
    """The table rows of a passage, in order (see the module docstring), each cell named by its
    column's words when a header of words is above its rows (headed); below: the context's last
    header is the one printed below the table (an amount-and-percentage table's years)."""
    return headed(text, _table_rows(text, context, below))


def headed(text: str, rows: list[TableRow]) -> list[TableRow]:
    """The rows with their cells named by a header of words: for each run of rows on consecutive
    lines whose cells have no period column, the line above its first row, when it holds at least
    as many words as the run's usual number of cells (its columns), names them, right to left
    ("Model Coh. Con. Flu. Rel." over "Alpaca-7B 4.10 4.46 4.23 3.76"); the words before them name
    the label column. A line naming a year or holding a stopword names none ("(in millions) 2023
    2022 Change", "Results of the segments"). A row with more cells than columns has its first ones in its label's column
    ("GPT-4 (0.5) 4.48 ..."); one with fewer is not named."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def line_of(at: int) -> int:
        return bisect_right(starts, at) - 1

    out = list(rows)
    runs: list[list[int]] = []  # indexes into rows, a run each
    for n, row in enumerate(rows):
        here = line_of(row.label_start)
        if runs and line_of(rows[runs[-1][-1]].label_start) in (here, here - 1):
            runs[-1].append(n)
        else:
            runs.append([n])
    for run in runs:
        if any(c.column is not None for n in run for c in rows[n].cells):
            continue  # a period's columns: the header of years names them
        counts = Counter(len(rows[n].cells) for n in run)
        width = max(counts, key=lambda k: (counts[k], -k))
        above = next((x for x in reversed(lines[: line_of(rows[run[0]].label_start)]) if x.strip()), "")
        names = above.split()
        if width < 2 or not width <= len(names) <= HEADER_NAMES * width:
            continue  # no header of words: too few words for the columns, or a line of prose
        if any(YEAR.fullmatch(n.strip("()")) or n.lower().strip("().,:") in STOPWORDS for n in names):
            continue  # a year names a period's column, a stopword a caption's or a sentence's words
        names = names[-width:]
        for n in run:
            row = rows[n]
            if len(row.cells) < width:
                continue
            lead = len(row.cells) - width
            cells = row.cells[:lead] + tuple(
                replace(c, column_name=h) for c, h in zip(row.cells[lead:], names)
            )
            out[n] = replace(row, cells=cells)
    return out


def _table_rows(text: str, context: str = "", below: bool = False) -> list[TableRow]:
    rows: list[TableRow] = []
    header = Header([], [])
    columns, wider = context_columns(context)
    scale, title = scale_of(context), context.split("|")[0].strip()
    statement = next(iter(statements_in(context)), "")
    table, parent = 0, bool(_PARENT.search(context))
    pending: tuple[int, str] | None = None  # a label's first line ("Net income attributable to")
    heading, block = "", 0  # the heading over the rows since it, and how many rows ago it came
    # one-word lines since the last row, and what was read before them: a label set one word a
    # line ("Operating" / "income 1,469,486") is read whole when its last line opens in lower case
    run: tuple[int, str, int, str, str, int] | None = None
    paired = 0  # years whose columns each print an amount, then its percentage ("Amount % to Sales")
    dated = False  # a header of the passage's own dated its rows
    ever_paired = False
    for start, line in _lines(text):
        scale = scale_of(line) or scale
        found = [
            f
            for at, piece in split_rows(line)
            if (f := _row(start + at, piece, header, columns, wider, paired, below))
        ]
        if not found and run is not None and line.lstrip()[:1].islower():
            joined = text[run[0] : start + len(line)].replace("\n", " ")  # the same offsets, one line
            if (whole := _row(run[0], joined, header, columns, wider, paired, below)) is not None:
                found = [whole]
                _, title, table, statement, heading, block = run
        if found and pending is not None:
            label, _, cells, ended = found[0]
            found[0] = (f"{pending[1]} {label}", pending[0], cells, ended)
        pending = None
        for label, label_start, cells, ended in found:
            if ended is not None:
                dated = True
                columns, wider, table = ended, header.wider, table + 1
                header = Header([], [])
            per_share = _PER_SHARE.search(label) or _PER_SHARE_TITLE.match(title)
            row_scale = PER_SHARE if per_share else scale
            if not parent:  # a parent company's own statements (Schedule I) are not the company's figures
                end = label_start + len(label)
                rows.append(
                    TableRow(label, label_start, end, cells, row_scale, title, statement, table, heading)
                )
                block += 1
        if found:
            header, run = Header([], []), None
            continue
        words = line.split()
        if heading and words and not re.search(r"[A-Za-z]", line):  # cells alone close a heading's block
            if not parent and (total := _total(start, line, heading, rows[len(rows) - block :])) is not None:
                rows.append(total)  # "Revenues", its rows, then their sum unlabelled: "Total Revenues"
            heading, block = "", 0
        if words and (re.search(r"\d", line) or len(words) > 1):
            run = None  # only a label set one word a line is read whole
            if not _heading(line) and not _continues(line):
                heading, block = "", 0  # a column's name, a sentence, a longer title: the block is over
        elif words and run is None:
            run = (start, title, table, statement, heading, block)
        if _heading(line):
            heading, block = " ".join(words).rstrip(":"), 0
        elif (
            run is not None and heading and not block
        ):  # a heading set a word a line: "Non-operating" / "income"
            heading = f"{heading} {' '.join(words)}".rstrip(":")
        read = read_header(line) if line.strip() else None
        if read is None and (joined := joined_header(line)) is not None:
            read = read_header(
                joined
            )  # "Years Ended December 31, 2021 2020 2019 Cash flows from operating activities"
        if read is None and len(_AMOUNT_COLUMN.findall(line)) > 1 and not re.search(r"\d", line):
            paired = len(_AMOUNT_COLUMN.findall(line))  # "Amount to Sales Amount to Sales (Decrease)"
            ever_paired = True
        if read is not None:
            header.extend(read)
            if read.columns:  # a new header's years: the heading above it is over
                heading, block, paired = "", 0, 0
            if not read.columns and _PER_SHARE_TITLE.match(line):  # "Per Share Data" heads the rows below it
                title = " ".join(line.split())
        elif re.search(r"\d", line) or line.rstrip().endswith("."):
            header = Header([], [])  # a sentence or a number that is no row: the header is over
            if line.rstrip().endswith(".") and len(line.split()) > SENTENCE_WORDS:
                statement = ""  # prose: the tables after it are not the statement's
        elif _continues(line):
            pending = (start + len(line) - len(line.lstrip()), " ".join(line.split()))
        elif _is_title(line):
            title, table = " ".join(line.split()), table + 1
            statement = next(iter(statements_in(title)), statement)
            parent = parent or bool(_PARENT.search(title))
    # columns named "Amount" and "% to Sales" with no years: the years printed under the table
    if (
        ever_paired
        and not dated
        and not below
        and rows
        and rows[-1].cells
        and (under := header_below(text[rows[-1].cells[-1].end :].splitlines()))
    ):
        return table_rows(text, f"{context} | {under}", below=True)
    return rows


def _heading(line: str) -> bool:
    """Whether a line heads the block of rows below it: a few words, no number, opening with a
    capital, not only a column header's words ("Revenues", "Operating expenses"; not "Year Ended")."""
    words = line.split()
    if not 0 < len(words) <= HEADING_WORDS or re.search(r"\d", line) or not words[0][:1].isupper():
        return False
    if words[-1].lower() in STOPWORDS or line.rstrip().endswith((".", ",")):
        return False
    return any(
        w.lower().strip(".,:()") not in HEADER_WORDS and not re.fullmatch(MONTH, w.lower()) for w in words
    )


def _total(start: int, line: str, heading: str, block: Sequence[TableRow]) -> TableRow | None:
    """The row a line of cells alone is when a heading's rows above it add up to it in every
    column: that heading's total ("Total Revenues"), its label printed nowhere; else None."""
    if not heading or len(block) < 2 or re.search(r"[A-Za-z]", line):
        return None
    prefix = f"Total {heading} "
    row = read_row(prefix + line)
    if row is None or any(c.value is None for c in row.cells):
        return None
    width = len(row.cells)
    if any(len(r.cells) != width for r in block):
        return None
    sums = [sum((r.cells[n].value or Decimal(0) for r in block), Decimal(0)) for n in range(width)]
    if sums != [c.value for c in row.cells]:
        return None
    shift = start - len(prefix)
    cells = tuple(
        TableCell(c.text, shift + c.start, shift + c.end, above.column, c.value)
        for c, above in zip(row.cells, block[-1].cells)
    )
    last = block[-1]
    return TableRow(
        row.label, start, start, cells, last.scale, last.title, last.statement, last.table, heading
    )


def _continues(line: str) -> bool:
    """Whether a line is a row label's first line: it ends on a word that goes on ("of", "and", ",")."""
    words = line.split()
    return 0 < len(words) <= TITLE_WORDS and (words[-1].lower() in STOPWORDS or line.rstrip().endswith(","))


def _is_title(line: str) -> bool:
    """A heading above or inside a table: short, no sentence in it, not ending mid-phrase."""
    words = line.split()
    sentence = ". " in _ABBREVIATION.sub("", line)
    return 0 < len(words) <= TITLE_WORDS and not sentence and words[-1].lower() not in STOPWORDS


def _row(
    start: int,
    line: str,
    header: Header,
    columns: tuple[Column | None, ...],
    wider: bool,
    paired: int = 0,
    below: bool = False,
) -> tuple[str, int, tuple[TableCell, ...], tuple[Column | None, ...] | None] | None:
    """(label, its start, cells, the header's columns when this row ends a header) or None;
    paired: each column an amount then its percentage, as many as the years of the header above
    the row or (below) of the one printed under the table."""
    row = read_row(line)
    if row is None:
        return None
    if row.header is not None:  # "For the Years Ended December 31, 2021 2020 2019 Operating revenues"
        header.extend(row.header)
    ended = header.columns() if header.years else None
    use, more = (ended, header.wider) if ended is not None else (columns, wider)
    aligned = len(use) == len(row.cells) or (more and 0 < len(use) < len(row.cells))
    if paired and (ended is not None or below) and paired == len(use) and len(row.cells) >= 2 * paired:
        use, aligned = tuple(c for column in use for c in (column, None)), True
    cells = tuple(
        TableCell(
            c.text, start + c.start, start + c.end, use[n] if aligned and n < len(use) else None, c.value
        )
        for n, c in enumerate(row.cells)
    )
    return row.label, start + row.start, cells, ended
