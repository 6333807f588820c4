"""Both backends keep each page's and chunk's sections beside the text (never in what is embedded),
and `python -m cli.ingest sections` (ingest.backfill) gives documents stored before sections theirs
from their stored PDFs without re-chunking or re-embedding anything."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ingest.backfill import backfill
from ingest.embeddings import HashEmbeddings
from ingest.local.library import Library
from ingest.pdf.reader import read_pdf
from ingest.team.library import PgLibrary
from tests.ingest.pdfs import make_report
from tests.ingest.test_sections import LEGAL, REPORT

HASH_NAME = "fake:hash:384"


@pytest.fixture(params=["local", "team"])
def library(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    options: dict[str, Any] = {"embedding_name": HASH_NAME, "chunk_size": 400, "chunk_overlap": 60}
    if request.param == "local":
        return Library.open(tmp_path / "lib", HashEmbeddings(384), **options)
    return PgLibrary.open(request.getfixturevalue("pg_url"), HashEmbeddings(384), **options)


def test_a_library_keeps_the_sections_of_its_pages_and_chunks(library: Any) -> None:
    data = make_report(REPORT)
    doc = library.add_pdf(data, "report.pdf").doc
    assert [p.sections for p in library.pages(doc.doc_id)] == [
        p.sections for p in read_pdf(data, "r.pdf").pages
    ]
    chunks = library.chunks([doc.doc_id])
    assert library.chunk_sections(doc.doc_id) == {c.chunk_id: c.sections for c in chunks}
    assert any(c.sections == (LEGAL,) for c in chunks)
    assert library.chunks_by_id([chunks[-1].chunk_id])[chunks[-1].chunk_id].sections == chunks[-1].sections


def test_the_backfill_reads_the_sections_of_stored_documents_without_embedding_again(library: Any) -> None:
    doc = library.add_pdf(make_report(REPORT), "report.pdf").doc
    pages, chunks = library.pages(doc.doc_id), library.chunks([doc.doc_id])
    generation, vector = library.generation, HashEmbeddings(384).embed_query("legal proceedings")
    nearest = {c.chunk_id: round(s, 6) for c, s in library.search_vector(vector, len(chunks))}
    library.set_sections(
        doc.doc_id, [replace(p, sections=()) for p in pages], {c.chunk_id: () for c in chunks}
    )
    assert not any(c.sections for c in library.chunks()) and not any(
        p.sections for p in library.pages(doc.doc_id)
    )

    done = backfill(library)
    assert done.done == ("report.pdf",) and done.outlined == 0 and not done.unreadable
    assert library.pages(doc.doc_id) == pages and library.chunks([doc.doc_id]) == chunks
    assert library.generation == generation  # nothing to search changed: no cache is dropped
    assert {c.chunk_id: round(s, 6) for c, s in library.search_vector(vector, len(chunks))} == nearest
    assert backfill(library).skipped == 1  # a second run leaves them be


def test_a_stored_pdf_the_backfill_cannot_read_is_named_with_the_reason(tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", HashEmbeddings(384), embedding_name=HASH_NAME, chunk_size=400)
    doc = library.add_pdf(make_report(REPORT), "report.pdf").doc
    (library.files_dir / f"{doc.doc_id}.pdf").write_bytes(b"not a PDF at all")
    done = backfill(library, every=True)
    assert done.done == () and len(done.unreadable) == 1
    assert done.unreadable[0].startswith("report.pdf (") and done.lines()[-1].startswith(
        "could not read report.pdf ("
    )


def test_the_sections_command_reads_a_library_made_before_sections(tmp_path: Path) -> None:
    import sqlite3

    from tests.cli.test_ingest import run

    data = tmp_path / "data"
    (tmp_path / "report.pdf").write_bytes(make_report(REPORT))
    assert run("--data-dir", str(data), str(tmp_path / "report.pdf")).returncode == 0
    with sqlite3.connect(data / "library.sqlite3") as conn:  # as a library from before version 5 reads
        conn.execute("UPDATE pages SET sections = ''")
        conn.execute("UPDATE chunks SET sections = ''")
    done = run("sections", "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "read the sections of 1 documents (0 from their outline, the rest from their layout)"
    ]
    with sqlite3.connect(data / "library.sqlite3") as conn:
        assert conn.execute("SELECT COUNT(*) FROM chunks WHERE sections LIKE ?", (f"%{LEGAL}%",)).fetchone()[
            0
        ]


def test_a_team_reader_of_a_database_from_before_sections_says_what_to_run(pg_url: str) -> None:
    import psycopg

    from ingest.errors import PgSchemaTooOld, SchemaTooOld

    options: dict[str, Any] = {"embedding_name": HASH_NAME, "chunk_size": 400, "chunk_overlap": 60}
    PgLibrary.open(pg_url, HashEmbeddings(384), **options).add_pdf(make_report(REPORT), "report.pdf")
    with psycopg.connect(pg_url, autocommit=True) as conn:  # as a writer before sections left it
        conn.execute("ALTER TABLE footnote_chunks DROP COLUMN sections")
        conn.execute("ALTER TABLE footnote_pages DROP COLUMN sections")
        conn.execute("UPDATE footnote_meta SET value = 'older' WHERE key = 'schema_version'")
    with pytest.raises(PgSchemaTooOld, match=r"python -m cli\.ingest sections"):
        PgLibrary.open_reader(pg_url, HashEmbeddings(384), **options)
    # the app's reader (components.shared.resources._reader) opens a writer on a SchemaTooOld
    with pytest.raises(SchemaTooOld):
        PgLibrary.open_reader(pg_url, HashEmbeddings(384), **options)
    writer = PgLibrary.open(pg_url, HashEmbeddings(384), **options)  # brings the tables up to date
    assert backfill(writer).done == ("report.pdf",)
    reader = PgLibrary.open_reader(pg_url, HashEmbeddings(384), **options)
    assert any(c.sections == (LEGAL,) for c in reader.chunks())
