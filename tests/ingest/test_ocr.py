"""Scanned pages through the whole path with the real Tesseract: fpdf2 text PDFs scanned into
image-only PDFs (bench/scans.py), ingested with OCR on, answered, and highlighted where the cited
words truly are (the source PDF's character boxes); turned, blank, noisy and mojibake pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.embeddings import HashEmbeddings
from ingest.errors import NoTextFound, NoTextLayer
from ingest.local.library import Library
from ingest.pdf.reader import read_pdf
from ingest.pdf.render import draw_page
from ingest.types import OcrOptions
from rag.answering.answer import stream_answer
from rag.answering.events import Done
from rag.offline.extractive import ExtractiveAnswerer
from rag.questions.read import read_question
from rag.retrieval.retrieve import search_evidence
from tests.ingest.scans import HARBOUR, ORCHARD, covered, join_pdfs, scanned, text_pdf, turned, word_boxes

NAME = "fake:hash:384"
OCR = OcrOptions()  # the app's defaults: auto, English, 150 dpi


def open_library(folder: Path, ocr: OcrOptions = OCR) -> Library:
    return Library.open(
        folder, HashEmbeddings(), embedding_name=NAME, chunk_size=400, chunk_overlap=40, ocr=ocr
    )


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory):
    """The harbour text PDF, its 200 dpi scan, and a library holding the scan (read once)."""
    source, scan = scanned(HARBOUR)
    library = open_library(tmp_path_factory.mktemp("harbour"))
    seen = []
    result = library.add_pdf(scan, "harbour-scan.pdf", progress=seen.append)
    return source, scan, library, result, seen


def _answer(library: Library, text: str):
    question = read_question(text)
    retrieval = search_evidence(library, question, k=3)
    events = stream_answer(
        question,
        retrieval,
        chat_model=ExtractiveAnswerer(embeddings=library.embeddings),
        provider_label="offline extractive mode",
        check_relevance=False,
    )
    return next(e.answer for e in events if isinstance(e, Done))


def _highlight_coverage(library: Library, source: bytes, doc_id: str, turn: int = 0) -> list[float]:
    """For each word of 5+ letters printed once on the source page and read exactly by OCR: how much
    of its true box the highlight of its characters covers on the scanned page's picture."""
    page = library.pages(doc_id)[0]
    ocr = library.page_ocr(doc_id, 0)
    shares = []
    for word in {w.strip(".,") for w in page.text.split()}:
        true = word_boxes(source, 0, word)
        start = page.text.find(word)
        if len(word) < 5 or len(true) != 1 or page.text.count(word) != 1:
            continue
        picture = draw_page(library.pdf_bytes(doc_id), 0, [(start, start + len(word))], ocr_boxes=ocr.boxes)
        (left, top, right, bottom), (width, height) = picture.boxes[0], picture.size
        drawn = (left / width, top / height, right / width, bottom / height)
        shares.append(covered(turned(true[0], turn), drawn))
    return shares


def test_a_scan_is_read_answered_and_highlighted_on_the_cited_words(harbour) -> None:
    source, _scan, library, result, seen = harbour
    assert result.status == "ok" and result.warnings == ("1 of 1 pages read by OCR (p. 1)",)
    page = library.pages(result.doc.doc_id)[0]
    assert (
        "forty seven trawlers" in " ".join(page.text.split())
        and page.ocr is not None
        and page.ocr.confidence > 0.8
    )
    assert [(p.done, p.total) for p in seen if p.stage == "ocr"] == [(1, 1)]  # "Reading page 1 of 1 by OCR"
    answer = _answer(library, "How many trawlers were at anchor on the morning of the storm?")
    assert answer.footnotes, answer.text
    evidence = answer.footnotes[0].evidence
    assert "trawlers" in evidence.text and evidence.ocr_confidence == page.ocr.confidence
    shares = _highlight_coverage(library, source, result.doc.doc_id)
    assert len(shares) >= 8 and min(shares) >= 0.5, shares


def test_ocr_pages_and_their_confidence_survive_a_reindex(harbour) -> None:
    _source, _scan, library, result, _seen = harbour
    before = library.chunks()
    library.reindex_all()
    after = library.chunks()
    assert [c.locators for c in after] == [c.locators for c in before]
    assert all(loc.ocr_confidence and loc.ocr_confidence > 0.8 for c in after for loc in c.locators)
    assert library.page_ocr(result.doc.doc_id, 0) == library.pages(result.doc.doc_id)[0].ocr


