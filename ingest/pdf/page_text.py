"""One page's text from pdfium, exactly one character per pdfium character index (the rules are in
``ingest.pdf.reader``'s docstring), and whether anything is drawn on the page at all: what the
reader and the page pool's helper processes (``ingest.pdf.page_pool``) both read pages with.

A page with no page objects (text, images, paths, forms) in its content stream and no annotations
is blank: known from the parsed page, without rendering it, so it is never sent to OCR (a
2,000-page PDF of pypdf's ``add_blank_page`` pages is judged in a fraction of a second)."""

from __future__ import annotations

import ctypes
import re

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from ingest.pdf.line_styles import line_rows
from ingest.text import SOFT_HYPHEN, valid_in_place

_REPLACE = {"\r": " ", "\x02": SOFT_HYPHEN, "\ufffe": SOFT_HYPHEN}


def page_text(pdf: pdfium.PdfDocument, index: int) -> tuple[str, bool]:
    """One page's text, one character per pdfium character index (see the module docstring), and
    whether anything is drawn on it (False: a blank page)."""
    text, drawn, _ = page_read(pdf, index, lines=False)
    return text, drawn


def page_read(pdf: pdfium.PdfDocument, index: int, *, lines: bool = True) -> tuple[str, bool, list]:
    """page_text's text and blankness, and with ``lines`` the type of each line of text
    (ingest.pdf.line_styles.line_rows: what the layout's headings are read from), while the page is open."""
    page = pdf[index]
    drawn = bool(pdfium_c.FPDFPage_CountObjects(page) or pdfium_c.FPDFPage_GetAnnotCount(page))
    textpage = page.get_textpage()
    try:
        text = _text_at_once(textpage)
        if text is None:  # a character outside the BMP: one UTF-16 unit per index, pairs made whole
            get = pdfium_c.FPDFText_GetUnicode
            text = valid_in_place("".join(chr(get(textpage, i)) for i in range(textpage.count_chars())))
        text = text.translate(_CLEAN)
        rows = line_rows(textpage, text) if lines else []
    finally:
        textpage.close()
        page.close()
    return text, drawn, rows


def _text_at_once(textpage: pdfium.PdfTextPage) -> str | None:
    """The page's characters in one call (FPDFText_GetText: one UTF-16 unit per character index),
    or None when that does not hold. Asking per character cost 10-20 s on a 549-page 10-K here;
    both ways gave the same text on all 4,779 pages of ../shared/corpus (26 pages fell back)."""
    count = textpage.count_chars()
    buffer = (ctypes.c_ushort * (count + 1))()
    written = pdfium_c.FPDFText_GetText(textpage, 0, count, buffer)
    text = bytes(memoryview(buffer).cast("B")[: 2 * count]).decode("utf-16-le", "surrogatepass")
    if written != count + 1 or len(text) != count or _SURROGATE.search(text):
        return None
    return text


_SURROGATE = re.compile("[\ud800-\udfff]")
# What each character becomes (see the module docstring): every control character (Unicode
# category Cc: U+0000-U+001F and U+007F-U+009F) but newline and tab is a space, with the few of _REPLACE.
_CLEAN = {c: " " for c in [*range(0x20), *range(0x7F, 0xA0)] if chr(c) not in "\n\t"} | {
    ord(k): v for k, v in _REPLACE.items()
}
