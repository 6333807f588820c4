"""A figure computed from the evidence, or refused: every operand's cell (rag.compute.cells) from
one document, each value exact (rag.compute.values), the scales reconciled, the formula
evaluated, the result rounded as asked.

Refusal beats a wrong number. No figure is given when the question names no period, an operand
has no row, its rows have no column for its period, two rows could be it, a scale is not stated
where another is, or a divisor is zero; the refusal says which operand failed and which rows were
found. Signs are an analyst's: a dash is nothing (0); an outflow's parentheses (capital
expenditures, dividends, interest expense: rag.questions.vocabulary) give its direction, so its
amount is used and the note says so; any other parentheses are a negative number (an operating loss).

The document: the one whose cells give every operand; among several, the asked period's own
filing (its latest column is the asked year), then the first in the evidence. A share of a whole
("what share of revenue came from MedTech") takes both from one table, and is no share unless it
comes to 0-100%.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext

from rag.compute.cells import Found, candidates, evidence_rows
from rag.compute.formula import Expr, evaluate
from rag.compute.question import Figure, Operand
from rag.compute.values import SCALES, decimals_of, in_parentheses, round_half_up
from rag.questions.vocabulary import load_vocabulary, phrase_words
from rag.tables.passages import PER_SHARE, TableRow
from rag.types import Evidence

TWO_ROWS = "two rows could be it"
PRECISION = 28  # decimal digits of the arithmetic (Python's default context)
# A statement_rank (rag.compute.cells) from which a statement line item's row is no longer its own.
OFF_STATEMENT = 2


@dataclass(frozen=True)
class Reading:
    """An operand's cell read: where, the value used (in the table's scale), and what was done to it."""

    found: Found
    value: Decimal
    scale: str
    note: str = ""  # "printed (1,522), an outflow: 1,522", "a dash: 0"


@dataclass(frozen=True)
class Solved:
    """The figure computed: each operand's reading, the result in the asked unit (rounded as
    asked), and the scale of an amount's result."""

    figure: Figure
    readings: tuple[Reading, ...]
    result: Decimal
    scale: str
    parts: tuple[tuple[str, Decimal], ...] = ()  # each period's figure of an average or a change, rounded
    entity: str = ""  # the reporting entity its tables name, when the filing reports two
    others: tuple[Solved, ...] = ()  # the same figure for the filing's other reporting entities


@dataclass(frozen=True)
class Refused:
    """Why no figure is given: the operand that failed (its name, "" for the whole figure), the
    reason, and the rows found (the readings of the other operands, and the failed one's candidates)."""

    figure: Figure
    operand: str
    reason: str
    found: tuple[Reading, ...] = ()
    rows: tuple[tuple[Evidence, TableRow], ...] = ()


def solve(
    figure: Figure,
    evidence: Sequence[Evidence],
    statements: Sequence[str] = (),
    named: Sequence[str] = (),
    names: Sequence[str] = (),
    fy_ends: Mapping[str, int] | None = None,
) -> Solved | Refused:
    """The figure from the evidence's cells (see the module docstring); the first of its formula
    and its alternatives that every operand's cell gives, else the first's refusal. named: the
    documents the question names (doc ids); with none, the evidence must be of one document.
    names: the names the question writes (lower case), which pick a reporting entity. fy_ends: each
    document's company's fiscal year end (0-based month), which dates a quarter's column."""
    if figure.year is None:
        return Refused(figure, "", "the question names no fiscal period")
    if named:
        evidence = [e for e in evidence if e.doc_id in named]
    elif len({e.doc_id for e in evidence}) > 1:
        return Refused(
            figure, "", "the passages come from several documents and the question names none of them"
        )
    rows = evidence_rows(evidence)
    first: Refused | None = None
    for candidate in (figure, *figure.alternatives):
        outcome = _solve_one(candidate, rows, statements, names, fy_ends)
        if isinstance(outcome, Refused) and outcome.reason == TWO_ROWS:
            outcome = _each_entity(candidate, rows, statements, outcome, fy_ends)
        if isinstance(outcome, Solved):
            return checked(outcome)
        first = first or outcome
    assert first is not None
    return first


def _each_entity(
    figure: Figure,
    rows: list[tuple[Evidence, TableRow]],
    statements: Sequence[str],
    refused: Refused,
    fy_ends: Mapping[str, int] | None = None,
) -> Solved | Refused:
    """A filing reporting two entities (a holding company and its utility, each with statements of
    its own): the figure for each entity the tied rows' tables name, the first given with the others
    (issue 51, step 6); the refusal when the tied rows name no two entities or one cannot be computed."""
    entities = list(dict.fromkeys(entity_of(e, r) for e, r in refused.rows))
    if len(entities) < 2 or "" in entities:
        return refused
    solved = []
    for entity in entities:
        own = [(e, r) for e, r in rows if entity_of(e, r) in (entity, "")]
        outcome = _solve_one(figure, own, statements, (), fy_ends)
        if not isinstance(outcome, Solved):
            return refused
        solved.append(replace(outcome, entity=entity))
    return replace(solved[0], others=tuple(solved[1:]))