def test_a_page_turned_90_degrees_is_read_upright_and_highlighted_in_place(tmp_path: Path) -> None:
    source, scan = scanned(ORCHARD, turn=90)
    library = open_library(tmp_path)
    result = library.add_pdf(scan, "orchard-sideways.pdf")
    page = library.pages(result.doc.doc_id)[0]
    assert "late apples before the first frost" in " ".join(page.text.split()), page.text
    shares = _highlight_coverage(library, source, result.doc.doc_id, turn=90)
    assert len(shares) >= 8 and min(shares) >= 0.5, shares


def test_mixed_document_keeps_every_page_it_can_and_names_the_others(tmp_path: Path) -> None:
    text_page = text_pdf(HARBOUR)
    _, orchard = scanned(ORCHARD)
    _, blank = scanned("")
    _, poor = scanned(HARBOUR, dpi=100, noise=0.02, blur=0.6)
    library = open_library(tmp_path)
    result = library.add_pdf(join_pdfs(text_page, orchard, blank, poor), "mixed.pdf")
    assert result.warnings == ("2 of 4 pages read by OCR (p. 2, 4)", "page 3: no text found by OCR")
    pages = library.pages(result.doc.doc_id)
    assert pages[0].ocr is None and "forty seven trawlers" in " ".join(pages[0].text.split())  # text layer
    assert "late apples" in pages[1].text and pages[2].text == "" and pages[2].ocr is None
    assert "trawlers" in pages[3].text and pages[3].ocr.confidence < pages[1].ocr.confidence
    cited = {loc.page_index for c in library.chunks() for loc in c.locators}
    assert cited == {0, 1, 3}


def test_tesseract_reads_up_to_the_budget_and_the_document_keeps_what_it_read(tmp_path: Path) -> None:
    _, scan = scanned(HARBOUR, ORCHARD)
    result = open_library(tmp_path, OcrOptions(max_pages=1)).add_pdf(scan, "two-scanned.pdf")
    assert result.warnings == (
        "1 of 2 pages read by OCR (p. 1)",
        "read 1 of 2 pages by OCR; the rest were skipped: FOOTNOTE_OCR_MAX_PAGES",
    )
    assert result.doc.pages == 2 and result.chunks >= 1


def test_a_scan_with_no_text_anywhere_is_refused_page_by_page(tmp_path: Path) -> None:
    _, blank = scanned("", "")
    with pytest.raises(NoTextFound) as caught:
        open_library(tmp_path).add_pdf(blank, "blank.pdf")
    assert str(caught.value) == (
        "blank.pdf: has no text layer, and OCR found no text on its pages "
        "(page 1: no text found by OCR; page 2: no text found by OCR)"
    )


def test_with_ocr_off_a_scan_gets_todays_message(tmp_path: Path) -> None:
    _, scan = scanned(HARBOUR)
    with pytest.raises(NoTextLayer) as caught:
        open_library(tmp_path, OcrOptions(mode="off")).add_pdf(scan, "scan.pdf")
    assert not isinstance(caught.value, NoTextFound)
    assert str(caught.value) == "scan.pdf: has no text layer (scanned or image-only; OCR is not done)"


def test_a_mojibake_text_layer_is_replaced_by_what_ocr_reads() -> None:
    from bench.text_layer import BREAKS, DEJAVU, break_maps

    if not DEJAVU.exists():
        pytest.skip(f"no {DEJAVU} to make a CID-font PDF with")
    from fpdf import FPDF

    pdf = FPDF(format=(148, 210))
    pdf.add_font("DejaVu", fname=str(DEJAVU))
    pdf.set_font("DejaVu", size=15)
    pdf.add_page()
    pdf.multi_cell(0, 9, HARBOUR)
    broken = break_maps(bytes(pdf.output()), BREAKS["map into accented capitals"])
    assert "harbour" not in read_pdf(broken, "broken.pdf").pages[0].text  # mojibake, read without error
    read = read_pdf(broken, "broken.pdf", ocr=OCR)
    assert "harbour master recorded forty seven trawlers" in " ".join(read.pages[0].text.split())
    assert read.warnings == ("1 of 1 pages read by OCR (p. 1)",)
