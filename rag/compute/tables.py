"""Table rows read from a passage with where each cell sits, so that an operand can be cited by
its own cell: "Total current liabilities 3,527,457 2,811,635" under a header naming 2017 and
2016, in thousands, gives two cells, each with its column's year and its characters in the text.

Filings' headers come in many shapes once extracted (rag.compute.headers reads them): the years
on one line ("2023 2022"), one a line under a date ("December 1,", "2017"), after the scale
("(Amounts in millions) 2018 2017"), joined to the first row ("... December 31, 2021 2020 2019
Operating revenues $ 3,930 ..."). Rows extraction ran together on one line are split; a heading
in capitals run into a label is dropped. A passage that starts below its header takes the header
from its context line. Nothing is guessed: a cell whose column is not known has no year, and a
parent company's own statements (Schedule I) give no rows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from rag.compute.headers import MONTH, YEAR, Column, Header, context_columns, extend, header_years
from rag.questions.request import statements_in
from rag.text import STOPWORDS

# A cell at the end of a line: (1,311 ) ( 1,177 ) $ 1,577 -12.5 3% 4.450% 1.00, or a dash.
_NUMBER = r"\d(?:[\d,]*\d)?(?:\.\d+)?"
_CELL = (
    rf"(?:\(\s*[$\u20ac\u00a3]?\s*{_NUMBER}\s*%?\s*\)|[-\u2212]?[$\u20ac\u00a3]?{_NUMBER}%?"
    r"|[\u2014\u2013-](?=\s|$)|[$\u20ac\u00a3%])"
)
_CELL_AT_END = re.compile(rf"(?<![\w,.]){_CELL}\s*$")
# Two rows extraction ran together: "Depreciation 636 604 582 Deferred income taxes (23) (20)".
_RUN_TOGETHER = re.compile(rf"(?<=[A-Za-z)\s])((?:\s+{_CELL}){{2,}})\s+(?=\(?[A-Z][A-Za-z])")
# "CASH FLOWS FROM OPERATING ACTIVITIES Net income": a capitalised heading run into a row's label.
_CAPS_LEAD = re.compile(r"^(?:[A-Z&'\u2019-]{2,}[,:]?\s+){2,}(?=[A-Z][a-z])")
_LEADER = re.compile(r"(?:\s*(?:\.\s?){3,}|\s*\u2026+)\s*")
_SCALE = re.compile(r"\bin\s+(thousands|millions|billions)\b", re.IGNORECASE)
_PARENT = re.compile(
    r"\bfinancial\s+information\s+of\s+(?:the\s+)?(?:parent|registrant)\b|\bparent\s+company\s+only\b",
    re.IGNORECASE,
)
_PER_SHARE_TITLE = re.compile(r"^\W*(?:\w+\s+)?per\s+(?:common\s+)?share\b(?!.*\bexcept\b)", re.IGNORECASE)
PER_SHARE = "per share"  # the scale of a per-share row: units, never mixed with amounts
_PER_SHARE = re.compile(r"\bper\s+(?:common\s+|diluted\s+|basic\s+)?share\b|\beps\b", re.IGNORECASE)
SENTENCE_WORDS = 8  # a line of more words that is no row is prose (a note under a statement)
TITLE_WORDS = 12  # a table's title or a section heading inside it is at most this long


@dataclass(frozen=True)
class TableCell:
    """One cell as printed, [start, end) in the passage's text, and its column (None: unknown)."""

    text: str
    start: int
    end: int
    column: Column | None


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


