"""Citation-quality metrics over saved turns and verdicts: overall, per conversation, per document.

- coverage: sentences with at least one resolved citation of the model / sentences with content
  (as rag.answering.metrics measures them), over answers that did not decline or fail;
- matched and flagged sentences: those Footnote matched to a passage (the model cited nothing)
  and those the model cited but whose passages the support check finds do not support them
  (rag.answering.attribution); unsourced: neither cited nor matched; matched and flagged citations: the
  citation records of each kind;
- dangling rate: unresolved markers / all markers;
- supported share: citations marked supported / citations with a verdict;
- score distribution: citations per automatic level and per tenth of the score;
- agreement: citations whose automatic level matches the verdict (supported = high, partially
  supported = medium, not supported and wrong location = low) / citations with both.

A document's figures cover the answers whose evidence came from it (coverage, dangling rate)
and the citations pointing into it (the rest).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rag.answering.metrics import measure
from rag.audit.records import CitationRecord, RecordKey, SupportScore
from rag.citations.table import resolve
from rag.stores.verdicts import Verdict
from rag.types import Answer, AnswerMetrics, Turn

EXPECTED_LEVEL = {
    "supported": "high",
    "partially_supported": "medium",
    "not_supported": "low",
    "wrong_location": "low",
}
SCORE_BINS = 10


def count_answer(answer: Answer) -> AnswerMetrics:
    """Sentences, cited sentences, markers and unresolved markers of one answer, measured from its
    text and evidence snapshot by rag.answering.metrics (the definition the chat page uses), with the
    matched and flagged sentences saved with it."""
    matched = sum(len(f.matches) for f in answer.footnotes)
    return measure(
        answer.text, resolve(answer.spans, answer.evidence), matched=matched, flagged=len(answer.flags)
    )


@dataclass(frozen=True)
class ScopeMetrics:
    """The metrics of one scope: everything, one conversation or one document."""

    scope: str  # "overall", "conversation" or "document"
    key: str
    label: str
    answers: int = 0
    sentences: int = 0
    cited_sentences: int = 0
    markers: int = 0
    unresolved_markers: int = 0
    matched_sentences: int = 0
    flagged_sentences: int = 0
    citations: int = 0
    matched_citations: int = 0
    flagged_citations: int = 0
    verdicts: Mapping[str, int] = field(default_factory=dict)
    levels: Mapping[str, int] = field(default_factory=dict)
    score_bins: tuple[int, ...] = (0,) * SCORE_BINS
    compared: int = 0
    agreed: int = 0
    confusion: Mapping[tuple[str, str], int] = field(default_factory=dict)  # (verdict, level) -> n

    @property
    def citation_quality(self) -> AnswerMetrics:
        """The scope's counts as AnswerMetrics, which defines coverage and dangling rate once."""
        return AnswerMetrics(
            self.sentences,
            self.cited_sentences,
            self.markers,
            self.unresolved_markers,
            self.matched_sentences,
            self.flagged_sentences,
        )

    @property
    def coverage(self) -> float:
        return self.citation_quality.coverage

    @property
    def dangling_rate(self) -> float:
        return self.citation_quality.dangling_rate

    @property
    def unsourced_sentences(self) -> int:
        return self.citation_quality.unsourced_sentences

    @property
    def judged(self) -> int:
        return sum(self.verdicts.values())

    @property
    def supported_share(self) -> float:
        return self.verdicts.get("supported", 0) / self.judged if self.judged else 0.0

    @property
    def agreement(self) -> float:
        return self.agreed / self.compared if self.compared else 0.0


@dataclass(frozen=True)
class AuditMetrics:
    """Metrics overall, per conversation and per document."""

    overall: ScopeMetrics
    conversations: tuple[ScopeMetrics, ...]
    documents: tuple[ScopeMetrics, ...]


def _answer_part(turns: Sequence[Turn]) -> dict[str, int]:
    counts = [count_answer(t.answer) for t in turns if not (t.answer.unsupported or t.answer.error)]
    return {
        "answers": len(turns),
        "sentences": sum(c.sentences for c in counts),
        "cited_sentences": sum(c.cited_sentences for c in counts),
        "markers": sum(c.markers for c in counts),
        "unresolved_markers": sum(c.unresolved_markers for c in counts),
        "matched_sentences": sum(c.matched_sentences for c in counts),
        "flagged_sentences": sum(c.flagged_sentences for c in counts),
    }


def _citation_part(
    records: Sequence[CitationRecord],
    scores: Mapping[RecordKey, SupportScore],
    verdicts: Mapping[RecordKey, Verdict],
) -> dict[str, object]:
    judged = [verdicts[r.key].verdict for r in records if r.key in verdicts]
    scored = [scores[r.key] for r in records if r.key in scores]
    bins = [0] * SCORE_BINS
    for s in scored:
        bins[min(int(s.score * SCORE_BINS), SCORE_BINS - 1)] += 1
    pairs = [
        (verdicts[r.key].verdict, scores[r.key].level)
        for r in records
        if r.key in verdicts and r.key in scores
    ]
    return {
        "citations": len(records),
        "matched_citations": sum(r.kind == "matched" for r in records),
        "flagged_citations": sum(r.flagged for r in records),
        "verdicts": {v: n for v, n in Counter(judged).items()},
        "levels": {lvl: n for lvl, n in Counter(s.level for s in scored).items()},
        "score_bins": tuple(bins),
        "compared": len(pairs),
        "agreed": sum(1 for verdict, level in pairs if EXPECTED_LEVEL[verdict] == level),
        "confusion": dict(Counter(pairs)),
    }


def scope_metrics(
    scope: str,
    key: str,
    label: str,
    turns: Sequence[Turn],
    records: Sequence[CitationRecord],
    scores: Mapping[RecordKey, SupportScore],
    verdicts: Mapping[RecordKey, Verdict],
) -> ScopeMetrics:
    """The metrics of one scope from its turns and its citations."""
    return ScopeMetrics(scope, key, label, **_answer_part(turns), **_citation_part(records, scores, verdicts))  # type: ignore[arg-type]


def audit_metrics(
    turns: Iterable[Turn],
    records: Iterable[CitationRecord],
    scores: Mapping[RecordKey, SupportScore],
    verdicts: Mapping[RecordKey, Verdict],
    conversation_titles: Mapping[str, str] | None = None,
) -> AuditMetrics:
    """Metrics overall, per conversation (in order of first turn) and per document (by title)."""
    turns, records = list(turns), list(records)
    titles = conversation_titles or {}
    overall = scope_metrics("overall", "", "All answers", turns, records, scores, verdicts)
    conv_ids = list(dict.fromkeys(t.conv_id for t in turns))
    conversations = tuple(
        scope_metrics(
            "conversation",
            c,
            titles.get(c) or c,
            [t for t in turns if t.conv_id == c],
            [r for r in records if r.conv_id == c],
            scores,
            verdicts,
        )
        for c in conv_ids
    )
    doc_titles: dict[str, str] = {}
    for t in turns:
        for e in t.answer.evidence:
            doc_titles.setdefault(e.doc_id, e.title or e.file_name or e.doc_id)
    documents = tuple(
        scope_metrics(
            "document",
            d,
            title,
            [t for t in turns if any(e.doc_id == d for e in t.answer.evidence)],
            [r for r in records if r.evidence.doc_id == d],
            scores,
            verdicts,
        )
        for d, title in sorted(doc_titles.items(), key=lambda item: item[1].lower())
    )
    return AuditMetrics(overall, conversations, documents)
