"""The offline answer to a judgement question (rag.judgement.question): a lead sentence saying
the judgement is the reader's, then the statement row of each line item an analyst reads for the
concept, with every year column the filing shows, each cited, then the passages closest to the
question (what the filing says of it: what drove the rows): the best one, then the best of each
further place retrieval ranked (passages_beside_rows). Given only when the evidence
answers no other way (rag.offline.extractive: where the closest passages alone would be).
"""

from __future__ import annotations

from collections.abc import Sequence

from rag.judgement.question import STATEMENT_KINDS, row_rank
from rag.offline.scoring import Scored, Source
from rag.passages.rows import quote_row
from rag.passages.units import Unit, passage_units, recurring_lines
from rag.prompts import CLOSEST_PASSAGES, JUDGED_DISCUSSED, JUDGED_FROM
from rag.questions.read import Question
from rag.questions.request import statements_in
from rag.questions.vocabulary import load_vocabulary


def judged_rows(question: Question, sources: Sequence[Source]) -> list[Unit]:
    """The row of each of the judgement's line items found in the sources, once each: one from a
    source whose context names the item's statement (the page stage puts a statement page's
    heading there: rag.retrieval.page_stage.with_statement) before one of a note, a segment table
    or another statement ("Cost of sales" of a restructuring table is not the row an analyst
    reads; an MD&A table's may be, so it stays next), then one printed under the item's label
    before one holding its words, then one under year columns, then the earlier source."""
    judgement = question.judgement
    if judgement is None:
        return []
    skip = recurring_lines([(src.text, src.pages) for src in sources])
    named = {src.short_id: statements_in(src.context) for src in sources}
    units = [u for src in sources for u in passage_units(src.short_id, src.text, src.context, skip) if u.row]
    items = load_vocabulary().line_items
    found: list[Unit] = []
    for key in judgement.items:
        kind = STATEMENT_KINDS.get(items[key].statement, "")
        ranked = [
            (kind not in named.get(u.source, ()), rank, not u.columns, n, u)
            for n, u in enumerate(units)
            if u.row is not None and (rank := row_rank(key, u.row.label)) is not None
        ]
        if ranked:
            row = min(ranked, key=lambda r: r[:4])[4]
            if row not in found:
                found.append(row)
    return found


def judgement_answer(question: Question, sources: Sequence[Source], discussed: str = "") -> str:
    """The lead and the cited rows (see the module docstring), then the passages closest to the
    question when given (cited: what the filing says of it, which the rows do not), or "" when
    no row is there."""
    rows = judged_rows(question, sources)
    if not rows or question.judgement is None:
        return ""
    quoted = " ".join(
        f"{quote_row(u.row, u.columns, ()).replace('[', '(').replace(']', ')')} [{u.source}]"
        for u in rows
        if u.row is not None
    )
    lead = f"{JUDGED_FROM.format(concept=question.judgement.words())} {quoted}"
    return f"{lead} {JUDGED_DISCUSSED} {discussed}" if discussed else lead


def closest_passages(question: Question, sources: Sequence[Source], cited: str) -> str:
    """The closest passages (cited) as the answer gives them: after a judgement's rows, or alone."""
    return judgement_answer(question, sources, cited) or f"{CLOSEST_PASSAGES} {cited}"


def passages_beside_rows(
    sources: Sequence[Source],
    scored: Sequence[Scored],
    lead: Sequence[Scored],
    rows: Sequence[Unit],
    count: int,
) -> list[Scored]:
    """The passages a judgement's rows are given with, count in all: the best one (lead), then the
    best unit of each further source in the evidence's order, none of a source the rows are quoted
    from. An analyst's words are rarely the filing's ("borrowed to buy back stock" for "issued
    notes"), so the units best by words gather in one place; the evidence's order ranks the places
    by the whole question (pages, statements, the judgement's rows: rag.retrieval)."""
    best: dict[str, Scored] = {}
    for s in sorted(scored, key=lambda s: -s.score):
        best.setdefault(s.source, s)
    taken = {u.source for u in rows} | {s.source for s in lead}
    further = [best[src.short_id] for src in sources if src.short_id in best and src.short_id not in taken]
    return [*lead, *further][:count]
