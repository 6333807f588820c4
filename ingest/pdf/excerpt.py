"""A few pages of a PDF as a PDF of their own, so a viewer opens right at the cited page."""

from __future__ import annotations

import io

import pypdfium2 as pdfium

from ingest.pdf.pdfium_guard import PDFIUM_LOCK


def excerpt_pages(pdf_bytes: bytes, first: int, last: int) -> bytes:
    """A new PDF holding pages first..last (0-based, inclusive, clamped to the document) of the
    original, copied as they are: text, fonts and vector graphics stay selectable and sharp."""
    with PDFIUM_LOCK:
        src = pdfium.PdfDocument(pdf_bytes)
        out = pdfium.PdfDocument.new()
        try:
            count = len(src)
            if count == 0:
                raise ValueError("the PDF has no pages")
            lo, hi = max(0, min(first, count - 1)), max(0, min(last, count - 1))
            out.import_pages(src, list(range(lo, max(lo, hi) + 1)))
            buffer = io.BytesIO()
            out.save(buffer)
            return buffer.getvalue()
        finally:
            out.close()
            src.close()
