"""Every PDF of ../shared/corpus/sample-files ingests or fails with the right error; squad-dev
retrieval with the real local model lands on the gold pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from ingest import errors
from ingest.embeddings import LOCAL_NAME, LocalEmbeddings
from ingest.local.library import Library
from ingest.pdf.chunking import locator_text
from tests.ingest.test_library import open_library

pytestmark = pytest.mark.corpus

PASSWORDS = {"libreoffice-writer-password.pdf": "openpassword"}
FAILS = {
    "unreadablemetadata.pdf": errors.BrokenPdf,  # pypdf: "Invalid object in /Pages"
    "imagemagick-ASCII85Decode.pdf": errors.NoTextLayer,
    "imagemagick-CCITTFaxDecode.pdf": errors.NoTextLayer,
    "imagemagick-lzw.pdf": errors.NoTextLayer,
    "grayscale-image.pdf": errors.NoTextLayer,
    "cmyk-image.pdf": errors.NoTextLayer,
}
# Mostly pictures, but four pages carry the word "Background" as real text.
WARNS = {"imagemagick-images.pdf": "2 of 6 pages have no text (p. 4, 5)"}


def test_every_sample_file(corpus: Path, tmp_path: Path) -> None:
    paths = sorted((corpus / "sample-files").rglob("*.pdf"))
    assert len(paths) >= 30
    library = open_library(tmp_path)
    for path in paths:
        data, name = path.read_bytes(), path.name
        if name in FAILS:
            with pytest.raises(FAILS[name]) as caught:
                library.add_pdf(data, name)
            assert name in str(caught.value)
            continue
        if name in PASSWORDS:
            with pytest.raises(errors.PasswordRequired):
                library.add_pdf(data, name)
        result = library.add_pdf(data, name, password=PASSWORDS.get(name))
        assert result.status == "ok" and result.chunks > 0, name
        assert result.doc.pages == len(PdfReader(path, password=PASSWORDS.get(name)).pages), name
        assert result.warnings == ((WARNS[name],) if name in WARNS else ()), name
        pages = library.pages(result.doc.doc_id)
        for chunk in library.chunks([result.doc.doc_id]):
            assert chunk.text == locator_text(pages, chunk.locators), name
    assert library.check() == []
    assert len(library.documents()) == len(paths) - len(FAILS)


def test_thesis_labels_and_title(corpus: Path, tmp_path: Path) -> None:
    path = corpus / "sample-files" / "009-pdflatex-geotopo" / "GeoTopo-komprimiert.pdf"
    doc = open_library(tmp_path).add_pdf(path.read_bytes(), path.name).doc
    pages = open_library(tmp_path).pages(doc.doc_id)
    assert doc.title == "Geometrie und Topologie" and doc.pages == 117
    assert [p.label for p in pages[:4]] == ["i", "ii", "iii", "1"]


def test_local_model_finds_gold_pages(corpus: Path, tmp_path: Path) -> None:
    squad = corpus / "squad-dev"
    library = Library.open(tmp_path, LocalEmbeddings(), embedding_name=LOCAL_NAME)
    doc = library.add_pdf((squad / "pdfs" / "Normans.pdf").read_bytes(), "Normans.pdf").doc
    questions = [json.loads(line) for line in (squad / "questions.jsonl").read_text().splitlines()]
    answerable = [q for q in questions if q["doc_file"] == "pdfs/Normans.pdf" and not q["is_impossible"]][:40]
    hits = 0
    for q in answerable:
        found = library.search_vector(library.embeddings.embed_query(q["question"]), 3)
        hits += any(loc.page_index in q["gold_page_indexes"] for c, _ in found for loc in c.locators)
        assert all(c.doc_id == doc.doc_id for c, _ in found)
    assert hits / len(answerable) >= 0.7, f"top-3 page hit rate {hits}/{len(answerable)}"
