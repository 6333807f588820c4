"""What OCR is spared: blank pages (nothing drawn) are never rendered or read, and a file of them is
refused at once with one sentence; real PDFs made here, a counting fake engine in place of Tesseract."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfWriter

from ingest.errors import BlankPages, NoTextLayer
from ingest.pdf.reader import read_pdf
from ingest.types import OcrOptions
from tests.ingest.ocr_fakes import SENTENCE, CountingEngine
from tests.ingest.pdfs import make_image_pdf, make_pdf
from tests.ingest.scans import HARBOUR, join_pdfs
from tests.ingest.test_library import open_library


def blank_pdf(pages: int) -> bytes:
    """pypdf's blank pages: no content stream, no resources."""
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(612, 792)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_two_thousand_blank_pages_end_with_one_sentence_and_no_ocr(tmp_path: Path) -> None:
    engine = CountingEngine()
    library = open_library(tmp_path, ocr=OcrOptions(engine=engine))
    with pytest.raises(BlankPages) as caught:
        library.add_pdf(blank_pdf(2000), "blank.pdf")
    assert str(caught.value) == "blank.pdf: has no text layer, and nothing is drawn on any of its 2,000 pages"
    assert isinstance(caught.value, NoTextLayer) and engine.readings == 0
    assert library.documents() == []


def test_one_blank_page_says_so_with_ocr_off_too() -> None:
    with pytest.raises(
        BlankPages, match=r"^one.pdf: has no text layer, and nothing is drawn on its one page$"
    ):
        read_pdf(blank_pdf(1), "one.pdf")


def test_blank_pages_among_others_are_named_and_never_read() -> None:
    engine = CountingEngine()
    mixed = join_pdfs(make_pdf([HARBOUR]), blank_pdf(1), make_image_pdf(1), blank_pdf(2))
    read = read_pdf(mixed, "mixed.pdf", ocr=OcrOptions(engine=engine))
    assert engine.readings == 1  # the picture page only
    assert [" ".join(p.text.split()) for p in read.pages][1:] == ["", SENTENCE, "", ""]
    assert read.warnings == ("1 of 5 pages read by OCR (p. 3)", "3 of 5 pages are blank (p. 2, 4, 5)")