# A statement's title after the entity it is of ("CITYCENTER HOLDINGS, LLC CONSOLIDATED BALANCE SHEETS",
# "Pennsylvania-American Water Company Statements of Operations"); an exhibit's number before it.
_ENTITY = re.compile(
    r"^(?:exhibit\s+[\d.]+\s+)?(?P<name>[A-Z][^|]*?)\s+(?:and\s+subsidiaries\s+)?(?:consolidated\s+|combined\s+)?"
    r"(?:balance\s+sheets?|statements?\s+of)\b",
    re.IGNORECASE,
)
ENTITY_WORDS = 8  # an entity's name is at most this long; a longer run is a sentence


def entity_of(evidence: Evidence, row: TableRow) -> str:
    """The reporting entity a row's table is titled with, as printed, or ""."""
    for title in (row.title, evidence.context.split("|")[0]):
        found = _ENTITY.search(" ".join(title.split()))
        if found and len(found["name"].split()) <= ENTITY_WORDS:
            return found["name"].strip(" ,")
    return ""


def _names_entity(names: Sequence[str], entity: str) -> bool:
    """Whether a name the question writes is the entity's ("mgm resorts": MGM RESORTS INTERNATIONAL)."""
    words = set(phrase_words(entity))
    return any(set(phrase_words(n)) <= words for n in names if phrase_words(n))


_KINDS = {
    "%": "a percentage",
    "ratio": "a ratio",
    "times": "a ratio",
    "days": "a number of days",
    "amount": "an amount",
}


def checked(solved: Solved) -> Solved | Refused:
    """The figure, or its refusal when it is not of the kind the question asks (issue 51, step 1):
    a percentage, a margin or a ratio is never answered with an amount, nor an amount with a ratio."""
    figure = solved.figure
    share = ("%", "ratio", "times", "days")
    if (figure.asked in ("%", "ratio") and figure.unit == "amount") or (
        figure.asked == "amount" and figure.unit in share
    ):
        reason = (
            f"the question asks for {_KINDS[figure.asked]} and the formula found "
            f"({figure.formula_text()}) gives {_KINDS[figure.unit]}"
        )
        return Refused(figure, "", reason, solved.readings)
    return solved


def _solve_one(
    figure: Figure,
    rows: list[tuple[Evidence, TableRow]],
    statements: Sequence[str],
    names: Sequence[str],
    fy_ends: Mapping[str, int] | None = None,
) -> Solved | Refused:
    def key(e: Evidence, r: TableRow) -> tuple[str, ...]:
        return (e.doc_id, e.short_id, str(r.table)) if figure.one_page else (e.doc_id,)

    groups = list(dict.fromkeys(key(e, r) for e, r in rows))
    outcomes = [
        _in_document(figure, [(e, r) for e, r in rows if key(e, r) == g], statements, names, fy_ends)
        for g in groups
    ]
    solved = [o for o in outcomes if isinstance(o, Solved)]
    if solved:
        return min(enumerate(solved), key=lambda i_s: (not _own_period(i_s[1]), i_s[0]))[1]
    refused = [o for o in outcomes if isinstance(o, Refused)]
    if not refused:
        return Refused(figure, figure.operands[0].name, "no table row in the passages holds it")
    return max(refused, key=lambda r: len(r.found))


def _own_period(solved: Solved) -> bool:
    """Whether the cells are the asked period's filing's (or the filing the question names): its
    latest column is that year."""
    years = [c.column.year for r in solved.readings for c in r.found.row.cells if c.column]
    return bool(years) and max(years) == (solved.figure.filing_year or solved.figure.year)


def _in_document(
    figure: Figure,
    rows: list[tuple[Evidence, TableRow]],
    statements: Sequence[str],
    names: Sequence[str],
    fy_ends: Mapping[str, int] | None = None,
) -> Solved | Refused:
    assert figure.year is not None
    readings: list[Reading] = []
    for operand in figure.operands:
        year = operand.column_year(figure.year)
        found, columnless = candidates(operand, rows, year, figure.span, statements, figure.quarter, fy_ends)
        if not found:
            reason = (
                f"its rows have no {year} column" if columnless else "no table row in the passages holds it"
            )
            return Refused(figure, operand.name, reason, tuple(readings), tuple(columnless[:3]))
        if found[0].rank[0] >= OFF_STATEMENT and operand.statement:
            return Refused(
                figure,
                operand.name,
                "no row of its statement holds it (only a note's or a table's elsewhere)",
                tuple(readings),
                tuple((f.evidence, f.row) for f in found[:2]),
            )
        best = [f for f in found if f.rank == found[0].rank]
        values = {_read(f, _outflow(operand, f)).value for f in best}
        named = [f for f in best if _names_entity(names, entity_of(f.evidence, f.row))]
        if len(values) > 1 and named and len({_read(f, _outflow(operand, f)).value for f in named}) == 1:
            best, values = named, {_read(named[0], _outflow(operand, named[0])).value}  # the entity asked
        if len(values) > 1:
            rows_of = tuple((f.evidence, f.row) for f in best[:3])
            return Refused(figure, operand.name, TWO_ROWS, tuple(readings), rows_of)
        reading = _read(best[0], _outflow(operand, best[0]))
        if any(
            _same_cell(r, reading) and figure.operands[n].name != operand.name for n, r in enumerate(readings)
        ):
            return Refused(
                figure,
                operand.name,
                "its row is another operand's",
                tuple(readings),
                ((found[0].evidence, found[0].row),),
            )
        readings.append(reading)
    return _compute(figure, readings)


