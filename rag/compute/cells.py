"""Which cell of the evidence an operand is: a row whose label names the operand, in the column
of the operand's period, in one document.

A row's label names an operand, best first: it is the words the question uses (rank 0); one of
the labels filings print the line item under (1); it opens with one, then a qualifier ("Trade
receivables, net of allowances ...", 2); it holds every concept of the question's words
(rag.questions.asked: "cash from operations" in "Net cash provided by operating activities", 3),
unless it holds a qualifier the line item's name lacks ("Income from discontinued operations" is
no operating income);
with its table's title or the heading over its block it does, for words no line item of the
vocabulary has ("Worldwide" under "Segment sales results", "Casino" under "Revenues", 4). A line item of the
vocabulary (a statement's row) named by its words and others must be on a statement's page: "Other
costs - Cost of products sold" in a note is not the cost of sales. Among the rows
that name it, those of a financial statement come first (one the question names before others),
then the better rank, then the fewest words the operand does not have ("Total current
liabilities" over "Other current liabilities"). Rows that tie there but disagree on the value
are two candidates: no cell is chosen.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rag.compute.question import BASES, Operand
from rag.judgement.question import STATEMENT_KINDS
from rag.questions.vocabulary import phrase_words
from rag.tables.passages import PER_SHARE, TableCell, TableRow, table_rows
from rag.text import tokenize
from rag.types import Evidence

# Words a label may hold beyond the operand's without naming another row...
NEUTRAL = frozenset(tokenize("total net consolidated"))
# ...and words that make it a part or a variant of the line item ("Net income from continuing
# operations", "... attributable to noncontrolling interests"): each counts as QUALIFIER_WEIGHT words.
QUALIFIERS = frozenset(
    "continuing discontinued noncontrolling minority before excluding adjusted per other".split()
)
QUALIFIER_WEIGHT = 5
# A company's fiscal year end (0-based month) when its filings' covers give none: December, as
# rag.retrieval.filings.periods takes it.
DECEMBER = 11
# A column's span fits the asked one: "" (a balance at a date, or a table naming none) fits any.
_FITS = {"": ("", "12m"), "3m": ("", "3m"), "6m": ("", "6m"), "9m": ("", "9m")}
_PER_SHARE_WORDS = re.compile(r"\bper\s+share\b|\beps\b|\bearnings\s+per\b", re.IGNORECASE)
_MARK = re.compile(r"\(\w{1,2}\)|\s\d\)?$")


@dataclass(frozen=True)
class Found:
    """A candidate cell for an operand: the evidence it is in, its row and cell, and its rank."""

    evidence: Evidence
    row: TableRow
    cell: TableCell
    rank: tuple[int, int, int]


def evidence_rows(evidence: Sequence[Evidence]) -> list[tuple[Evidence, TableRow]]:
    """Every table row of the evidence, with the piece it is in."""
    return [(e, row) for e in evidence for row in table_rows(e.text, e.context)]


def _words(label: str) -> tuple[str, ...]:
    return phrase_words(_MARK.sub(" ", label))


def label_rank(operand: Operand, row: TableRow) -> int | None:
    """How the row's label names the operand (the module docstring's ranks), or None."""
    words = _words(row.label)
    if words == phrase_words(operand.name):
        return 0
    names = [phrase_words(n) for n in (operand.name, *operand.labels)]
    if words in names:
        return 1
    opening = _words(row.label.split(",")[0].split("(")[0])
    if opening in names and opening != words:
        return 2
    if any(len(n) > 1 and words[: len(n)] == n for n in names if operand.labels):
        return 2
    if _holds(operand, row.label):
        return 3
    if not operand.line_item and _holds(operand, f"{row.title} {row.heading} {row.label}"):
        return 4
    return None


def _holds(operand: Operand, text: str) -> bool:
    if not operand.concepts:
        return False
    terms = set(tokenize(text))
    return all(c.credit(terms) >= 1.0 for c in operand.concepts)


def _qualified(operand: Operand, label: str) -> bool:
    """Whether the label holds a qualifier the operand's name does not: a part or a variant of it."""
    return any(
        w in QUALIFIERS and w not in phrase_words(operand.name) for w in phrase_words(_MARK.sub(" ", label))
    )


