"""Page text read in one call per page is exactly what asking pdfium character by character gave
(the 1:1 character-index mapping ingest.pdf.render highlights with), on real PDFs of the corpus."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from ingest.pdf.page_text import _REPLACE, page_text
from tests.ingest.pdfs import long_pages, make_pdf

pytestmark = pytest.mark.corpus


def by_character(pdf: pdfium.PdfDocument, index: int) -> str:
    """The reference: one FPDFText_GetUnicode call per character index, cleaned one by one."""
    page = pdf[index]
    textpage = page.get_textpage()
    try:
        chars = [chr(pdfium_c.FPDFText_GetUnicode(textpage, i)) for i in range(textpage.count_chars())]
    finally:
        textpage.close()
        page.close()

    def clean(char: str) -> str:
        if char in _REPLACE:
            return _REPLACE[char]
        return char if char in "\n\t" or unicodedata.category(char) != "Cc" else " "

    return "".join(clean(c) for c in chars)


def _documents(corpus: Path) -> list[bytes]:
    found = [p.read_bytes() for p in sorted((corpus / "sample-files").rglob("*.pdf"))]
    found += [p.read_bytes() for p in sorted((corpus / "squad-dev" / "pdfs").glob("*.pdf"))]
    return [make_pdf(long_pages(3)), *found]


def test_page_text_in_one_call_matches_character_by_character(corpus: Path) -> None:
    pages = 0
    for data in _documents(corpus):
        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError:  # a password-protected sample: not this test's business
            continue
        try:
            for index in range(len(pdf)):
                text, drawn = page_text(pdf, index)
                assert text == by_character(pdf, index)
                assert drawn or not text  # a page with text is never called blank
                pages += 1
        finally:
            pdf.close()
    assert pages > 100
