"""``python -m cli.ingest recover`` on PostgreSQL: documents left incomplete by a change from outside
(a partial restore, rows deleted by hand) are re-derived from their stored PDFs; a complete
library has nothing to recover, in one sentence."""

from __future__ import annotations

from pathlib import Path

import psycopg

from ingest.embeddings import HashEmbeddings
from ingest.team.library import PgLibrary
from tests.pg.test_backends import ask, run
from tests.rag.conftest import ENGINES, GARDEN, make_pdf


def open_pg(url: str) -> PgLibrary:
    return PgLibrary.open(
        url, HashEmbeddings(384), embedding_name="fake:hash:384", chunk_size=400, chunk_overlap=60
    )


def rows(url: str, doc_id: str) -> tuple[list, list]:
    with psycopg.connect(url) as conn:
        pages = conn.execute(
            "SELECT page_index, label, text FROM footnote_pages WHERE doc_id = %s ORDER BY page_index",
            (doc_id,),
        ).fetchall()
        chunks = conn.execute(
            "SELECT chunk_id, text, locators, context, embedding::text FROM footnote_chunks "
            "WHERE doc_id = %s ORDER BY ordinal",
            (doc_id,),
        ).fetchall()
    return pages, chunks


def test_recover_re_derives_a_document_whose_rows_are_incomplete(pg_url: str, tmp_path: Path) -> None:
    library = open_pg(pg_url)
    garden = library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf").doc
    engines = library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf").doc
    before = rows(pg_url, garden.doc_id)
    with psycopg.connect(pg_url) as conn:  # as a restore that lost some of garden's rows
        conn.execute("DELETE FROM footnote_chunks WHERE doc_id = %s AND ordinal > 0", (garden.doc_id,))
        conn.execute("DELETE FROM footnote_pages WHERE doc_id = %s AND page_index = 2", (garden.doc_id,))
    untouched = rows(pg_url, engines.doc_id)
    env = {"FOOTNOTE_DATABASE_URL": pg_url, "FOOTNOTE_DATA_DIR": str(tmp_path / "d")}
    done = run("ingest", "recover", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        f"Recovered 1 documents from their stored PDFs ({garden.chunks} chunks embedded again): garden.pdf."
    )
    assert rows(pg_url, garden.doc_id) == before  # the same ids, text, locators and vectors
    assert rows(pg_url, engines.doc_id) == untouched
    data = ask("When was the greenhouse built?", env)
    assert "1987" in data["answer"] and data["footnotes"][0]["page_index"] == 2

    again = run("ingest", "recover", env=env)
    message = (again.stdout + again.stderr).strip()
    assert again.returncode == 1 and len(message.splitlines()) == 1
    assert "nothing to recover" in message and "backups" in message


def test_an_unreadable_stored_pdf_is_reported_and_left_as_it_was(pg_url: str) -> None:
    library = open_pg(pg_url)
    garden = library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf").doc
    with psycopg.connect(pg_url) as conn:
        conn.execute("DELETE FROM footnote_chunks WHERE doc_id = %s", (garden.doc_id,))
        conn.execute("UPDATE footnote_documents SET pdf = 'not a pdf'::bytea")
    assert library.check() == [
        "Could not read a stored PDF (garden.pdf: is not a PDF file); it is left as it was: "
        "delete it and add the file again."
    ]
    assert [d.file_name for d in library.documents()] == ["garden.pdf"] and library.chunk_count() == 0
