"""LangChain's own standard tests (langchain-tests) for LibraryRetriever, over the shipped sample
documents with the local embeddings: the contract every LangChain retriever keeps."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_tests.integration_tests import RetrieversIntegrationTests

from ingest.embeddings import LocalEmbeddings
from ingest.local.library import Library
from rag.retrieval.retriever import LibraryRetriever
from settings import Settings

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@pytest.fixture(scope="module")
def sample_library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """Both sample PDFs in a real library, chunked as the app chunks them, local embeddings."""
    embeddings = LocalEmbeddings()
    library = Library.open(
        tmp_path_factory.mktemp("samples"),
        embeddings,
        embedding_name=embeddings.name,
        chunk_size=Settings.model_fields["chunk_size"].default,
        chunk_overlap=Settings.model_fields["chunk_overlap"].default,
    )
    for pdf in sorted(SAMPLES.glob("*.pdf")):
        assert library.add_pdf(pdf.read_bytes(), pdf.name).status == "ok"
    return library


class TestLibraryRetrieverStandard(RetrieversIntegrationTests):
    """RetrieversIntegrationTests, unchanged, against the retriever library_retriever builds."""

    @pytest.fixture(autouse=True)
    def _library(self, sample_library: Library) -> None:
        self.library = sample_library

    @property
    def retriever_constructor(self) -> type[LibraryRetriever]:
        return LibraryRetriever

    @property
    def retriever_constructor_params(self) -> dict:
        return {"library": self.library}

    @property
    def retriever_query_example(self) -> str:
        return "How many days a week are staff expected in the office?"
