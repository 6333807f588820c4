"""Answering core (no Streamlit): evidence, the citation grammar, retrieval and the answer stream."""

from rag.citations import CitationStream, citation_spans, extract_citations, resolve
from rag.evidence import assign_short_ids, build_evidence
from rag.types import (
    Answer,
    AnswerMetrics,
    CitationEvent,
    CitationSpan,
    Cited,
    Done,
    Evidence,
    Failed,
    Footnote,
    Resolution,
    StreamEvent,
    TextDelta,
)

__all__ = [
    "Answer",
    "AnswerMetrics",
    "CitationEvent",
    "CitationSpan",
    "CitationStream",
    "Cited",
    "Done",
    "Evidence",
    "Failed",
    "Footnote",
    "Resolution",
    "StreamEvent",
    "TextDelta",
    "assign_short_ids",
    "build_evidence",
    "citation_spans",
    "extract_citations",
    "resolve",
]
