"""What OCR is spared: blank pages (nothing drawn) are never rendered or read, and a file of them is
refused at once with one sentence; real PDFs made here, a counting fake engine in place of Tesseract."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfWriter

from ingest.errors import BlankPages, NoTextLayer
from ingest.pdf.ocr import OcrResult
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


def test_a_scan_past_the_budget_is_kept_with_what_was_read_and_says_so(tmp_path: Path) -> None:
    engine = CountingEngine()
    library = open_library(tmp_path, ocr=OcrOptions(engine=engine, max_pages=3))
    seen = []
    result = library.add_pdf(make_image_pdf(5), "scan.pdf", progress=seen.append)
    assert result.status == "ok" and engine.readings == 3
    assert result.warnings == (
        "3 of 5 pages read by OCR (p. 1, 2, 3)",
        "read 3 of 5 pages by OCR; the rest were skipped: FOOTNOTE_OCR_MAX_PAGES",
    )
    pages = library.pages(result.doc.doc_id)
    assert [bool(p.text) for p in pages] == [True, True, True, False, False] and result.doc.pages == 5
    assert [(p.done, p.total) for p in seen if p.stage == "ocr"] == [(1, 3), (2, 3), (3, 3)]
    assert [d.warnings for d in library.documents()] == [result.warnings]


def test_blank_pages_do_not_count_against_the_budget() -> None:
    engine = CountingEngine()
    scan = join_pdfs(blank_pdf(3), make_image_pdf(2))
    read = read_pdf(scan, "scan.pdf", ocr=OcrOptions(engine=engine, max_pages=2))
    assert engine.readings == 2 and not any("skipped" in w for w in read.warnings)


def test_each_page_gets_at_most_its_time_and_a_page_given_up_on_names_the_setting() -> None:
    engine = CountingEngine(gave_up=True)
    mixed = join_pdfs(make_pdf([HARBOUR]), make_image_pdf(2))
    read = read_pdf(mixed, "mixed.pdf", ocr=OcrOptions(engine=engine, page_timeout_s=7.0))
    assert engine.readings == 2  # one reading each: the time of a page given up on is not spent again
    assert all(t is not None and 0 < t <= 7.0 for t in engine.timeouts)
    assert read.warnings == (
        "OCR gave up on 2 pages, too noisy to read in time (p. 2, 3): FOOTNOTE_OCR_PAGE_TIMEOUT_S",
    )
    assert "harbour master" in read.pages[0].text and read.pages[1].text == read.pages[2].text == ""


class Unsure(CountingEngine):
    """Reads the sentence at confidence 0.7 (so the page is read again, enlarged), then gives up."""

    def read_turned(self, picture, rotation: int, timeout_s: float | None = None) -> OcrResult:
        found = super().read_turned(picture, rotation, timeout_s)
        if self.readings > 1:
            return OcrResult((), rotation, gave_up=True)
        return OcrResult(tuple(replace(w, confidence=0.7) for w in found.words), rotation)


def test_a_first_reading_is_kept_when_its_retry_runs_out_of_time() -> None:
    engine = Unsure()
    read = read_pdf(make_image_pdf(1), "unsure.pdf", ocr=OcrOptions(engine=engine))
    assert engine.readings == 2 and " ".join(read.pages[0].text.split()) == SENTENCE
    assert read.pages[0].ocr.confidence == 0.7 and read.warnings == ("1 of 1 pages read by OCR (p. 1)",)


def test_the_settings_reach_the_ocr_options() -> None:
    from settings import load_settings
    from wiring import ocr_options

    options = ocr_options(load_settings(ocr_max_pages=7, ocr_page_timeout_s=9.5))
    assert (options.max_pages, options.page_timeout_s, options.engine) == (7, 9.5, None)
