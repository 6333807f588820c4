"""Answers as plain data (JSON-safe dicts) and back, for saved turns and the CLI. No pickle."""

from __future__ import annotations

from typing import Any

from rag.citations.parser import citation_spans
from rag.types import Answer, AnswerMetrics, CitationSpan, Computed, Evidence, Flag, Footnote, Match


def _span_to_dict(span: CitationSpan) -> dict[str, Any]:
    return {
        "id": span.id,
        "start": span.start,
        "end": span.end,
        "group_start": span.group_start,
        "group_end": span.group_end,
    }


def answer_to_dict(answer: Answer) -> dict[str, Any]:
    """Everything needed to render the answer again without the model or the index."""
    return {
        "question": answer.question,
        "text": answer.text,
        "evidence": [e.to_dict() for e in answer.evidence],
        "footnotes": [
            {
                "number": f.number,
                "short_id": f.short_id,
                "spans": [_span_to_dict(s) for s in f.spans],
                "matches": [{"start": m.start, "end": m.end, "score": m.score} for m in f.matches],
            }
            for f in answer.footnotes
        ],
        "unresolved": list(answer.unresolved),
        "metrics": {
            "sentences": answer.metrics.sentences,
            "cited_sentences": answer.metrics.cited_sentences,
            "markers": answer.metrics.markers,
            "unresolved_markers": answer.metrics.unresolved_markers,
            "matched_sentences": answer.metrics.matched_sentences,
            "flagged_sentences": answer.metrics.flagged_sentences,
        },
        "unsupported": answer.unsupported,
        "interrupted": answer.interrupted,
        "provider": answer.provider,
        "error": answer.error,
        "closest": answer.closest,
        "unresolved_spans": [_span_to_dict(s) for s in answer.unresolved_spans],
        "flags": [
            {"start": g.start, "end": g.end, "numbers": list(g.numbers), "score": g.score}
            for g in answer.flags
        ],
        "words_only": list(answer.words_only),
        "computed": answer.computed.to_dict() if answer.computed is not None else None,
    }


def answer_from_dict(data: dict[str, Any]) -> Answer:
    """Inverse of answer_to_dict; answers saved before matching, flags or computed figures load without them."""
    evidence = tuple(Evidence.from_dict(e) for e in data["evidence"])
    by_id = {e.short_id: e for e in evidence}
    footnotes = tuple(
        Footnote(
            number=f["number"],
            short_id=f["short_id"],
            evidence=by_id[f["short_id"]],
            spans=tuple(CitationSpan(**s) for s in f["spans"]),
            matches=tuple(Match(**m) for m in f.get("matches", ())),
        )
        for f in data["footnotes"]
    )
    return Answer(
        question=data["question"],
        text=data["text"],
        footnotes=footnotes,
        unresolved=tuple(data["unresolved"]),
        evidence=evidence,
        metrics=AnswerMetrics(**data["metrics"]),
        unsupported=data["unsupported"],
        interrupted=data["interrupted"],
        provider=data["provider"],
        error=data.get("error"),
        closest=data.get("closest", False),
        unresolved_spans=_unresolved_spans(data, footnotes),
        flags=tuple(
            Flag(g["start"], g["end"], tuple(g["numbers"]), g["score"]) for g in data.get("flags", ())
        ),
        words_only=tuple(data.get("words_only", ())),
        computed=Computed.from_dict(data["computed"]) if data.get("computed") else None,
    )


def _unresolved_spans(data: dict[str, Any], footnotes: tuple[Footnote, ...]) -> tuple[CitationSpan, ...]:
    """The saved unresolved spans; an answer saved before they were kept has its text parsed once."""
    if "unresolved_spans" in data:
        return tuple(CitationSpan(**s) for s in data["unresolved_spans"])
    resolved = {f.short_id for f in footnotes}
    return tuple(s for s in citation_spans(data["text"]) if s.id not in resolved)
