"""The library as a LangChain retriever: the app's own hybrid retrieval behind BaseRetriever."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables.config import run_in_executor
from pydantic import ConfigDict, Field, SkipValidation

from ingest.types import LibraryReader
from rag.questions.read import read_question
from rag.retrieval.retrieve import search_evidence
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
    """Hybrid (dense + BM25) retrieval over a library, k merged pieces per question.

    ``k`` and ``doc_ids`` may also be given per call, ``retriever.invoke(q, k=1, doc_ids=[...])``,
    overriding the fields for that call only (LangChain's standard retriever contract)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    # not validated: a Protocol has no isinstance check, and asking the library's properties would read it
    library: SkipValidation[LibraryReader] = Field(description="The library (local or team) to search.")
    k: int = Field(6, ge=1, description="Pieces of evidence per question.")
    doc_ids: tuple[str, ...] | None = Field(None, description="Only these documents (None: all).")

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        k: int | None = None,
        doc_ids: Iterable[str] | None = None,
        **unknown: Any,
    ) -> list[Document]:
        k, only = self._call_options(k, doc_ids, unknown)
        found = search_evidence(self.library, read_question(query), k=k, doc_ids=only)  # LangChain's text in
        return [evidence_document(ev) for ev in found.evidence]

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,
        k: int | None = None,
        doc_ids: Iterable[str] | None = None,
        **unknown: Any,
    ) -> list[Document]:
        # BaseRetriever's own async fallback drops the call's keywords; this one passes them on.
        return await run_in_executor(
            None,
            self._get_relevant_documents,
            query,
            run_manager=run_manager.get_sync(),
            k=k,
            doc_ids=doc_ids,
            **unknown,
        )

    def _call_options(
        self, k: int | None, doc_ids: Iterable[str] | None, unknown: dict[str, Any]
    ) -> tuple[int, tuple[str, ...] | None]:
        """This call's k and documents: the call's keywords, else the fields; unknown ones refused."""
        unknown.pop("verbose", None)  # BaseRetriever.invoke leaves its own option in the keywords
        if unknown:
            raise TypeError(f"LibraryRetriever takes k and doc_ids per call, not {sorted(unknown)}")
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
            raise ValueError(f"k must be a whole number of at least 1, not {k!r}")
        if isinstance(doc_ids, str):  # tuple("abc") would be three one-letter ids
            raise TypeError(f"doc_ids must be a list of document ids, not the string {doc_ids!r}")
        only = self.doc_ids if doc_ids is None else tuple(doc_ids)
        return (self.k if k is None else k), only


def library_retriever(library: LibraryReader, k: int = 6, doc_ids: Any = None) -> LibraryRetriever:
    """A LibraryRetriever over library (doc_ids: any iterable of document ids, or None for all)."""
    return LibraryRetriever(library=library, k=k, doc_ids=tuple(doc_ids) if doc_ids is not None else None)
