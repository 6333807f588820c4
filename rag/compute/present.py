"""A computed figure as an answer shows it: one line with the formula, every operand's value
cited by its own cell, and the result ("Quick ratio, FY2022 = (cash 1,234 [c1] + receivables
567 [c2]) / current liabilities 3,456 [c3] = 0.52."), then what was done to the cells (their
scale, an outflow's sign); a figure the filing prints is its cell ("Capital expenditures, FY2018:
(1,577) [c1]"); or, when no figure can be given, which operand failed and the rows found, cited
by their passages (a printed figure not found is left to the passages: no line). Each operand's cell becomes a piece of evidence of its own (its
chunk's text, its locator the number's characters on the page, its Cell naming the chunk), so
that two operands of one chunk are two footnotes, each opening its cell.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from ingest.pdf.chunking import PAGE_JOIN  # how a chunk's pages are joined in its text
from rag.compute.formula import Ref, show
from rag.compute.question import Figure
from rag.compute.solve import TWO_ROWS, Reading, Refused, Solved, solve
from rag.compute.values import grouped, plain
from rag.questions.read import Question
from rag.tables.passages import TableRow
from rag.types import Cell, Computed, ComputedOperand, Evidence

UNIT_WORDS = {"thousands": "thousand", "millions": "million", "billions": "billion", "units": ""}
BLOCK_HEAD = (
    "Computed figure (Footnote computed it exactly from the table cells below; cite each cell by its "
    "ID and do not redo the arithmetic):"
)
NOT_COMPUTED = "The figure is not computed:"


@dataclass(frozen=True)
class Computation:
    """What the answer shows for a figure: its line (the figure, or why none), the operands'
    cell evidence, the Computed record (None when refused) and the block a model is given."""

    line: str
    cells: tuple[Evidence, ...]
    computed: Computed | None
    block: str
    complete: bool = False  # the figure is given and is all the question asks


def compute_answer(
    question: Question,
    evidence: Sequence[Evidence],
    named: Sequence[str] = (),
    fy_ends: Mapping[str, int] | None = None,
) -> Computation | None:
    """The question's figure computed from the evidence (rag.compute.solve), as the answer shows
    it; None when the question asks for no figure. named: the documents the question names;
    fy_ends: each document's company's fiscal year end (0-based month), dating quarters' columns."""
    figure = question.figure
    if figure is None:
        return None
    outcome = solve(figure, evidence, question.statements, named, question.asked.names, fy_ends)
    if isinstance(outcome, Refused):  # a figure printed as is but not found: the passages answer
        return None if figure.source == "item" and outcome.reason != TWO_ROWS else _refused(outcome)
    return _solved(outcome, {e.short_id for e in evidence})


def _solved(solved: Solved, taken: set[str]) -> Computation:
    figure = solved.figure
    line, cells = _line(solved, taken)
    if solved.others:  # two reporting entities: the figure of each, labelled with its entity
        lines = [f"{solved.entity}: {line}"]
        for other in solved.others:
            more, other_cells = _line(other, taken)
            lines.append(f"{other.entity}: {more}")
            cells += other_cells
        line = " ".join(lines)
    names = _operand_names(figure)
    operands = tuple(
        ComputedOperand(
            names[n],
            plain(r.value),
            r.found.cell.text,
            r.scale or "not stated",
            r.found.row.label,
            _column(r),
            c.short_id,
        )
        for n, (r, c) in enumerate(zip(solved.readings, cells))
    )
    computed = Computed(show(figure.formula, names), operands, plain(solved.result), unit_of(solved))
    listed = "\n".join(f"Source ID [{c.short_id}]: {_cell_text(c)}" for c in cells)
    return Computation(line, tuple(cells), computed, f"{BLOCK_HEAD}\n{line}\n{listed}", figure.whole)


def _line(solved: Solved, taken: set[str]) -> tuple[str, list[Evidence]]:
    """The figure's line and its operands' cells (each taken into `taken`)."""
    figure = solved.figure
    cells: list[Evidence] = []
    for reading in solved.readings:
        cell = cell_evidence(reading, taken)
        taken.add(cell.short_id.lower())
        cells.append(cell)
    names = _operand_names(figure)
    if isinstance(figure.formula, Ref):  # one printed figure: its row, its cell, in the unit asked
        return _lookup_line(solved, cells[0], names), cells
    shown = [
        f"{names[n]} {grouped(r.value)} [{c.short_id}]"
        for n, (r, c) in enumerate(zip(solved.readings, cells))
    ]
    period = "" if figure.parts else figure.period_text()  # an average's or a change's name holds its years
    head = ", ".join(p for p in (figure.name[:1].upper() + figure.name[1:], period) if p)
    result = result_text(solved)
    each = "; ".join(
        f"{label}: {value_text(value, figure.unit, solved.scale)}" for label, value in solved.parts
    )
    notes = "; ".join(n for n in (each, _notes(solved, names)) if n)
    equation = f"{show(figure.formula, shown)} = {result} ({notes})"
    return (f"{head} = {equation}." if head else f"{equation}."), cells


def _lookup_line(solved: Solved, cell: Evidence, names: list[str]) -> str:
    """ "Capital expenditures, FY2018: 1,577 (USD millions) [c1] (cells in millions; ...)": the
    cell's figure in the unit asked, a conversion shown (issue 51, step 5)."""
    only = solved.readings[0]
    head = ", ".join(p for p in (only.found.row.label, solved.figure.period_text()) if p)
    notes = [_notes(solved, names)]
    printed, asked = UNIT_WORDS.get(only.scale, ""), UNIT_WORDS.get(solved.scale, "")
    if only.scale != solved.scale and printed and only.scale in UNIT_WORDS and solved.scale in UNIT_WORDS:
        notes.append(
            f"{grouped(only.value)} {printed} = {grouped(solved.result)}{' ' + asked if asked else ''}"
        )
    return f"{head}: {grouped(solved.result)} ({unit_of(solved)}) [{cell.short_id}] ({'; '.join(notes)})."


