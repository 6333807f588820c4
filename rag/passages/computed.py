"""A metric the documents do not print but its inputs are there: the table row of each line item
a question defines or writes out (rag.questions.read.Question.inputs), quoted with its column, so
that the reader (or a model) computes the figure from cited numbers and nothing is invented.

A row *holds* an input when its label holds every concept of the input (rag.questions.asked: a shorthand
such as "COGS" counts through its spelled-out words) or, for a synonym group, one of its phrases;
among the rows that hold it, the one with a value in the asked year's column wins, then the one
whose label has the fewest other words ("Total current liabilities" over "Other current
liabilities and accrued expenses"). A row whose columns name years, none of them asked, holds
another year's figure and is never one (FY2021 capex over operating revenues must not quote the
revenues of 2020, 2019 and 2018). The answer is given only when every input has a
row: two of three inputs are not a computation.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag.passages.rows import parse_row, value_for
from rag.passages.units import Unit
from rag.questions.read import Input
from rag.text import acronyms, tokenize

# Share of an input's concepts a row label must hold. 1.0: every one (a label holding "current
# liabilities" but not "total" is another row). Set on filings-dev's FinanceBench questions.
INPUT_SHARE = 1.0


def _holds(item: Input, unit: Unit) -> float:
    """The share of the item's concepts the row's label holds."""
    concepts = item.concepts
    if not concepts or unit.row is None:
        return 0.0
    terms = set(tokenize(unit.row.label)) | acronyms(unit.row.label)
    return sum(c.credit(terms) for c in concepts) / len(concepts)


def _extra_words(item: Input, unit: Unit) -> int:
    return len([t for t in tokenize(unit.row.label if unit.row else "") if t not in item.terms])


def holds_row(item: Input, text: str) -> bool:
    """Whether a passage has a table row whose label holds the item."""
    return any(
        _holds(item, Unit("", 0, line, row)) >= INPUT_SHARE
        for line in text.splitlines()
        if (row := parse_row(" ".join(line.split()))) is not None
    )


def best_row(item: Input, units: Sequence[Unit], years: Sequence[int]) -> Unit | None:
    """The row that holds the item (see the module docstring), or None."""

    def has_year(unit: Unit) -> bool:
        return any(value_for(unit.row, unit.columns, y) is not None for y in years) if years else True

    rows = [
        u
        for u in units
        if u.row is not None and _holds(item, u) >= INPUT_SHARE and (has_year(u) or not u.columns)
    ]
    if not rows:
        return None

    def rank(unit: Unit) -> tuple[int, int]:
        return (0 if has_year(unit) else 1, _extra_words(item, unit))

    return min(rows, key=rank)


def computed_rows(inputs: Sequence[Input], units: Sequence[Unit], years: Sequence[int]) -> list[Unit] | None:
    """The row of each input, in order, or None unless every input has one."""
    found = []
    for item in inputs:
        row = best_row(item, units, years)
        if row is None:
            return None
        found.append(row)
    return list(dict.fromkeys(found))