def _lines(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for line in text.split("\n"):
        yield start, line
        start += len(line) + 1


def split_cells(line: str) -> tuple[str, list[tuple[int, int]]]:
    """(label part, [start, end) of each cell at the line's end, in order); "$" signs are no cells."""
    cells: list[tuple[int, int]] = []
    end = len(line.rstrip())
    while end > 0:
        found = _CELL_AT_END.search(line, 0, end)
        if not found or (found.end() < end and line[found.end() : end].strip()):
            break
        piece = line[found.start() : end].strip()
        if piece not in "$\u20ac\u00a3%":
            cells.append((found.start(), found.start() + len(line[found.start() : end].rstrip())))
        end = len(line[: found.start()].rstrip())
    return line[:end], cells[::-1]


def _label(raw: str) -> str:
    return _CAPS_LEAD.sub("", " ".join(_LEADER.sub(" ", raw).split())).rstrip(" :$%")


def _is_label(label: str, cells: list[str]) -> bool:
    if not label or not any(ch.isalpha() for ch in label) or label[-1] in ".!?;,":
        return False
    if not (label[0].isupper() or label[0] in "(\u2022" or label[0].isdigit()):
        return False
    if label.split()[-1].lower() in STOPWORDS:
        return False
    numbers = [c for c in cells if re.search(r"\d", c)]
    if not numbers:  # "Marketable securities — —": a row of nothing in every column
        return len(cells) > 1 and all(c.strip() in "\u2014\u2013-" for c in cells)
    return len(cells) > 1 or bool(re.search(r"[,.()%$]", numbers[0]))


def scale_of(text: str) -> str:
    """The scale the last "in thousands/millions/billions" of the text states, or ""."""
    found = _SCALE.findall(text)
    return found[-1].lower() if found else ""


def read_rows(text: str, context: str = "") -> list[TableRow]:
    """The table rows of a passage, in order (see the module docstring)."""
    rows: list[TableRow] = []
    header = Header([], [])
    columns, wider = context_columns(context)
    scale, title = scale_of(context), context.split("|")[0].strip()
    statement = next(iter(statements_in(context)), "")
    table, parent = 0, bool(_PARENT.search(context))
    pending: tuple[int, str] | None = None  # a label's first line ("Net income attributable to")
    for start, line in _lines(text):
        scale = scale_of(line) or scale
        found = [f for piece, at in _pieces(line, start) if (f := _row(at, piece, header, columns, wider))]
        if found and pending is not None:
            label, _, cells, ended = found[0]
            found[0] = (f"{pending[1]} {label}", pending[0], cells, ended)
        pending = None
        for label, label_start, cells, ended in found:
            if ended is not None:
                columns, wider, table = ended, header.wider, table + 1
                header = Header([], [])
            per_share = _PER_SHARE.search(label) or _PER_SHARE_TITLE.match(title)
            row_scale = PER_SHARE if per_share else scale
            if not parent:  # a parent company's own statements (Schedule I) are not the company's figures
                rows.append(
                    TableRow(
                        label,
                        label_start,
                        label_start + len(label),
                        cells,
                        row_scale,
                        title,
                        statement,
                        table,
                    )
                )
        if found:
            header = Header([], [])
            continue
        read = header_years(line) if line.strip() else None
        if read is not None:
            extend(header, line, *read)
            if not read[0] and _PER_SHARE_TITLE.match(line):  # "Per Share Data" heads the rows below it
                title = " ".join(line.split())
        elif re.search(r"\d", line) or line.rstrip().endswith("."):
            header = Header([], [])  # a sentence or a number that is no row: the header is over
            if (
                line.rstrip().endswith(".") and len(line.split()) > SENTENCE_WORDS
            ):  # prose: the tables after it are not the statement's
                statement = ""
        elif _continues(line):
            pending = (start + len(line) - len(line.lstrip()), " ".join(line.split()))
        elif _is_title(line):
            title, table = " ".join(line.split()), table + 1
            statement = next(iter(statements_in(title)), statement)
            parent = parent or bool(_PARENT.search(title))
    return rows


def _pieces(line: str, start: int) -> list[tuple[str, int]]:
    """The rows a line holds, each with its offset: several when extraction ran rows together
    (a run of two or more cells, not all years, then a capitalised word)."""
    pieces, begin = [], 0
    for run in _RUN_TOGETHER.finditer(line):
        cells = re.findall(r"\S+", run.group(1))
        if all(YEAR.fullmatch(c) or c in "$%" for c in cells):
            continue
        pieces.append((line[begin : run.end(1)], start + begin))
        begin = run.end(1)
    pieces.append((line[begin:], start + begin))
    return pieces


def _continues(line: str) -> bool:
    """Whether a line is a row label's first line: it ends on a word that goes on ("of", "and", ",")."""
    words = line.split()
    return 0 < len(words) <= TITLE_WORDS and (words[-1].lower() in STOPWORDS or line.rstrip().endswith(","))


def _is_title(line: str) -> bool:
    """A heading above or inside a table: short, no sentence in it, not ending mid-phrase."""
    words = line.split()
    return 0 < len(words) <= TITLE_WORDS and ". " not in line and words[-1].lower() not in STOPWORDS


def _row(
    start: int,
    line: str,
    header: Header,
    columns: tuple[Column | None, ...],
    wider: bool,
) -> tuple[str, int, tuple[TableCell, ...], tuple[Column | None, ...] | None] | None:
    """(label, its start, cells, the header's columns when this row ends a header) or None."""
    raw, spans = split_cells(line)
    printed = [line[a:b] for a, b in spans]
    joined = _joined_header(raw)
    read = header_years(joined[0]) if joined is not None else None
    if (
        joined is not None and read is not None
    ):  # "For the Years Ended December 31, 2021 2020 2019 Operating revenues"
        raw = " " * len(joined[0]) + joined[1]
    label = _label(raw)
    if not _is_label(label, printed) or all(YEAR.fullmatch(p.strip()) for p in printed):
        return None
    if re.fullmatch(MONTH, label.lower()):
        return None
    if joined is not None and read is not None:
        extend(header, joined[0], *read)
    label_start = start + len(raw) - len(raw.lstrip())
    ended = header.columns() if header.years else None
    use, more = (ended, header.wider) if ended is not None else (columns, wider)
    aligned = len(use) == len(spans) or (more and 0 < len(use) < len(spans))
    cells = tuple(
        TableCell(p.strip(), start + a, start + b, use[n] if aligned and n < len(use) else None)
        for n, ((a, b), p) in enumerate(zip(spans, printed))
    )
    return label, label_start, cells, ended


def _joined_header(raw: str) -> tuple[str, str] | None:
    """(header part, row label) when a row's label opens with a header's years."""
    years = list(YEAR.finditer(raw))
    if len(years) < 2:
        return None
    cut = years[-1].end()
    rest = raw[cut:]
    if not re.match(r"\s+[A-Z]", rest):
        return None
    return raw[:cut], rest