def _same_cell(a: Reading, b: Reading) -> bool:
    return a.found.evidence.short_id == b.found.evidence.short_id and a.found.cell.start == b.found.cell.start


def _outflow(operand: Operand, found: Found) -> bool:
    """Whether the cell is an outflow's: the operand's line item is one, or the row's label is one's
    (a row asked by other words, "repurchasing its common stock", printed "Repurchases of common stock")."""
    if operand.outflow:
        return True
    vocabulary = load_vocabulary()
    item = vocabulary.line_item_named(found.row.label)
    return (item is not None and item.outflow) or vocabulary.outflow_named(found.row.label)


def _read(found: Found, outflow: bool) -> Reading:
    printed, value = found.cell.text, found.cell.value
    scale = found.row.scale
    if value is None:
        return Reading(found, Decimal(0), scale, f"{printed} read as 0")
    if outflow and value < 0 and in_parentheses(printed) and _deducted(found.row):
        return Reading(found, -value, scale, f"printed {printed}, an outflow")
    return Reading(found, value, scale)


def _deducted(row: TableRow) -> bool:
    """Whether the row prints its line item as a deduction: every figure in parentheses. A row that
    prints some years plain and one in parentheses ("Provision for (benefit from) income taxes 120
    (30)") gives a sign, not a direction: that year's benefit."""
    return all(in_parentheses(c.text) for c in row.cells if c.value)


def _compute(figure: Figure, readings: list[Reading]) -> Solved | Refused:
    scales = {r.scale for r in readings}
    if PER_SHARE in scales and len(scales) > 1:
        name = figure.operands[next(n for n, r in enumerate(readings) if r.scale == PER_SHARE)].name
        return Refused(figure, name, "it is per share, and another operand is an amount", tuple(readings))
    if "" in scales and len(scales) > 1:
        unknown = next(r for r in readings if r.scale == "")
        name = figure.operands[readings.index(unknown)].name
        return Refused(
            figure, name, "its table does not state its scale, and another operand's does", tuple(readings)
        )
    # One scale: the cells as printed, the result in that scale; several: every cell in units.
    common = scales.pop() if len(scales) == 1 else "units"
    if figure.unit == "amount" and figure.scale and common == "":
        return Refused(
            figure,
            figure.operands[0].name,
            f"its table does not state its scale, and the question asks for USD {figure.scale}",
            tuple(readings),
        )
    with localcontext() as context:
        context.prec = PRECISION
        factor = {n: SCALES.get(r.scale or "units", Decimal(1)) for n, r in enumerate(readings)}
        if common != "units":
            factor = dict.fromkeys(factor, Decimal(1))
        values = {n: r.value * factor[n] for n, r in enumerate(readings)}
        try:
            result = evaluate(figure.formula, values)
        except ZeroDivisionError:
            return Refused(figure, "", "a divisor is zero", tuple(readings))
        scale, convert = "", Decimal(1)
        if figure.unit == "%":
            result *= 100
        elif figure.unit == "amount":
            scale = figure.scale or (common if common != "" else "units")
            convert = SCALES.get(common or "units", Decimal(1)) / SCALES[scale]
            result = result * convert
        if isinstance(result, Decimal) and result.is_nan():  # pragma: no cover - a negative base's root
            return Refused(figure, "", "the formula has no value for these cells", tuple(readings))
    if figure.one_page and not 0 <= result <= 100:
        return Refused(
            figure, "", f"a share computed as {result:.1f}% is no share of the whole", tuple(readings)
        )
    decimals = figure.rounding
    if decimals is None:
        decimals = _amount_decimals(readings, result)
    parts = tuple(
        (label, round_half_up(_part(figure, expr, values) * convert, decimals))
        for label, expr in figure.parts
    )
    return Solved(figure, tuple(readings), round_half_up(result, decimals), scale, parts)


def _part(figure: Figure, expr: Expr, values: dict[int, Decimal]) -> Decimal:
    """One period's figure of an average or a change, in the figure's unit."""
    with localcontext() as context:
        context.prec = PRECISION
        value = evaluate(expr, values)
        return value * 100 if figure.unit == "%" else value


def _amount_decimals(readings: Sequence[Reading], result: Decimal) -> int:
    """An amount asked without rounding keeps the cells' own decimals (at most two)."""
    printed = max((decimals_of(str(r.found.cell.text)) for r in readings), default=0)
    exact = -result.normalize().as_tuple().exponent if result != result.to_integral() else 0
    return min(max(printed, int(exact)), 2)
