"""The offline answerer: given the question as read and the evidence as values (no prompt), it
quotes the evidence sentences and table rows most relevant to the question, each cited by its
source id; when the evidence is related but no sentence or row answers directly, it says so
(CLOSEST_PASSAGES) and quotes the closest passages, cited; only for unrelated evidence does it say
the documents do not answer. A question about a named section's structure (its subsections, its
title) is answered from the evidence's section paths instead (rag.sections.answer). A question that
names a table's row and column is answered with that cell (rag.offline.cells), and one asking for a
kind of value a short line holds (an e-mail, a name) with that line (rag.offline.lines).

Scoring, the same on any document: the question's content words (rag.text), with analysts'
shorthand spelled out and fiscal periods read (rag.questions.shorthand), are "concepts"; a sentence or row
scores the IDF-weighted share of concepts it holds (rarer words weigh more, IDF over the
evidence's own sentences), blended with the embeddings' similarity when the model has them, plus
a bonus for holding a number when the question asks for an amount. A table row answers for the
asked year only through its column header (rag.passages.rows). A direct answer must hold every number and
fiscal year the question names (no synonym can stand for one). Words of a source's document title
count as held by all of its lines, and running headers are never quoted (rag.passages.units).

The constants were set on squad-dev and checked on the generated filings; none names a word of
either corpus. How each was measured: bench/README.md, "How the rules were found".
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rag.judgement.answer import closest_passages, judged_rows, judgement_answer, passages_beside_rows
from rag.offline.cells import cell_answer
from rag.offline.check import DEFAULT, Quote, Rules, check, support, unnamed_label
from rag.offline.lines import holds_value, line_answer
from rag.offline.scoring import (
    NUMBER_BONUS,
    SEMANTIC_WEIGHT,
    RememberedEmbeddings,
    Scored,
    Source,
    holds_numbers,
    label_share,
    score_sentences,
)
from rag.passages.units import passage_units, recurring_lines, split_sentences
from rag.prompts import NOT_IN_DOCUMENTS
from rag.questions.read import Question
from rag.relevance import MIN_DENSE, gate_measured_for
from rag.sections.answer import section_answer
from rag.types import Evidence

__all__ = ["ExtractiveAnswerer", "Source", "compose_answer", "split_sentences"]

LABEL = "offline extractive mode"
# Share of the question's weighted concepts a sentence or row must hold to be quoted as an answer.
MIN_SCORE = 0.4
# Below this share in every sentence and row the evidence is unrelated: "do not answer"...
RELATED_SCORE = 0.2
# ...unless a unit holding one of the question's words is as close to it in meaning as the
# retrieval gate's MIN_DENSE (rag.relevance: the same cosine, read the same way, and only with the
# embedding models it was measured for; with any other model this path is off). It gives closest
# passages, never an answer (bench/README.md, "How the rules were found").
# The best sentence by blended score is quoted if it holds this share of MIN_SCORE.
LEXICAL_FLOOR = 0.5
# Further sentences are quoted when they score at least this share of the best one.
NEAR_BEST = 0.75
# How many passages a closest-passages answer quotes: where the documents do not answer directly,
# a third candidate is worth its line (measured: bench/README.md, "How the rules were found").
CLOSEST_COUNT = 3
# Of those, how many are the best by the words they share with the question (the rest: the best
# by meaning too, among every unit holding one of its words, when there are embeddings). Fewer by
# words cited more evidence pages, but lost the restructuring charges row of a real filing's
# restructuring question (tests/e2e/test_real_filing_browser.py); which passages are quoted is all
# it changes.
BY_WORDS = 2


def _cite(items: Sequence[Scored]) -> str:
    """Each quote once, followed by the ids of every source it was taken from."""
    sources: dict[str, list[str]] = {}
    for s in items:
        sources.setdefault(s.sentence, []).append(s.source)
    return " ".join(
        f"{text.replace('[', '(').replace(']', ')')} " + "".join(f"[{i}]" for i in dict.fromkeys(ids))
        for text, ids in sources.items()
    )


def compose_answer(
    question: Question,
    sources: Sequence[Source],
    min_score: float,
    max_sentences: int,
    *,
    embeddings: Any = None,
    semantic_weight: float = 0.0,
    number_bonus: float = 0.0,
    lexical_floor: float = LEXICAL_FLOOR,
    rules: Rules = DEFAULT,
) -> str:
    """A table's cell when the question names its row and column (rag.offline.cells); else the
    cited sentences or rows, best first; else CLOSEST_PASSAGES and the closest ones, cited
    (a judgement question's rows instead, with the passages beside them: rag.judgement.answer), when some unit holds RELATED_SCORE of the question (or, with embeddings whose cosine
    rag.relevance reads, holds one of its words and MIN_DENSE of its meaning); else
    NOT_IN_DOCUMENTS. The closest are BY_WORDS by words, then by meaning (_closest). It answers only
    when some unit holds min_score of the question and every number it names; the best unit by
    the blended score is quoted if it holds lexical_floor of min_score, further ones only if they
    hold min_score themselves, come within NEAR_BEST of the best and, for a row, are named by
    the question as fully as the best one, and only when the best one answers *this* question
    (rag.offline.check, under these rules)."""
    embeddings = RememberedEmbeddings(embeddings) if embeddings is not None else None
    floor = min(lexical_floor * min_score, RELATED_SCORE)
    ranked = [
        s
        for s in score_sentences(question, sources, embeddings, semantic_weight, floor, number_bonus)
        if s.lexical >= floor
    ]

    def by_meaning() -> list[Scored]:
        return _by_meaning(question, sources, embeddings, semantic_weight, number_bonus)

    def judged() -> str:
        """A judgement question's rows and what the evidence says beside them, or ""."""
        if not (rows := judged_rows(question, sources)):
            return ""
        meaning = by_meaning()
        lead = [s for s in ranked if s.lexical >= RELATED_SCORE][:1] or meaning[:1]
        beside = passages_beside_rows(sources, [*meaning, *ranked], lead, rows, CLOSEST_COUNT)
        return judgement_answer(question, sources, _cite(beside))

    cells = cell_answer(question, sources)  # the value of A under B (rag.offline.cells)
    if cells:
        return _cite(cells)
    line = line_answer(question, sources)
    if not ranked or max(s.lexical for s in ranked) < RELATED_SCORE:
        if line is not None:
            return _cite([line])
        near = by_meaning() if _reads_cosine(embeddings) else []
        if near and max(s.semantic for s in near) >= MIN_DENSE:
            return judged() or closest_passages(question, sources, _cite(near[:CLOSEST_COUNT]))
        return judged() or NOT_IN_DOCUMENTS
    direct = [
        s
        for s in ranked
        if s.lexical >= lexical_floor * min_score
        and s.unit
        and not s.unit.tabular
        and holds_numbers(s.unit, question)
    ]
    if direct and max(s.lexical for s in direct) >= min_score:
        best, terms = direct[0], question.words
        named = label_share(best.unit, terms)
        chosen = [best] + [
            s
            for s in direct[1:max_sentences]
            if s.score >= NEAR_BEST * best.score
            and s.lexical >= min_score
            and (s.unit.row is None or label_share(s.unit, terms) >= named)
            and not (s.unit.row and _unnamed(question, s, sources))
        ]
        if _answers(question, best, sources, rules) and (
            line is None or any(holds_value(question, s.sentence) for s in chosen)
        ):
            return _cite(chosen)
    if line is not None:  # a short line holding the kind of value asked for (rag.offline.lines)
        return _cite([line])
    closest = _closest([s for s in ranked if s.lexical >= RELATED_SCORE], by_meaning())
    return judged() or closest_passages(question, sources, _cite(closest))


