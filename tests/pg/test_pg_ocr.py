"""Team mode keeps what OCR read as the local library does: page records with their word boxes,
locators with the page's confidence, through a re-index; a reader meets a database written
before OCR (no ocr column yet) without an error; and its queue lets a short upload past a long
scan as the local one does (tests/ingest/test_ocr_queue.py)."""

from __future__ import annotations

import psycopg

from ingest.embeddings import HashEmbeddings
from ingest.team.library import PgLibrary
from ingest.types import OcrOptions
from tests.ingest.scans import ORCHARD, scanned
from tests.ingest.test_ocr_queue import check_a_short_upload_goes_before_a_long_scan, gated_engine
from tests.rag.conftest import GARDEN, HASH_NAME, make_pdf


def _open(url: str, ocr: OcrOptions | None = None) -> PgLibrary:
    return PgLibrary.open(
        url,
        HashEmbeddings(384),
        embedding_name=HASH_NAME,
        chunk_size=400,
        chunk_overlap=60,
        ocr=ocr or OcrOptions(),
    )


def test_a_scanned_page_keeps_its_ocr_record_and_confidence(pg_url: str) -> None:
    library = _open(pg_url)
    result = library.add_pdf(scanned(ORCHARD)[1], "orchard-scan.pdf")
    assert result.warnings == ("1 of 1 pages read by OCR (p. 1)",)
    record = library.page_ocr(result.doc.doc_id, 0)
    assert record is not None and record.confidence > 0.8 and len(record.boxes) >= 15
    assert library.pages(result.doc.doc_id)[0].ocr == record
    library.reindex_all()
    assert all(loc.ocr_confidence == record.confidence for c in library.chunks() for loc in c.locators)


def test_a_reader_reads_pages_of_a_database_from_before_ocr(pg_url: str) -> None:
    library = _open(pg_url)
    doc = library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf").doc
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE footnote_pages DROP COLUMN ocr")  # as a writer before OCR left it
    reader = PgLibrary.open_reader(
        pg_url, HashEmbeddings(384), embedding_name=HASH_NAME, chunk_size=400, chunk_overlap=60
    )
    assert {p.ocr for p in reader.pages(doc.doc_id)} == {None} and reader.page_ocr(doc.doc_id, 0) is None
    assert reader.pages(doc.doc_id)[0].text.strip()


def test_migrate_carries_the_ocr_records_and_confidences(pg_url: str, tmp_path) -> None:
    from ingest.local.library import Library
    from rag.stores.migrate import migrate_library

    local = Library.open(
        tmp_path,
        HashEmbeddings(384),
        embedding_name=HASH_NAME,
        chunk_size=400,
        chunk_overlap=60,
        ocr=OcrOptions(),
    )
    doc = local.add_pdf(scanned(ORCHARD)[1], "orchard-scan.pdf").doc
    target = _open(pg_url)
    assert migrate_library(local, target)[0] == 1
    assert target.page_ocr(doc.doc_id, 0) == local.page_ocr(doc.doc_id, 0) is not None
    assert [c.locators for c in target.chunks()] == [c.locators for c in local.chunks()]


def test_a_short_upload_goes_before_a_long_scan_on_postgres(pg_url: str) -> None:
    engine, gate = gated_engine()
    library = _open(pg_url, OcrOptions(engine=engine))
    check_a_short_upload_goes_before_a_long_scan(library, engine, gate)
