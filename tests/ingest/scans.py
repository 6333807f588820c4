"""Small scanned PDFs for the OCR tests, made from fpdf2 text PDFs by bench/scans.py, and where their
words truly are (the source PDF's character boxes, as fractions of the page)."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from fpdf import FPDF
from pypdf import PdfReader, PdfWriter

from bench.scans import scan_pdf

HARBOUR = (
    "The harbour master recorded forty seven trawlers at anchor on the morning of the storm. "
    "Gale warnings closed the northern channel until the evening tide turned."
)
ORCHARD = (
    "Orchard growers picked the late apples before the first frost arrived. "
    "Cider presses in the valley worked through three nights without a pause."
)

Box = tuple[float, float, float, float]  # left, top, right, bottom as fractions of the page


def text_pdf(*pages: str, size: int = 15) -> bytes:
    """A small text PDF (A5, given in mm: fpdf2 warns about its "A5" name), one string per page, in
    large print so OCR reads it quickly."""
    pdf = FPDF(format=(148, 210))
    pdf.set_font("Helvetica", size=size)
    for text in pages:
        pdf.add_page()
        if text:
            pdf.multi_cell(0, size * 0.6, text)
    return bytes(pdf.output())


def scanned(*pages: str, dpi: int = 200, **options) -> tuple[bytes, bytes]:
    """(the text PDF, its scan as an image-only PDF)."""
    source = text_pdf(*pages)
    return source, scan_pdf(source, dpi, **options)


def join_pdfs(*parts: bytes) -> bytes:
    """The pages of every part, in order, as one PDF."""
    writer = PdfWriter()
    for part in parts:
        for page in PdfReader(io.BytesIO(part)).pages:
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def word_boxes(source: bytes, page_index: int, word: str) -> list[Box]:
    """Every place ``word`` is printed on the source page, as fractions of the page (top-left origin)."""
    pdf = pdfium.PdfDocument(source)
    try:
        page = pdf[page_index]
        width, height = page.get_size()
        textpage = page.get_textpage()
        text = textpage.get_text_range()
        boxes, start = [], text.find(word)
        while start >= 0:
            rects = [textpage.get_charbox(i) for i in range(start, start + len(word))]
            left, bottom = min(r[0] for r in rects), min(r[1] for r in rects)
            right, top = max(r[2] for r in rects), max(r[3] for r in rects)
            boxes.append((left / width, 1 - top / height, right / width, 1 - bottom / height))
            start = text.find(word, start + 1)
        return boxes
    finally:
        pdf.close()


def turned(box: Box, degrees: int) -> Box:
    """Where a box of the page sits once the page is turned ``degrees`` anticlockwise (PIL's rotate)."""
    left, top, right, bottom = box
    if degrees == 90:
        return (top, 1 - right, bottom, 1 - left)
    if degrees == 180:
        return (1 - right, 1 - bottom, 1 - left, 1 - top)
    if degrees == 270:
        return (1 - bottom, left, 1 - top, right)
    return box


def covered(true: Box, drawn: Box) -> float:
    """The share of the true box's area that the drawn box covers."""
    width = min(true[2], drawn[2]) - max(true[0], drawn[0])
    height = min(true[3], drawn[3]) - max(true[1], drawn[1])
    area = (true[2] - true[0]) * (true[3] - true[1])
    return max(0.0, width) * max(0.0, height) / area if area > 0 else 0.0
