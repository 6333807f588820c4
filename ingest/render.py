"""Page pictures with a passage highlighted, from the character offsets a chunk's locator stores."""

from __future__ import annotations

import ctypes
import io
from collections.abc import Iterable

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, ImageDraw

from ingest.pdfium_guard import PDFIUM_LOCK

HIGHLIGHT_RGBA = (255, 214, 0, 110)  # translucent yellow: the words stay readable underneath
PAD_PX = 2


def render_page(
    pdf_bytes: bytes,
    page_index: int,
    highlights: Iterable[tuple[int, int]] = (),
    scale: float = 1.5,
    password: str | None = None,
) -> bytes:
    """PNG of one page with translucent boxes over the characters [start, end) of each highlight."""
    with PDFIUM_LOCK:
        pdf = pdfium.PdfDocument(pdf_bytes, password=password)
        try:
            page = pdf[page_index]
            try:
                bitmap = page.render(scale=scale)
                try:
                    image = bitmap.to_pil().convert("RGBA")  # a copy: the bitmap can go
                finally:
                    bitmap.close()
                boxes = _highlight_boxes(page, image.size, list(highlights))
            finally:
                page.close()
        finally:
            pdf.close()
    if boxes:
        overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(overlay)
        for box in boxes:
            draw.rectangle(box, fill=HIGHLIGHT_RGBA)
        image = Image.alpha_composite(image, overlay)
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG")
    return out.getvalue()


def highlight_rects(pdf_bytes: bytes, page_index: int, char_start: int, char_end: int,
                    password: str | None = None) -> list[tuple[float, float, float, float]]:
    """Text rectangles (left, bottom, right, top in PDF units) covering characters [start, end)."""
    with PDFIUM_LOCK:
        pdf = pdfium.PdfDocument(pdf_bytes, password=password)
        try:
            page = pdf[page_index]
            textpage = page.get_textpage()
            try:
                return _rects(textpage, char_start, char_end)
            finally:
                textpage.close()
                page.close()
        finally:
            pdf.close()


def _rects(textpage: pdfium.PdfTextPage, start: int, end: int) -> list[tuple[float, float, float, float]]:
    start = max(0, start)
    end = min(end, textpage.count_chars())
    if end <= start:
        return []
    count = textpage.count_rects(start, end - start)
    return [textpage.get_rect(i) for i in range(count)]


def _highlight_boxes(page: pdfium.PdfPage, size: tuple[int, int], highlights: list[tuple[int, int]]
                     ) -> list[tuple[int, int, int, int]]:
    if not highlights:
        return []
    textpage = page.get_textpage()
    try:
        rects = [r for start, end in highlights for r in _rects(textpage, start, end)]
    finally:
        textpage.close()
    return [_to_pixels(page, size, rect) for rect in rects]


def _to_pixels(page: pdfium.PdfPage, size: tuple[int, int], rect: tuple[float, float, float, float]
               ) -> tuple[int, int, int, int]:
    """Page units to bitmap pixels; pdfium applies the page's rotation and crop box."""
    left, bottom, right, top = rect
    xs, ys = [], []
    for x, y in ((left, bottom), (right, top)):
        dx, dy = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDF_PageToDevice(page, 0, 0, size[0], size[1], 0, x, y, dx, dy)
        xs.append(dx.value)
        ys.append(dy.value)
    return (min(xs) - PAD_PX, min(ys) - PAD_PX, max(xs) + PAD_PX, max(ys) + PAD_PX)
