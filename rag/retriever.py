"""The library as a LangChain retriever: the app's own hybrid retrieval behind BaseRetriever."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from rag.retrieve import search_evidence
from rag.types import Evidence


def evidence_document(ev: Evidence) -> Document:
    """One piece of evidence as a LangChain Document; metadata carries its id, page and offsets."""
    return Document(
        page_content=ev.text,
        id=ev.chunk_id,
        metadata={
            "short_id": ev.short_id,
            "chunk_id": ev.chunk_id,
            "doc_id": ev.doc_id,
            "title": ev.title,
            "file_name": ev.file_name,
            "page_index": ev.page_index,
            "page_label": ev.page_label,
            "page_end_index": ev.page_end_index,
            "char_start": ev.char_start,
            "char_end": ev.char_end,
            "score": ev.score,
        },
    )


class LibraryRetriever(BaseRetriever):
    """Hybrid (dense + BM25) retrieval over a Library, k merged pieces per question."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    library: Any = Field(description="An ingest.library.Library (or anything with its search API).")
    k: int = Field(6, ge=1, description="Pieces of evidence per question.")
    doc_ids: tuple[str, ...] | None = Field(None, description="Only these documents (None: all).")

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        found = search_evidence(self.library, query, k=self.k, doc_ids=self.doc_ids)
        return [evidence_document(ev) for ev in found.evidence]


def library_retriever(library: Any, k: int = 6, doc_ids: Any = None) -> LibraryRetriever:
    """A LibraryRetriever over library (doc_ids: any iterable of document ids, or None for all)."""
    return LibraryRetriever(library=library, k=k, doc_ids=tuple(doc_ids) if doc_ids is not None else None)
