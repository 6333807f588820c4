"""Citation quality of an answer: sentences with content, how many carry a valid citation, and
how many markers point nowhere."""

from __future__ import annotations

import re

from rag.types import AnswerMetrics, CitationSpan, Resolution

_END = re.compile(r"[.!?]+[\"')]*(?=\s|$)|\n")


def sentence_ranges(text: str, spans: list[CitationSpan]) -> list[tuple[int, int]]:
    """[start, end) of each sentence; a citation right after a full stop belongs to that sentence."""
    groups = {span.group_start: span.group_end for span in spans}
    bounds: list[int] = []
    for match in _END.finditer(text):
        end = match.end()
        if bounds and end <= bounds[-1]:
            continue  # inside citations already absorbed by the previous sentence
        while True:
            nxt = end
            while nxt < len(text) and text[nxt] in " \t":
                nxt += 1
            if nxt not in groups:
                break
            end = groups[nxt]
        bounds.append(end)
    if not bounds or bounds[-1] < len(text):
        bounds.append(len(text))
    starts = [0, *bounds[:-1]]
    return [(s, e) for s, e in zip(starts, bounds) if e > s]


def _has_content(text: str, start: int, end: int, spans: list[CitationSpan]) -> bool:
    chars = list(text[start:end])
    for span in spans:
        for i in range(max(span.group_start, start), min(span.group_end, end)):
            chars[i - start] = " "
    return any(ch.isalnum() for ch in chars)


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
