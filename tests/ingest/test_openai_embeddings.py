"""Ingest through an OpenAI-compatible embeddings endpoint: a real HTTP server on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.errors import EmbeddingFailed
from ingest.local.library import Library
from settings import load_settings
from tests.ingest.pdfs import PARAGRAPH, make_pdf
from tests.openai_server import Error, ScriptedOpenAIServer
from tests.ports import refused_port
from wiring import make_embeddings


@pytest.fixture
def server():
    with ScriptedOpenAIServer() as running:
        yield running


def _library(path: Path, base_url: str, batch: int = 3) -> Library:
    settings = load_settings(
        embedding_provider="openai",
        llm_base_url=base_url,
        llm_api_key="sk-test",
        embed_batch_size=batch,
        llm_retries=0,
        llm_timeout_s=60,  # generous: a loaded machine, never a scripted stall here
    )
    embeddings, name = make_embeddings(settings)
    assert name == "openai:text-embedding-3-small"
    return Library.open(
        path, embeddings, embedding_name=name, chunk_size=200, chunk_overlap=0, batch_size=batch
    )


def test_ingest_and_search_through_the_endpoint_in_batches(
    tmp_path: Path, server: ScriptedOpenAIServer
) -> None:
    library = _library(tmp_path / "lib", server.base_url)
    result = library.add_pdf(make_pdf([PARAGRAPH * 3, PARAGRAPH * 2]), "guide.pdf")
    assert result.status == "ok" and result.chunks > 3
    calls = [r for r in server.requests if r["path"] == "/v1/embeddings"]
    sizes = [len(r["body"]["input"]) for r in calls]
    assert sum(sizes) == result.chunks and max(sizes) <= 3
    assert {r["body"]["model"] for r in calls} == {"text-embedding-3-small"}
    assert calls[0]["headers"]["authorization"] == "Bearer sk-test"
    chunk = library.chunks()[0]
    hits = library.search_vector(library.embeddings.embed_query(chunk.text), 1)
    assert hits[0][0].chunk_id == chunk.chunk_id and hits[0][1] == pytest.approx(1.0, abs=1e-4)


def test_an_endpoint_error_names_the_file_and_keeps_the_library(
    tmp_path: Path, server: ScriptedOpenAIServer
) -> None:
    library = _library(tmp_path / "lib", server.base_url)
    kept = library.add_pdf(make_pdf([PARAGRAPH]), "kept.pdf").doc
    before = library.chunk_count()
    server.push_embedding_error(Error(400, "input too long for this model"))
    with pytest.raises(EmbeddingFailed) as caught:
        library.add_pdf(make_pdf([PARAGRAPH * 2, "Another page about ferries."]), "new.pdf")
    assert str(caught.value).startswith("new.pdf: could not be embedded, so nothing was changed")
    assert "input too long for this model" in str(caught.value)
    assert [d.doc_id for d in library.documents()] == [kept.doc_id] and library.chunk_count() == before
    reopened = _library(tmp_path / "lib", server.base_url)
    assert reopened.check() == [] and reopened.chunk_count() == before


def test_an_endpoint_that_is_down_names_the_cause(tmp_path: Path) -> None:
    with refused_port() as port:
        library = _library(tmp_path / "lib", f"http://127.0.0.1:{port}/v1")
        with pytest.raises(
            EmbeddingFailed,
            match=r"down\.pdf: could not be embedded.*the embedding endpoint could not be reached",
        ):
            library.add_pdf(make_pdf([PARAGRAPH]), "down.pdf")
    assert library.documents() == []
    assert library.chunk_count() == 0


def test_a_failed_re_index_changes_nothing(tmp_path: Path, server: ScriptedOpenAIServer) -> None:
    library = _library(tmp_path / "lib", server.base_url)
    library.add_pdf(make_pdf([PARAGRAPH * 2]), "kept.pdf")
    before = [(c.chunk_id, c.text) for c in library.chunks()]
    server.push_embedding_error(*[Error(500, "embedding backend crashed")] * 3)
    with pytest.raises(EmbeddingFailed, match="re-index of all documents: could not be embedded"):
        library.reindex_all()
    assert [(c.chunk_id, c.text) for c in library.chunks()] == before
    reopened = _library(tmp_path / "lib", server.base_url)
    assert reopened.check() == [] and reopened.chunk_count() == len(before)
