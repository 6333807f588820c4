"""LangChain's own standard tests (langchain-tests) for the embeddings Footnote builds: the local
MiniLM in both precisions, and the OpenAI-compatible path against the loopback server."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings
from langchain_tests.integration_tests import EmbeddingsIntegrationTests

from ingest.embeddings import LocalEmbeddings
from settings import load_settings
from tests.openai_server import ScriptedOpenAIServer
from wiring import make_embeddings

# One instance per precision for all the standard tests: building the graph costs 1-3 s a time,
# and what they check is the methods' contract, not the constructor.
shared_local = functools.cache(LocalEmbeddings)


class TestLocalEmbeddingsStandard(EmbeddingsIntegrationTests):
    """The offline default (int8 graph)."""

    @property
    def embeddings_class(self) -> Any:
        return shared_local


class TestLocalEmbeddingsFp32Standard(EmbeddingsIntegrationTests):
    """FOOTNOTE_LOCAL_PRECISION=fp32: the original vectors."""

    @property
    def embeddings_class(self) -> Any:
        return shared_local

    @property
    def embedding_model_params(self) -> dict[str, Any]:
        return {"precision": "fp32"}


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as server:
        yield server


def _openai_embeddings(base_url: str) -> Embeddings:
    """The OpenAIEmbeddings the app builds for FOOTNOTE_EMBEDDING_PROVIDER=openai at base_url."""
    settings = load_settings(
        embedding_provider="openai", llm_base_url=base_url, llm_api_key="sk-test", llm_retries=0
    )
    embeddings, _ = make_embeddings(settings)
    return embeddings


class TestOpenAIEmbeddingsStandard(EmbeddingsIntegrationTests):
    """FOOTNOTE_EMBEDDING_PROVIDER=openai, over real HTTP to tests/openai_server.py."""

    @pytest.fixture(autouse=True)
    def _endpoint(self, endpoint: ScriptedOpenAIServer) -> None:
        self.base_url = endpoint.base_url

    @property
    def embeddings_class(self) -> Any:
        return _openai_embeddings

    @property
    def embedding_model_params(self) -> dict[str, Any]:
        return {"base_url": self.base_url}
