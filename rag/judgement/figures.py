"""The figures a judgement's answer opens with: each metric the vocabulary ties the question's
concept to (rag.questions.vocabulary: a concept's `figures`: capital intensity's capex over revenue
and fixed assets over total assets, liquidity's current and quick ratios...), computed by
rag.compute for every fiscal year the statements in the evidence show, each operand cited by its
own cell (rag.compute.present), in one filing, every operand from a row of its own statement in the
year's column (rag.compute.solve refuses anything else).

A year one operand has no such cell for is left out, and one clause says why; a metric no year
gives is named once as not computed; when no metric gives a year, there are no figures and the
rows and passages answer alone (rag.judgement.answer). A question about a quarter, or a filing whose
statements are a quarter's (three, six or nine months' columns), gets none: a balance at a
quarter's end is no fiscal year's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from rag.compute.cells import evidence_rows, label_rank
from rag.compute.present import Computation, cell_list, solved_computation
from rag.compute.question import Figure, metric_figure
from rag.compute.solve import NO_ROW, Refused, Solved, solve
from rag.judgement.question import STATEMENT_KINDS
from rag.questions.read import Question
from rag.questions.vocabulary import load_vocabulary
from rag.tables.passages import TableRow
from rag.types import Evidence

JUDGED_HEAD = (
    "Computed figures (Footnote computed them exactly from the table cells below, for each year the "
    "statements show; cite each cell by its ID and do not redo the arithmetic):"
)
_INTERIM = frozenset({"3m", "6m", "9m"})
# A judgement's operand is read from a row printed under its words or one of its labels, perhaps
# with a qualifier (rag.compute.cells' label ranks 0-2), never one that only holds its words ("Total
# current assets" holds "total assets"): no question's words say which row is meant.
PRINTED = 2


@dataclass(frozen=True)
class _Scope:
    """The evidence the figures are read from: one filing's passages and their table rows."""

    doc_id: str
    evidence: tuple[Evidence, ...]
    rows: tuple[tuple[Evidence, TableRow], ...]


def judged_metrics(question: Question) -> tuple[str, ...]:
    """The metrics the question's judgement opens with (vocabulary keys, no repeats), or () when it
    asks no judgement, asks a figure, or asks about a quarter."""
    judgement = question.judgement
    periods = question.periods
    if judgement is None or question.figure is not None:
        return ()
    if periods.span or periods.quarters or any(p.quarter for p in periods.asked):
        return ()
    concepts = load_vocabulary().concepts
    return tuple(dict.fromkeys(f.metric for c in judgement.concepts for f in concepts[c].figures))


def latest_figures(
    question: Question, evidence: Sequence[Evidence], named: Sequence[str] = ()
) -> list[Figure]:
    """The judgement's figures at the latest fiscal year the evidence's statements show (the rows
    rag.compute.gather searches for when retrieval missed them); [] when there are none."""
    metrics = judged_metrics(question)
    scope = _scope(evidence, named) if metrics else None
    if scope is None:
        return []
    figures = [f for key in metrics if (f := metric_figure(key)) is not None]
    years = sorted({y for f in figures for y in _years(question, f, scope)}, reverse=True)
    return [replace(f, year=years[0]) for f in figures] if years else []


def judged_figures(
    question: Question,
    evidence: Sequence[Evidence],
    named: Sequence[str] = (),
    fy_ends: Mapping[str, int] | None = None,
) -> Computation | None:
    """The judgement's figures (see the module docstring) as the answer opens with them: a line
    per metric, its years latest first, each operand's cell a piece of evidence of its own; None
    when no metric gives a year."""
    metrics = judged_metrics(question)
    scope = _scope(evidence, named) if metrics else None
    if scope is None:
        return None
    taken = {e.short_id for e in evidence}
    lines: list[str] = []
    cells: list[Evidence] = []
    missed: list[str] = []
    figures = [f for key in metrics if (f := metric_figure(key)) is not None]
    shown = {f.name: _years(question, f, scope) for f in figures}
    latest = max((y for years in shown.values() for y in years), default=None)
    for base in figures:
        done, left = [], []
        # a metric whose rows the evidence lacks is tried at the latest year, to say what it lacks
        for year in shown[base.name] or ([latest] if latest is not None else []):
            outcome = _solve(question, _at(base, year), scope, fy_ends)
            if isinstance(outcome, Refused):
                left.append(f"FY{year}: {_why(outcome)}")
                continue
            loose = _loose(outcome)
            if loose:
                left.append(f"FY{year}: {loose}")
                continue
            computation = solved_computation(outcome, taken)
            done.append(computation.line)
            cells += computation.cells
        name = base.name[:1].upper() + base.name[1:]
        if done:
            lines.append(" ".join([*done, *(f"{name}, {why}." for why in left)]))
        elif left:
            missed.append(f"{base.name} ({left[0]})")
    if not lines:
        return None
    if missed:
        lines.append(f"Not computed: {'; '.join(missed)}.")
    line, kept = _one_cell_once("\n\n".join(lines), cells)
    block = f"{JUDGED_HEAD}\n{line}\n{cell_list(kept)}"
    return Computation(line, kept, None, block, judged=True)


