"""Answering core (no Streamlit): evidence, the citation grammar, retrieval and the answer stream.

Exported here: the vocabulary and the citation grammar (cheap to import). The heavier parts are
imported from their modules: rag.retrieval.retrieve (search_evidence), rag.answering.answer (answer_stream),
rag.answering.models (make_chat_model; wiring.make_chat_model builds it from the settings),
rag.offline.extractive (ExtractiveAnswerer), rag.answering.scripted (ScriptedChatModel), rag.prompts,
rag.retrieval.retriever (LibraryRetriever, the LangChain retriever over a library: library_retriever(library)),
rag.retrieval.library_search (search_library: words and phrases).

A question's hops through the core (the Streamlit side is in ``components/__init__.py``):

1. rag/questions/read.py:read_question - the question read once, into the Question every hop below
   takes (a short follow-up is searched for after the previous question).
2. rag/retrieval/retrieve.py:search_evidence - the documents the question names (rag/retrieval/documents.py, profiles
   saved by rag/retrieval/filings/profile_store.py), then dense (ingest/local/library.py:Library.search_vector) and BM25
   (rag/retrieval/lexical.py, saved by rag/retrieval/lexical_store.py) rankings fused; the top k chunks become
   Evidence with short ids (rag/citations/evidence.py:build_evidence) in a Retrieval.
3. rag/answering/answer.py:stream_answer - Retrieval.is_relevant gates it; a chat model gets the
   prompt (rag/prompts.py:build_messages) and rag/answering/model_stream.py:model_deltas streams
   its text (retries, timeouts, limits); the offline answerer gets the Question and the evidence
   as values, never a prompt (rag/answering/models.py:OfflineAnswerer).
4. rag/answering/answer.py:AnswerCitations.feed - the one parse: rag/citations/parser.py:CitationStream.feed finds
   the markers as the text streams; TextDelta says how much may be shown, Cited events carry id,
   span, number (resolved ids numbered by first use) and the evidence on first use.
5. rag/answering/answer.py:build_answer - the final Answer in Done: rag/citations/grammar.py:resolve over the spans
   the stream reported (footnotes with their spans, unresolved ids and spans, metrics), then
   rag/answering/attribution.py:attribute (uncited sentences matched by Footnote, unsupported citations
   flagged) over rag/answering/metrics.py:answer_sentences.
"""

from rag.answering.events import Cited, Done, Failed, StreamEvent, TextDelta
from rag.citations.evidence import assign_short_ids, build_evidence
from rag.citations.parser import CitationStream, citation_spans, extract_citations
from rag.citations.table import resolve
from rag.types import Answer, AnswerMetrics, CitationEvent, CitationSpan, Evidence, Footnote, Resolution

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
