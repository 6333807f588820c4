"""Which cell of the evidence an operand is: a row whose label names the operand, in the column
of the operand's period, in one document.

A row's label names an operand, best first: it is one of the labels filings print the line item
under or the words the question uses (rank 0); it opens with one, then a qualifier ("Trade
receivables, net of allowances ...", rank 1); it holds every concept of the question's words
(rag.questions.asked: "cash from operations" in "Net cash provided by operating activities", rank
2); with its table's heading it does ("Subscription" under "Revenue:", rank 3). Among the rows
that name it, those of a financial statement come first (one the question names before others),
then the better rank, then the fewest words the operand does not have ("Total current
liabilities" over "Other current liabilities"). Rows that tie there but disagree on the value
are two candidates: no cell is chosen.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rag.compute.tables import TableCell, TableRow, read_rows
from rag.questions.figure import Operand
from rag.questions.vocabulary import phrase_words
from rag.text import tokenize
from rag.types import Evidence

# Words a label may hold beyond the operand's without naming another row...
NEUTRAL = frozenset({"total", "net", "consolidated"})
# ...and words that make it a part or a variant of the line item ("Net income from continuing
# operations", "... attributable to noncontrolling interests"): each counts as QUALIFIER_WEIGHT words.
QUALIFIERS = frozenset(
    tokenize("continuing discontinued noncontrolling minority before excluding adjusted per other")
)
QUALIFIER_WEIGHT = 5
# A column's span fits the asked one: "" (a balance at a date, or a table naming none) fits any.
_FITS = {"": ("", "12m"), "3m": ("", "3m"), "6m": ("", "6m"), "9m": ("", "9m")}
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
    return [(e, row) for e in evidence for row in read_rows(e.text, e.context)]


def _words(label: str) -> tuple[str, ...]:
    return phrase_words(_MARK.sub(" ", label))


def label_rank(operand: Operand, row: TableRow) -> int | None:
    """How the row's label names the operand (the module docstring's ranks), or None."""
    words = _words(row.label)
    names = [phrase_words(n) for n in (operand.name, *operand.labels)]
    if words in names:
        return 0
    opening = _words(row.label.split(",")[0].split("(")[0])
    if opening in names and opening != words:
        return 1
    if any(len(n) > 1 and words[: len(n)] == n for n in names if operand.labels):
        return 1
    if _holds(operand, row.label):
        return 2
    if _holds(operand, f"{row.title} {row.label}") and row.title.rstrip().endswith(":"):
        return 3
    return None


def _holds(operand: Operand, text: str) -> bool:
    if not operand.concepts:
        return False
    terms = set(tokenize(text))
    return all(c.credit(terms) >= 1.0 for c in operand.concepts)


def extra_words(operand: Operand, label: str) -> int:
    """Words of the label the operand's words (or labels) do not have, neutral words aside."""
    own = set(tokenize(" ".join((operand.name, *operand.labels))))
    extra = [t for t in tokenize(label) if t not in own and t not in NEUTRAL]
    return sum(QUALIFIER_WEIGHT if t in QUALIFIERS else 1 for t in extra)


def column_cell(row: TableRow, year: int, span: str, balance: bool = False) -> TableCell | None:
    """The row's cell in the column of that fiscal year and a span that fits the asked one: a
    quarter's or a half's flow needs a column that says so, a balance any column of its year."""
    fits = _FITS.get(span, ("",)) if balance or not span else (span,)
    found = [c for c in row.cells if c.column and c.column.year == year and c.column.span in fits]
    return found[0] if len(found) == 1 else None


def candidates(
    operand: Operand,
    rows: Sequence[tuple[Evidence, TableRow]],
    year: int,
    span: str,
    statements: Sequence[str] = (),
) -> tuple[list[Found], list[tuple[Evidence, TableRow]]]:
    """(the cells that may be the operand, best first; the rows naming it that have no such column)."""
    found, columnless = [], []
    for evidence, row in rows:
        rank = label_rank(operand, row)
        if rank is None:
            continue
        balance = row.statement == "balance" or operand.statement == "balance"
        cell = column_cell(row, year, span, balance)
        if cell is None:
            columnless.append((evidence, row))
            continue
        where = 0 if row.statement and row.statement in statements else 1 if row.statement else 2
        found.append(Found(evidence, row, cell, (where, rank, extra_words(operand, row.label))))
    found.sort(key=lambda f: (f.rank, f.row.scale == ""))  # of equals, one whose table states its scale
    return found, columnless