def _solve(
    question: Question, figure: Figure, scope: _Scope, fy_ends: Mapping[str, int] | None
) -> Solved | Refused:
    """The figure from the filing's cells; its alternatives only when an operand of its own formula
    has no row at all (the quick ratio without short-term investments when the company holds
    none), never when a row is there but cannot be read (two rows could be it: "Short-term
    investments" beside "Marketable securities")."""

    def one(each: Figure) -> Solved | Refused:
        return solve(
            replace(each, alternatives=()), scope.evidence, (), (scope.doc_id,), question.asked.names, fy_ends
        )

    first = outcome = one(figure)
    for alternative in figure.alternatives:
        if not isinstance(outcome, Refused) or outcome.reason != NO_ROW:
            break
        outcome = one(alternative)
    return first if isinstance(outcome, Refused) else outcome  # a refusal says what its own formula lacks


def _at(figure: Figure, year: int) -> Figure:
    """The figure and its alternatives at one fiscal year."""
    return replace(figure, year=year, alternatives=tuple(replace(a, year=year) for a in figure.alternatives))


def _loose(solved: Solved) -> str:
    """Why a figure's cells are not a judgement's: an operand read from a row not printed under its
    words or labels (see PRINTED), in one clause; "" when every one is."""
    for each in (solved, *solved.others):
        for operand, reading in zip(each.figure.operands, each.readings):
            if reading.found.rank[1] > PRINTED:
                return f'{operand.name}: no row printed under its name (only "{reading.found.row.label}")'
    return ""


def _why(refused: Refused) -> str:
    """Why a year is left out, in one clause ("current assets: its rows have no 2016 column")."""
    return f"{refused.operand}: {refused.reason}" if refused.operand else refused.reason


def _scope(evidence: Sequence[Evidence], named: Sequence[str]) -> _Scope | None:
    """The one filing the figures are read from: the first the question names, else the only one
    the evidence is of; None when the evidence is of several and none is named, or when the
    filing's statements are an interim period's."""
    docs = list(dict.fromkeys(e.doc_id for e in evidence))
    doc = named[0] if named else (docs[0] if len(docs) == 1 else None)
    if doc is None:
        return None
    own = tuple(e for e in evidence if e.doc_id == doc)
    rows = tuple(evidence_rows(own))
    if any(c.column and c.column.span in _INTERIM for _, row in rows if row.statement for c in row.cells):
        return None
    return _Scope(doc, own, rows)


def _years(question: Question, figure: Figure, scope: _Scope) -> list[int]:
    """The fiscal years, latest first, whose columns the rows naming the figure's operands on their
    own statements show, within the years the question asks (up to the latest it names, from the
    earliest when it names a range)."""
    years: set[int] = set()
    for operand in (o for f in (figure, *figure.alternatives) for o in f.operands):
        own = STATEMENT_KINDS.get(operand.statement)
        for _, row in scope.rows:
            if (
                own
                and row.statement == own
                and (rank := label_rank(operand, row)) is not None
                and rank <= PRINTED
            ):
                years |= {c.column.year for c in row.cells if c.column and c.column.span in ("", "12m")}
    asked = [p.year for p in question.periods.asked]
    if asked:
        low = min(asked) if len(set(asked)) > 1 else 0
        years = {y for y in years if low <= y <= max(asked)}
    return sorted(years, reverse=True)


def _one_cell_once(line: str, cells: Sequence[Evidence]) -> tuple[str, tuple[Evidence, ...]]:
    """One footnote per cell: a cell two figures read (current liabilities of both ratios) keeps
    the first figure's id, and the line cites it by that id."""
    first: dict[tuple[str, ...], str] = {}
    kept: list[Evidence] = []
    for cell in cells:
        assert cell.cell is not None
        where = (cell.chunk_id, cell.cell.label, cell.cell.column, cell.cell.printed)
        if where in first:
            line = line.replace(f"[{cell.short_id}]", f"[{first[where]}]")
            continue
        first[where] = cell.short_id
        kept.append(cell)
    return line, tuple(kept)