def _reads_cosine(embeddings: Any) -> bool:
    """Whether these embeddings' cosine can be read against MIN_DENSE (rag.relevance)."""
    return embeddings is not None and gate_measured_for(str(getattr(embeddings, "name", "") or ""))


def _closest(by_words: Sequence[Scored], by_meaning: Sequence[Scored]) -> list[Scored]:
    """CLOSEST_COUNT units: the BY_WORDS best by words, then the best by meaning not yet taken
    (then by words again, without embeddings); and when all are from one source, the best unit
    of another after them (a second place to look, not one fewer quote of the first)."""
    chosen = list(by_words[:BY_WORDS])
    taken = {(s.source, s.sentence) for s in chosen}
    for s in [*by_meaning, *by_words]:
        if len(chosen) >= CLOSEST_COUNT:
            break
        if (s.source, s.sentence) not in taken:
            chosen.append(s)
            taken.add((s.source, s.sentence))
    sources = {s.source for s in chosen}
    other = next((s for s in [*by_words, *by_meaning] if s.source not in sources), None)
    return [*chosen, other] if len(sources) == 1 and other is not None else chosen


def _by_meaning(
    question: Question,
    sources: Sequence[Source],
    embeddings: Any,
    semantic_weight: float,
    number_bonus: float,
) -> list[Scored]:
    """Every unit holding one of the question's words, best first by the blended score with each
    one's similarity to the question (the direct answer's candidates are only those holding
    RELATED_SCORE of its words, and only they are embedded for it). Without embeddings, none."""
    if embeddings is None or not semantic_weight:
        return []
    scored = score_sentences(question, sources, embeddings, semantic_weight, 0.0, number_bonus)
    return [s for s in scored if s.lexical > 0]


