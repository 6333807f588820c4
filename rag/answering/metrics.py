"""Citation quality of an answer: sentences with content, how many the model cited, how many
Footnote matched (rag.answering.attribution), how many are flagged, and how many markers point nowhere."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag.citations.table import source_list_start
from rag.text import has_content, sentence_spans
from rag.types import AnswerMetrics, CitationSpan, Resolution

_NUMBERED_REF = re.compile(r"\[\d{1,2}\]")  # what rag.answering.attribution.claim_text removes too


def sentence_ranges(text: str, spans: Sequence[CitationSpan]) -> list[tuple[int, int]]:
    """[start, end) of each sentence (rag.text's rule); markers after a full stop belong to it."""
    return sentence_spans(text, sorted({(s.group_start, s.group_end) for s in spans}))


def _has_content(text: str, start: int, end: int, groups: Sequence[tuple[int, int]]) -> bool:
    chars = list(text[start:end])
    for a, b in groups:
        for i in range(max(a, start), min(b, end)):
            chars[i - start] = " "
    return has_content("".join(chars))


def answer_sentences(text: str, spans: Sequence[CitationSpan]) -> list[tuple[int, int]]:
    """The answer's sentences with content, a list of sources at its end left out (its markers
    cite no sentence; rag.citations.grammar.source_list_start). Numbered references (`[2]`, not
    markers) are read like markers here: after a full stop they belong to the sentence before,
    and they are no content. spans: every marker, resolved or not."""
    groups = sorted({(s.group_start, s.group_end) for s in spans})
    limit = source_list_start(text, groups)
    body = text if limit is None else text[:limit]
    taken = [g for g in groups if g[1] <= len(body)]
    numbered = [
        m.span() for m in _NUMBERED_REF.finditer(body) if not any(a <= m.start() < b for a, b in taken)
    ]
    inside = sorted(taken + numbered)
    return [(a, b) for a, b in sentence_spans(body, inside) if _has_content(text, a, b, inside)]


def measure(
    text: str,
    resolution: Resolution,
    *,
    sentences: Sequence[tuple[int, int]] | None = None,
    matched: int = 0,
    flagged: int = 0,
) -> AnswerMetrics:
    """Sentences with content, those with at least one valid citation, markers, unresolved markers;
    matched and flagged: the counts rag.answering.attribution found (sentences: answer_sentences, when known)."""
    resolved = [span for f in resolution.footnotes for span in f.spans]
    every = resolved + list(resolution.unresolved_spans)
    ranges = answer_sentences(text, every) if sentences is None else sentences
    cited = sum(any(start <= span.start < end for span in resolved) for start, end in ranges)
    return AnswerMetrics(
        sentences=len(ranges),
        cited_sentences=cited,
        markers=resolution.markers,
        unresolved_markers=len(resolution.unresolved_spans),
        matched_sentences=matched,
        flagged_sentences=flagged,
    )
