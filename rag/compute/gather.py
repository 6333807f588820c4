"""More evidence for a figure before it is computed: the rows of its operands that the retrieved
passages lack, searched for in the documents the question names, and the column headers of the
passages that start below theirs.

A figure needs every operand's row; retrieval ranks passages for the whole question, and a ratio's
second statement, or last year's balance sheet column, can fall outside its k. So each operand no
passage of a named document holds a row for (rag.compute.cells) is searched for on its own, with
the question's reading focused on it (its words and labels searched, no other input, its
statement's pages first: rag.retrieval.page_stage), in each named document. A passage from the middle of a statement has
neither the statement's column years nor its scale in its text, and its context line may have lost
them: the header lines above it on its page are added to its context (rag.tables.passages.page_header).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rag.citations.evidence import assign_short_ids
from rag.compute.cells import candidates, evidence_rows
from rag.compute.question import Figure, Operand
from rag.judgement.figures import PRINTED, judged_metrics, latest_figures
from rag.judgement.question import STATEMENT_KINDS
from rag.questions.read import Input, Question
from rag.retrieval.retrieve import Retrieval, search_evidence
from rag.tables.lines import read_header
from rag.tables.passages import page_header, table_rows
from rag.text import tokenize
from rag.types import Evidence

MAX_DOCUMENTS = 3  # named documents an operand is searched for in (the asked period's filing first)
OPERAND_K = 2  # passages kept from each operand's search
LABELS = 6  # of a line item's printed labels, searched for beside its name


def gather(library: Any, question: Question, retrieval: Retrieval) -> Retrieval:
    """The retrieval with its figure's missing operand rows added and its passages' headers read
    from their pages (see the module docstring); a judgement's figures (rag.judgement.figures) are
    gathered at the latest year its statements show. Unchanged for a question without a figure."""
    figure = question.figure
    judged = figure is None and bool(judged_metrics(question))
    if not retrieval.evidence or not (judged or (figure is not None and figure.year is not None)):
        return retrieval
    named = list(retrieval.picked) or list(dict.fromkeys(e.doc_id for e in retrieval.evidence))[:1]
    evidence = list(retrieval.evidence)
    pages: dict[str, list[Any]] = {}

    def page_text(doc_id: str, index: int) -> str:
        if doc_id not in pages:  # once per document (setdefault would read them at every call)
            pages[doc_id] = library.pages(doc_id)
        found = pages[doc_id]
        return found[index].text if 0 <= index < len(found) else ""

    own = [e for e in evidence if e.doc_id in named]
    if judged:  # a judgement's year is its statements' latest column: read with the passages' headers
        own = [_with_header(page_text, e) for e in own]
    figures = latest_figures(question, own, named) if judged else [figure]
    if not figures:
        return retrieval
    searched: set[tuple[str, int]] = set()  # an operand two figures read is searched for once
    for each in figures:
        assert each is not None and each.year is not None
        for operand, tied in _missing(each, own, question.statements, retrieval.fy_ends, judged):
            if (operand.name, year := operand.column_year(each.year)) not in searched:
                searched.add((operand.name, year))
                focused = _focused(question, operand, year, tied)
                for doc_id in named[:MAX_DOCUMENTS]:
                    evidence += search_evidence(library, focused, k=OPERAND_K, doc_ids=[doc_id]).evidence
    evidence = [_with_header(page_text, e) if e.doc_id in named else e for e in _distinct(evidence)]
    return replace(retrieval, evidence=_renamed(evidence))


def _missing(
    figure: Figure,
    evidence: Sequence[Evidence],
    statements: Sequence[str],
    fy_ends: Mapping[str, int],
    printed: bool = False,
) -> list[tuple[Operand, bool]]:
    """The operands no row of the evidence gives a cell for, in their column (and, for a line item
    of the vocabulary, on its own statement), or whose best rows tie on different values (each
    segment's row: the statement's may settle it), each with whether it tied; printed: under one
    of its labels, as a judgement's figures read them (rag.judgement.figures.PRINTED)."""
    assert figure.year is not None
    rows = evidence_rows(evidence)
    missing = []
    for o in figure.operands:
        found = candidates(
            o, rows, o.column_year(figure.year), figure.span, statements, figure.quarter, fy_ends
        )[0]
        if printed:
            found = [f for f in found if f.rank[1] <= PRINTED]
        own = STATEMENT_KINDS.get(o.statement)
        tied = {f.cell.value for f in found if f.rank == found[0].rank} if found else set()
        if not found or (own and not any(f.row.statement == own for f in found)) or len(tied) > 1:
            missing.append((o, len(tied) > 1))
    return missing


def _focused(question: Question, operand: Operand, year: int, tied: bool = False) -> Question:
    """The question as retrieval reads it, searching for one operand's row: its words and the
    labels filings print it under, its year; its statement's pages first (a line item of the
    vocabulary), else those the question names, else, when its rows tied (each segment's), the
    primary statements' pages, where the whole's row is; and the operand as the line item searched for,
    so the chunk of those pages with a row naming it comes first (rag.retrieval.page_stage), not
    only the pages that repeat its words most (a consolidating statement's three years)."""
    words = " ".join(dict.fromkeys([operand.name, *operand.labels[:LABELS], str(year)]))
    statements = (
        (STATEMENT_KINDS[operand.statement],) if operand.statement in STATEMENT_KINDS else question.statements
    ) or (tuple(STATEMENT_KINDS.values()) if tied else ())
    item = Input(operand.name, operand.concepts, frozenset(tokenize(operand.name)), operand.name)
    search = replace(question.search, text=words, words=words, inputs=(item,), statements=statements)
    return replace(question, search=search)


def _distinct(evidence: Sequence[Evidence]) -> list[Evidence]:
    seen: set[str] = set()
    out = []
    for e in evidence:
        if e.chunk_id not in seen:
            seen.add(e.chunk_id)
            out.append(e)
    return out


def _renamed(evidence: Sequence[Evidence]) -> tuple[Evidence, ...]:
    """The evidence under short ids unique in the whole set (rag.citations.evidence)."""
    short = assign_short_ids(e.chunk_id for e in evidence)
    return tuple(replace(e, short_id=short[e.chunk_id]) for e in evidence)


def _with_header(page_text: Any, evidence: Evidence) -> Evidence:
    """The evidence with the header lines above it on its page in its context, when its rows have
    no column years of their own (a passage that starts inside a table)."""
    rows = table_rows(evidence.text, evidence.context)
    if not rows or any(c.column for row in rows for c in row.cells):
        return evidence
    above = page_text(evidence.doc_id, evidence.page_index)[: evidence.char_start].splitlines()
    header = page_header(above)
    if not header and not any(line.strip() and read_header(line) is None for line in above[-3:]):
        # a passage at the top of its page goes on with the table of the page before
        header = page_header(page_text(evidence.doc_id, evidence.page_index - 1).splitlines())
    if not header:
        return evidence
    return replace(evidence, context=f"{evidence.context} | {header}" if evidence.context else header)
