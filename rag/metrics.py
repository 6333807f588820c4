"""Citation quality of an answer: sentences with content, how many carry a valid citation, and
how many markers point nowhere."""

from __future__ import annotations

from rag.text import has_content, sentence_spans
from rag.types import AnswerMetrics, CitationSpan, Resolution


def sentence_ranges(text: str, spans: list[CitationSpan]) -> list[tuple[int, int]]:
    """[start, end) of each sentence (rag.text's rule); markers after a full stop belong to it."""
    return sentence_spans(text, sorted({(s.group_start, s.group_end) for s in spans}))


def _has_content(text: str, start: int, end: int, spans: list[CitationSpan]) -> bool:
    chars = list(text[start:end])
    for span in spans:
        for i in range(max(span.group_start, start), min(span.group_end, end)):
            chars[i - start] = " "
    return has_content("".join(chars))


def measure(text: str, resolution: Resolution) -> AnswerMetrics:
    """Sentences with content, those with at least one valid citation, markers, unresolved markers."""
    resolved = [span for f in resolution.footnotes for span in f.spans]
    every = resolved + list(resolution.unresolved_spans)
    sentences = cited = 0
    for start, end in sentence_ranges(text, every):
        if not _has_content(text, start, end, every):
            continue
        sentences += 1
        cited += any(start <= span.start < end for span in resolved)
    return AnswerMetrics(
        sentences=sentences,
        cited_sentences=cited,
        markers=resolution.markers,
        unresolved_markers=len(resolution.unresolved_spans),
    )
