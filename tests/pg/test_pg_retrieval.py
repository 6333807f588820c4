"""Retrieval on PostgreSQL: full-text search replaces in-memory BM25, fused as in local mode."""

from __future__ import annotations

from pathlib import Path

from ingest.embeddings import HashEmbeddings
from ingest.team.library import PgLibrary
from rag.questions.read import read_question
from rag.retrieval.retrieve import lexical_index, search_evidence, warm_lexical
from tests.rag.conftest import ENGINES, GARDEN, HASH_NAME, make_pdf, open_hash_library

QUESTION = "When was the greenhouse built?"


def fill(library) -> None:
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")


def test_postgres_full_text_is_the_lexical_side(pg_url: str) -> None:
    library = PgLibrary.open(
        pg_url, HashEmbeddings(384), embedding_name=HASH_NAME, chunk_size=400, chunk_overlap=60
    )
    fill(library)
    assert warm_lexical(library) is None  # nothing to build in memory
    own = library.lexical_search(QUESTION, 5)
    assert own and lexical_index(library).search(QUESTION, 5) == own
    engines = next(d.doc_id for d in library.documents() if d.file_name == "engines.pdf")
    assert lexical_index(library).search(QUESTION, 5, doc_ids=[engines]) == []
    assert library.lexical_search("the of and", 5) == []  # stopwords only: no match, no error


def test_same_evidence_table_on_both_backends(pg_url: str, tmp_path: Path) -> None:
    local = open_hash_library(tmp_path / "lib")
    shared = PgLibrary.open(
        pg_url, HashEmbeddings(384), embedding_name=HASH_NAME, chunk_size=400, chunk_overlap=60
    )
    fill(local)
    fill(shared)
    tables = [search_evidence(lib, read_question(QUESTION), k=3).evidence for lib in (local, shared)]
    assert [(e.file_name, e.page_index) for e in tables[0]][:1] == [
        (e.file_name, e.page_index) for e in tables[1]
    ][:1]
    assert "1987" in tables[1][0].text
    within = search_evidence(shared, read_question(QUESTION), k=3, doc_ids=[tables[1][0].doc_id]).evidence
    assert within and {e.doc_id for e in within} == {tables[1][0].doc_id}


def test_document_profiles_on_postgres_are_built_and_never_saved_to_a_folder(
    pg_url: str, tmp_path: Path, monkeypatch
) -> None:
    from rag.retrieval.filings import profile_store
    from rag.retrieval.filings.profiles import build_profiles, profiles_for

    monkeypatch.chdir(tmp_path)  # PgLibrary.data_dir is the masked URL: it must not become a folder
    shared = PgLibrary.open(
        pg_url, HashEmbeddings(384), embedding_name=HASH_NAME, chunk_size=400, chunk_overlap=60
    )
    fill(shared)
    found = profiles_for(shared)
    assert not found.saved and set(found.terms) == {d.doc_id for d in shared.documents()}
    assert found.terms == build_profiles(shared).terms and all(found.terms.values())
    assert not profiles_for(shared).saved
    assert list(tmp_path.iterdir()) == [] and not Path(profile_store.FOLDER).exists()


def test_the_team_librarys_chunk_reads_equal_the_local_librarys(pg_url: str, tmp_path: Path) -> None:
    local = open_hash_library(tmp_path / "lib")
    shared = PgLibrary.open(
        pg_url, HashEmbeddings(384), embedding_name=HASH_NAME, chunk_size=400, chunk_overlap=60
    )
    files = [
        (make_pdf(GARDEN, "Garden guide"), "garden.pdf"),
        (make_pdf(ENGINES, "Engines primer"), "engines.pdf"),
    ]
    for library in (local, shared):  # the same bytes: the same document and chunk ids
        for data, name in files:
            library.add_pdf(data, name)
    assert shared.chunk_keys() == local.chunk_keys() and shared.chunk_words() == local.chunk_words()
    for doc in local.documents():
        assert shared.chunk_pages(doc.doc_id) == local.chunk_pages(doc.doc_id)
    some = [*[c.chunk_id for c in local.chunks()][::2], "no-such-chunk"]
    assert len(local.chunks_by_id(some)) == len(some) - 1
    assert shared.chunks_by_id(some) == local.chunks_by_id(some)
    assert shared.first_pages(2) == local.first_pages(2)
    assert shared.has_lexical_search and not local.has_lexical_search
    assert shared.cache_dir is None and local.cache_dir == local.data_dir
    assert local.lexical_search("greenhouse", 3) is None
