"""Answering core (no Streamlit): evidence, the citation grammar, retrieval and the answer stream.

Exported here: the vocabulary and the citation grammar (cheap to import). The heavier parts are
imported from their modules: rag.retrieve (retrieve, search_evidence), rag.answer (answer_stream,
stream_options), rag.models (make_chat_model), rag.extractive (ExtractiveChatModel),
rag.scripted (ScriptedChatModel), rag.prompts, rag.retriever (LibraryRetriever, the LangChain
retriever behind Library.as_retriever), rag.library_search (search_library: words and phrases).
"""

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
