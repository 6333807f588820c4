"""Answering core (no Streamlit): evidence, the citation grammar, retrieval and the answer stream.

Exported here: the vocabulary and the citation grammar (cheap to import). The heavier parts are
imported from their modules: rag.retrieve (search_evidence), rag.answer (answer_stream),
rag.models (make_chat_model; wiring.make_chat_model builds it from the settings),
rag.extractive (ExtractiveChatModel), rag.scripted (ScriptedChatModel), rag.prompts,
rag.retriever (LibraryRetriever, the LangChain retriever behind Library.as_retriever),
rag.library_search (search_library: words and phrases).

A question's hops through the core (the Streamlit side is in ``components/__init__.py``):

1. rag/answer.py:retrieval_query - the question, preceded by the previous one for a short follow-up.
2. rag/retrieve.py:search_evidence - the documents the question names (rag/documents.py, profiles
   saved by rag/profile_store.py), then dense (ingest/library.py:Library.search_vector) and BM25
   (rag/lexical.py, saved by rag/lexical_store.py) rankings fused; the top k chunks become
   Evidence with short ids (rag/evidence.py:build_evidence) in a Retrieval.
3. rag/answer.py:stream_answer - Retrieval.is_relevant gates it; rag/prompts.py:build_messages;
   rag/model_stream.py:model_deltas streams the model's text (retries, timeouts, limits).
4. rag/answer.py:AnswerCitations.feed - the one parse: rag/citations.py:CitationStream.feed finds
   the markers as the text streams; TextDelta says how much may be shown, Cited events carry id,
   span, number (resolved ids numbered by first use) and the evidence on first use.
5. rag/answer.py:build_answer - the final Answer in Done: rag/citations.py:resolve over the spans
   the stream reported (footnotes with their spans, unresolved ids and spans, metrics), then
   rag/attribution.py:attribute (uncited sentences matched by Footnote, unsupported citations
   flagged) over rag/metrics.py:answer_sentences.
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
