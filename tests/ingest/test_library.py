"""The library on real SQLite and FAISS: add, skip, delete, search, settings, self-repair."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ingest.embeddings import HashEmbeddings
from ingest.errors import IndexMismatch, NoTextLayer
from ingest.local.library import Library
from ingest.local.vectors import index_ids, load_index, save_index
from ingest.pdf.chunking import locator_text, visible_length
from ingest.types import LibrarySettings
from tests.ingest.pdfs import PARAGRAPH, make_image_pdf, make_pdf

NAME = "fake:hash:384"
FOG = make_pdf([PARAGRAPH * 6, "The relief keeper arrives every second Tuesday with coal."], title="Fog")
BEES = make_pdf(["Honeybees dance to tell the hive where the clover grows. " * 20], title="Bees")


def open_library(folder: Path, **options) -> Library:
    options = {"chunk_size": 300, "chunk_overlap": 30, "batch_size": 4} | options
    return Library.open(folder, HashEmbeddings(), embedding_name=NAME, **options)


def test_add_stores_document_pages_chunks_and_file(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    seen = []
    result = library.add_pdf(FOG, "fog.pdf", progress=seen.append)
    assert result.status == "ok" and result.doc.title == "Fog" and result.doc.pages == 2
    assert [d.doc_id for d in library.documents()] == [result.doc.doc_id]
    assert library.chunk_count() == result.chunks == result.doc.chunks > 2
    chunks = library.chunks()
    pages = library.pages(result.doc.doc_id)
    assert all(c.text == locator_text(pages, c.locators) for c in chunks)
    assert library.pdf_bytes(result.doc.doc_id) == FOG
    assert {p.stage for p in seen} == {"read", "chunk", "embed", "index"}
    embed = [p for p in seen if p.stage == "embed"]
    assert embed[-1].done == embed[-1].total == result.chunks
    read = [(p.done, p.total) for p in seen if p.stage == "read"]
    assert read == [(0, 2), (1, 2), (2, 2)]  # the real page total from the first report on


def test_the_word_and_page_reads_agree_with_the_chunks(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    fog = library.add_pdf(FOG, "fog.pdf").doc.doc_id
    library.add_pdf(BEES, "bees.pdf")
    chunks = library.chunks()
    assert library.chunk_words() == [(c.chunk_id, c.doc_id, c.context, c.text) for c in chunks]
    expected = {c.chunk_id: c.locators[0].page_index for c in chunks if c.doc_id == fog}
    assert library.chunk_pages(fog) == expected and set(expected.values()) == {0, 1}
    assert list(library.chunk_pages(fog)) == list(expected)  # in the chunks' order
    library.delete(fog)
    assert library.chunk_pages(fog) == {} and len(library.chunk_words()) == library.chunk_count()


def test_same_bytes_are_skipped(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    first = library.add_pdf(FOG, "fog.pdf")
    generation = library.generation
    again = library.add_pdf(FOG, "renamed.pdf")
    assert again.status == "skipped" and again.message == "already in the library"
    assert again.doc.doc_id == first.doc.doc_id and again.doc.file_name == "fog.pdf"
    assert library.generation == generation and len(library.documents()) == 1


def test_ids_are_stable_across_reingest(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    doc_id = library.add_pdf(FOG, "fog.pdf").doc.doc_id
    before = [c.chunk_id for c in library.chunks()]
    assert library.delete(doc_id)
    library.add_pdf(FOG, "fog.pdf")
    assert [c.chunk_id for c in library.chunks()] == before
    other = open_library(tmp_path / "other")
    other.add_pdf(FOG, "elsewhere.pdf")
    assert [c.chunk_id for c in other.chunks()] == before


def test_delete_removes_rows_vectors_and_file_only_of_that_document(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    fog = library.add_pdf(FOG, "fog.pdf").doc
    bees = library.add_pdf(BEES, "bees.pdf").doc
    generation = library.generation
    assert library.delete(fog.doc_id) and not library.delete(fog.doc_id)
    assert library.generation > generation
    assert [d.doc_id for d in library.documents()] == [bees.doc_id]
    assert library.pages(fog.doc_id) == [] and not (tmp_path / "files" / f"{fog.doc_id}.pdf").exists()
    index = load_index(tmp_path / "index.faiss")
    assert index.ntotal == library.chunk_count() == bees.chunks
    assert all(
        c.doc_id == bees.doc_id
        for c, _ in library.search_vector(library.embeddings.embed_query("keeper fog coal"), 10)
    )
    assert library.check() == []


def test_search_ranks_and_filters_by_document(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    fog = library.add_pdf(FOG, "fog.pdf").doc
    bees = library.add_pdf(BEES, "bees.pdf").doc
    (top, score), *_ = library.search_vector(library.embeddings.embed_query("honeybees dance clover hive"), 3)
    assert top.doc_id == bees.doc_id and 0 < score <= 1.0001
    only_fog = library.search_vector(
        library.embeddings.embed_query("honeybees dance clover hive"), 3, doc_ids=[fog.doc_id]
    )
    assert len(only_fog) == 3 and {c.doc_id for c, _ in only_fog} == {fog.doc_id}
    scores = [s for _, s in only_fog]
    assert scores == sorted(scores, reverse=True)
    vec = HashEmbeddings().embed_query("relief keeper coal Tuesday")
    assert "coal" in library.search_vector(vec, 1)[0][0].text
    assert library.search_vector(library.embeddings.embed_query("anything"), 5, doc_ids=[]) == []


def test_failed_file_writes_nothing(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    with pytest.raises(NoTextLayer):
        library.add_pdf(make_image_pdf(), "scan.pdf")
    assert library.documents() == [] and list((tmp_path / "files").iterdir()) == []


def test_other_settings_are_refused_until_reindexed(tmp_path: Path) -> None:
    open_library(tmp_path).add_pdf(FOG, "fog.pdf")
    with pytest.raises(IndexMismatch, match="re-index") as caught:
        open_library(tmp_path, chunk_size=500)
    assert "chunk_size: library 300, now 500" in str(caught.value)
    with pytest.raises(IndexMismatch, match="embedding_name"):
        Library.open(
            tmp_path, HashEmbeddings(), embedding_name="local:other", chunk_size=300, chunk_overlap=30
        )
    rebuilt = Library.rebuild(
        tmp_path, HashEmbeddings(), embedding_name=NAME, chunk_size=500, chunk_overlap=30
    )
    reopened = open_library(tmp_path, chunk_size=500)
    assert reopened.chunk_count() == rebuilt.chunk_count() == reopened.documents()[0].chunks
    assert all(visible_length(c.text) <= 500 for c in reopened.chunks())
    assert load_index(tmp_path / "index.faiss").ntotal == reopened.chunk_count()


def test_an_empty_library_takes_new_settings(tmp_path: Path) -> None:
    open_library(tmp_path)
    assert open_library(tmp_path, chunk_size=700).config.chunk_size == 700


def test_one_config_opens_writer_reader_and_rebuild_as_its_fields_do(tmp_path: Path) -> None:
    config = LibrarySettings(NAME, chunk_size=300, chunk_overlap=30, batch_size=4)
    Library.open(tmp_path, HashEmbeddings(), config=config).add_pdf(FOG, "fog.pdf")
    assert open_library(tmp_path).config == config  # the same library as its fields open
    reader = Library.open_reader(tmp_path, HashEmbeddings(), config=config)
    assert reader.config == config and len(reader.documents()) == 1
    wider = LibrarySettings(NAME, chunk_size=500, chunk_overlap=30)
    assert Library.rebuild(tmp_path, HashEmbeddings(), config=wider).config.chunk_size == 500
    with pytest.raises(TypeError, match="not both"):
        Library.open(tmp_path, HashEmbeddings(), config=wider, chunk_size=500)


def test_a_second_instance_sees_changes(tmp_path: Path) -> None:
    first, second = open_library(tmp_path), open_library(tmp_path)
    assert second.search_vector(second.embeddings.embed_query("fog"), 3) == []
    first.add_pdf(FOG, "fog.pdf")
    assert (
        second.search_vector(second.embeddings.embed_query("fog keeper"), 1)[0][0].doc_id
        == first.documents()[0].doc_id
    )
    first.add_pdf(BEES, "bees.pdf")
    first.delete(first.documents()[0].doc_id)
    assert {c.doc_id for c, _ in second.search_vector(second.embeddings.embed_query("fog keeper"), 50)} == {
        first.documents()[0].doc_id
    }


def test_check_repairs_missing_extra_and_lost_vectors(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    library.add_pdf(FOG, "fog.pdf")
    index = load_index(tmp_path / "index.faiss")
    ids = index_ids(index)
    index.remove_ids(ids[:2])
    index.add_with_ids(np.ones((1, 384), dtype=np.float32) / np.sqrt(384), np.array([999999]))
    save_index(index, tmp_path / "index.faiss")
    (tmp_path / "files" / "stray.pdf").write_bytes(b"%PDF-1.4")
    actions = library.check()
    assert any("Removed 1 vectors" in a for a in actions) and any(
        "Re-embedded 2 chunks" in a for a in actions
    )
    assert any("stray.pdf" in a for a in actions) and not (tmp_path / "files" / "stray.pdf").exists()
    assert sorted(index_ids(load_index(tmp_path / "index.faiss"))) == sorted(ids)
    assert library.check() == []
    (tmp_path / "index.faiss").write_bytes(b"not an index")
    reopened = open_library(tmp_path)
    assert any("damaged or incomplete" in line for line in reopened.open_report)
    assert (
        reopened.search_vector(reopened.embeddings.embed_query("relief keeper coal"), 1)[0][0].text.count(
            "coal"
        )
        == 1
    )


def test_an_emptied_library_accepts_another_dimension(tmp_path: Path) -> None:
    library = open_library(tmp_path)
    library.delete(library.add_pdf(FOG, "fog.pdf").doc.doc_id)
    small = Library.open(tmp_path, HashEmbeddings(dim=64), embedding_name="fake:hash:64")
    assert small.add_pdf(BEES, "bees.pdf").status == "ok"
    assert load_index(tmp_path / "index.faiss").d == 64 and small.search_vector(
        small.embeddings.embed_query("clover"), 1
    )