def value_text(value: Decimal, unit: str, scale: str = "") -> str:
    """A figure as the line writes it: "18.0%", "46.9 days", "0.52", "USD 7,699 million"."""
    if unit == "%":
        return f"{plain(value)}%"
    if unit in ("days", "times"):
        return f"{plain(value)} {unit}"
    if unit == "amount":
        word = UNIT_WORDS.get(scale, "")
        return f"USD {grouped(value)}{' ' + word if word else ''}"
    return plain(value)


def _refused(refused: Refused) -> Computation:
    what = f'"{refused.operand}": {refused.reason}' if refused.operand else refused.reason
    found = [f"{_row_text(r.found.row, r)} [{r.found.evidence.short_id}]" for r in refused.found]
    found += [f"{_row_text(row)} [{e.short_id}]" for e, row in refused.rows]
    rows = f" Rows found: {'; '.join(dict.fromkeys(found))}." if found else ""
    line = f"{NOT_COMPUTED} {what}.{rows}"
    block = f"Computed figure: none. {line} Do not compute this figure yourself."
    return Computation(line, (), None, block)


def _operand_names(figure: Figure) -> list[str]:
    """Operand names as the line shows them: with their year where the formula reads several years."""
    years = {o.name: set() for o in figure.operands}
    for o in figure.operands:
        years[o.name].add((o.year, o.back))
    names = []
    for o in figure.operands:
        if len(years[o.name]) > 1 and figure.year is not None:
            names.append(f"{o.name} {o.column_year(figure.year)}")
        else:
            names.append(o.name)
    return names


def _column(reading: Reading) -> str:
    column = reading.found.cell.column
    if column is None:
        return ""
    span = {"3m": "three months ", "6m": "six months ", "9m": "nine months "}.get(column.span, "")
    return f"{span}{column.year}"


def _row_text(row: TableRow, reading: Reading | None = None) -> str:
    if reading is not None:
        return f"{row.label}, {_column(reading)}: {reading.found.cell.text}"
    return f"{row.label}: {' / '.join(c.text for c in row.cells)}"


def result_text(solved: Solved) -> str:
    """The result as the line writes it: "0.52", "18.0%", "46.9 days", "USD 7,699 million"."""
    return value_text(solved.result, solved.figure.unit, solved.scale)


def unit_of(solved: Solved) -> str:
    """The unit the result is in: "ratio", "%", "times", "days", "USD millions"."""
    if solved.figure.unit == "amount":
        return "USD" if solved.scale in ("", "units") else f"USD {solved.scale}"
    return solved.figure.unit


def _notes(solved: Solved, names: list[str]) -> str:
    scales = {r.scale or "not stated" for r in solved.readings}
    notes = []
    if len(scales) == 1:
        scale = scales.pop()
        notes.append("cells as printed" if scale in ("units", "not stated") else f"cells in {scale}")
    else:
        notes.append(
            "cells in "
            + ", ".join(f"{names[n]}: {r.scale or 'not stated'}" for n, r in enumerate(solved.readings))
        )
    notes += [f"{names[n]} {r.note}" for n, r in enumerate(solved.readings) if r.note]
    return "; ".join(notes)


def cell_id(chunk_id: str, start: int, taken: set[str]) -> str:
    """A short id for one cell of a chunk: 7 hex characters of a hash of the two, lengthened or
    shifted like a chunk's (rag.citations.evidence) until it is not taken."""
    digest = hashlib.sha256(f"{chunk_id}:{start}".encode()).hexdigest()
    for size in (7, 8):
        for i in range(len(digest) - size + 1):
            candidate = digest[i : i + size]
            if candidate not in taken:
                return candidate
    raise ValueError("no free short id for a cell")  # pragma: no cover - 2 x 58 hashes all taken


def cell_evidence(reading: Reading, taken: set[str]) -> Evidence:
    """The piece of evidence one operand's cell is: its chunk's text, its locator the number on the page."""
    found = reading.found
    source = found.evidence
    cell = found.cell
    number = page_range(source, cell.start, cell.end)
    label = page_range(source, found.row.label_start, found.row.label_end)
    locators = source.locators
    if number is not None:
        n, start, end = number
        locators = (replace(source.locators[n], char_start=start, char_end=end),)
    label_start, label_end = (
        (label[1], label[2]) if label is not None and number is not None and label[0] == number[0] else (0, 0)
    )
    return replace(
        source,
        short_id=cell_id(source.chunk_id, cell.start, taken),
        locators=locators,
        cell=Cell(source.short_id, found.row.label, _column(reading), cell.text, label_start, label_end),
    )


def page_range(evidence: Evidence, start: int, end: int) -> tuple[int, int, int] | None:
    """(locator index, start, end) in that page's text for [start, end) of the evidence's text,
    when its text is its pages' slices joined as ingest joins them; else None."""
    spans = [loc.char_end - loc.char_start for loc in evidence.locators]
    if sum(spans) + len(PAGE_JOIN) * (len(spans) - 1) != len(evidence.text):
        return None
    offset = 0
    for n, (loc, size) in enumerate(zip(evidence.locators, spans)):
        if offset <= start and end <= offset + size:
            return n, loc.char_start + start - offset, loc.char_start + end - offset
        offset += size + len(PAGE_JOIN)
    return None


def _cell_text(cell: Evidence) -> str:
    assert cell.cell is not None
    c = cell.cell
    return f'cell of source [{c.chunk}], row "{c.label}", column {c.column}: {c.printed}'