def _unnamed(question: Question, row: Scored, sources: Sequence[Source]) -> str:
    """The words of a row's label the question does not name, when most of it (rag.offline.check's
    unnamed_label), for a row quoted beside the answer."""
    title = next((s.title for s in sources if s.short_id == row.source), "")
    label = row.unit.row.label if row.unit and row.unit.row else ""
    return unnamed_label(question, label, title)


def _answers(question: Question, best: Scored, sources: Sequence[Source], rules: Rules) -> bool:
    """Whether the best unit answers the question (rag.offline.check), read with its heading, the
    source's context line and document title, the unit before it and its passage around it."""
    source = next(s for s in sources if s.short_id == best.source)
    skip = recurring_lines([(src.text, src.pages) for src in sources])
    units = passage_units(source.short_id, source.text, source.context, skip)
    before = units[best.unit.index - 1].text if 0 < best.unit.index <= len(units) else ""
    context = " ".join([best.unit.title, source.context, source.title])
    score = support(question, best.unit.text, context, best.semantic if best.semantic > 0 else None)
    row = best.unit.row
    quote = Quote(
        best.unit.text,
        context,
        before,
        source.text,
        row is not None,
        score,
        row.label if row else "",
        source.title,
    )
    return check(question, quote, rules).passed


@dataclass(frozen=True)
class ExtractiveAnswerer:
    """Answers from the evidence alone, deterministic, with no network; model weights only through
    the optional embeddings (the library's own, passed in by make_chat_model). No language model:
    the answer stream hands it the question as read and the evidence as values, never a prompt
    (rag.answering.models.OfflineAnswerer)."""

    min_score: float = MIN_SCORE
    """Least IDF-weighted share of the question's words a sentence must contain to be quoted."""
    max_sentences: int = 3
    """Most sentences or rows quoted as the answer, each within NEAR_BEST of the best. 2 -> 3
    measured on filings-dev, the generated filings, squad-dev's 80 and the structure and obligations
    sets: more answers cite their evidence page on the first two, the others unchanged; cited-page
    precision on the generated filings 0.924 -> 0.893 (bench/README.md, 2026-12-04)."""
    embeddings: Any = None
    """Embeddings for semantic similarity between question and sentences; None: lexical only."""
    semantic_weight: float = SEMANTIC_WEIGHT
    """Share of a sentence's score that is its semantic similarity (when there are embeddings)."""
    number_bonus: float = NUMBER_BONUS
    """Added to sentences holding a number when the question asks for an amount or a count."""
    lexical_floor: float = LEXICAL_FLOOR
    """Share of min_score the quoted best sentence must hold when another one reaches min_score."""
    answer_check: Rules = DEFAULT
    """The rules a quote must pass to be given as the answer (rag.offline.check)."""

    def answer(self, question: Question, evidence: Sequence[Evidence]) -> Iterator[str]:
        """The answer to the question from this evidence, streamed word by word: a question that
        asks for a named section's subsections or title is answered from the evidence's section
        paths (rag.sections.answer), any other by quoting it."""
        text = section_answer(question, evidence) or compose_answer(
            question,
            [Source.of(e) for e in evidence],
            self.min_score,
            self.max_sentences,
            embeddings=self.embeddings,
            semantic_weight=self.semantic_weight,
            number_bonus=self.number_bonus,
            lexical_floor=self.lexical_floor,
            rules=self.answer_check,
        )
        yield from (token for token in re.split(r"(?<=\s)", text) if token)
