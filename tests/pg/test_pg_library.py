"""The PostgreSQL library against a real server: the same behaviour as the local one."""

from __future__ import annotations

from ingest.embeddings import HashEmbeddings
from ingest.team.library import PgLibrary
from ingest.team.store import HnswSettings
from tests.rag.conftest import ENGINES, GARDEN, HASH_NAME, make_pdf


def open_pg(url: str, **options) -> PgLibrary:
    return PgLibrary.open(
        url, HashEmbeddings(384), embedding_name=HASH_NAME, chunk_size=400, chunk_overlap=60, **options
    )


def test_add_search_delete_round_trip(pg_url: str) -> None:
    library = open_pg(pg_url)
    garden_pdf = make_pdf(GARDEN, "Garden guide")
    garden = library.add_pdf(garden_pdf, "garden.pdf")
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    assert garden.status == "ok" and [d.file_name for d in library.documents()] == [
        "garden.pdf",
        "engines.pdf",
    ]
    assert library.add_pdf(garden_pdf, "again.pdf").status == "skipped"
    hits = library.search_vector(library.embeddings.embed_query("compost heap turned"), 3)
    assert hits and hits[0][0].doc_id == garden.doc.doc_id
    lexical = library.lexical_search("When was the greenhouse built?", 3)
    assert lexical and "greenhouse" in lexical[0][0].text.lower()
    assert library.pdf_bytes(garden.doc.doc_id).startswith(b"%PDF")
    assert library.delete(garden.doc.doc_id) and library.document(garden.doc.doc_id) is None


def test_dense_search_returns_as_many_candidates_as_asked_beyond_ef_search(pg_url: str) -> None:
    library = open_pg(pg_url, hnsw=HnswSettings(ef_search=2))
    library.add_pdf(make_pdf(GARDEN * 4 + ENGINES * 4, "Long guide"), "long.pdf")
    assert library.chunk_count() >= 8
    assert len(library.search_vector(library.embeddings.embed_query("compost"), 8)) == 8


def test_first_pages_are_each_documents_first_pages_in_one_query(pg_url: str) -> None:
    from rag.retrieval.filings.profiles import PROFILE_PAGES

    library = open_pg(pg_url)
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    expected = {d.doc_id: library.pages(d.doc_id)[:PROFILE_PAGES] for d in library.documents()}
    assert library.first_pages(PROFILE_PAGES) == expected
    assert all(len(pages) == PROFILE_PAGES for pages in expected.values())
    assert library.first_pages(1) == {d: pages[:1] for d, pages in expected.items()}