def extra_words(operand: Operand, label: str) -> int:
    """Words of the label the operand's words (or labels) do not have, neutral words aside."""
    own = set(tokenize(" ".join((operand.name, *operand.labels))))
    label = _MARK.sub(" ", label)
    extra = [t for t in tokenize(label) if t not in own and t not in NEUTRAL]
    qualified = [w for w in phrase_words(label) if w in QUALIFIERS and w not in phrase_words(operand.name)]
    return len(extra) + QUALIFIER_WEIGHT * len(qualified)


def column_cell(
    row: TableRow,
    year: int,
    span: str,
    balance: bool = False,
    quarter: int | None = None,
    fy_end: int = DECEMBER,
) -> TableCell | None:
    """The row's cell in the column of that fiscal year and a span that fits the asked one: a
    quarter's or a half's flow needs a column that says so, a balance any column of its year; a
    column that names its quarter must name the asked one, and a quarter's column dated by its
    end ("Three Months Ended October 31, 2022") is the fiscal quarter that date ends, by the
    company's fiscal year end (fy_end: its 0-based month)."""
    fits = _FITS.get(span, ("",)) if balance or not span else (span,)
    found = [
        c
        for c in row.cells
        if c.column
        and c.column.span in fits
        and (
            fiscal_quarter(c.column.end, fy_end) == (year, quarter)
            if quarter and c.column.span == "3m" and c.column.quarter is None and c.column.end is not None
            else c.column.year == year and (c.column.quarter is None or c.column.quarter == quarter)
        )
    ]
    return found[0] if len(found) == 1 else None


def fiscal_quarter(end: int, fy_end: int) -> tuple[int, int]:
    """(fiscal year, quarter) of three months ending in month index end (year * 12 + month - 1),
    for a fiscal year ending in the 0-based month fy_end and named by the year it ends in (as
    rag.retrieval.filings.periods names them: Walmart's year ended January 31, 2018 is fiscal 2018)."""
    year_end = end + (fy_end - end) % 12
    return year_end // 12, (end - (year_end - 11)) // 3 + 1


def _basis_said(label: str) -> tuple[str, ...]:
    """The bases a row's label says ("Property and equipment, net": net; "Gross property": gross)."""
    return tuple(b for b in BASES if b in phrase_words(label))


def statement_rank(operand: Operand, row: TableRow, statements: Sequence[str]) -> int:
    """0 for a row of a statement the question names, 1 of the operand's own statement (net
    income's is the income statement, not the cash flow statement's first row), 2 of another
    statement, 3 off the statements."""
    if row.statement and row.statement in statements:
        return 0
    if row.statement and row.statement == STATEMENT_KINDS.get(operand.statement):
        return 1
    return 2 if row.statement else 3


def candidates(
    operand: Operand,
    rows: Sequence[tuple[Evidence, TableRow]],
    year: int,
    span: str,
    statements: Sequence[str] = (),
    quarter: int | None = None,
    fy_ends: Mapping[str, int] | None = None,
) -> tuple[list[Found], list[tuple[Evidence, TableRow]]]:
    """(the cells that may be the operand, best first; the rows naming it that have no such column)."""
    found, columnless = [], []
    for evidence, row in rows:
        rank = label_rank(operand, row)
        if row.scale == PER_SHARE and not _PER_SHARE_WORDS.search(operand.name):
            continue  # "cash dividends" of a per-share table are not the dividends paid
        extra = extra_words(operand, row.label)
        if rank is None or (rank >= 3 and operand.line_item and not row.statement and extra):
            continue  # a statement line item named by its words and more, off the statements: a note's row
        if rank >= 3 and operand.line_item and _qualified(operand, row.label):
            continue  # "Income (loss) from discontinued operations" holds "operating income"'s words, and is not it
        said = _basis_said(row.label)
        if operand.basis and said and operand.basis not in said:
            continue  # "Property and equipment, gross" is not the net PP&E a definition asks
        balance = row.statement == "balance" or operand.statement == "balance"
        cell = column_cell(row, year, span, balance, quarter, (fy_ends or {}).get(evidence.doc_id, DECEMBER))
        if cell is None:
            columnless.append((evidence, row))
            continue
        where = statement_rank(operand, row, statements)
        if operand.basis and operand.basis not in said:
            extra += 1  # of a line item asked on a basis, a row that says it before one that says none
        found.append(Found(evidence, row, cell, (where, rank, extra)))
    found.sort(key=lambda f: (f.rank, f.row.scale == ""))  # of equals, one whose table states its scale
    return found, columnless
