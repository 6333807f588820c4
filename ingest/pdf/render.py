"""Page pictures with a passage highlighted, from the character offsets a chunk's locator stores:
through pdfium's character boxes on a text page, through the stored word boxes on a page read by
OCR (``ocr_boxes``: its text is not the PDF's, so pdfium knows nothing of its characters)."""

from __future__ import annotations

import ctypes
import functools
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, ImageDraw

from ingest.pdf.pdfium_guard import PDFIUM_LOCK
from ingest.types import OcrBox

HIGHLIGHT_RGBA = (255, 214, 0, 110)  # translucent yellow: the words stay readable underneath
FOCUS_RGBA = (255, 140, 0, 150)  # the cited passage: a stronger orange over the chunk's yellow
PAD_PX = 2

PixelBox = tuple[int, int, int, int]  # left, top, right, bottom in the picture's pixels


@dataclass(frozen=True)
class PagePicture:
    """A rendered page (an RGB picture), its size in pixels, and where its highlights were drawn."""

    image: Image.Image = field(repr=False, compare=False)  # never modified once drawn
    size: tuple[int, int]
    boxes: tuple[PixelBox, ...]  # the highlighted characters (the chunk)
    focus_boxes: tuple[PixelBox, ...] = ()  # the cited passage, drawn more strongly

    @functools.cached_property
    def png(self) -> bytes:
        """The page as PNG, encoded on first use: the side panel takes the picture itself and
        encodes it as JPEG (components/panel/picture.py), so it never pays for a PNG."""
        out = io.BytesIO()
        self.image.save(out, format="PNG")
        return out.getvalue()


def draw_page(
    pdf_bytes: bytes,
    page_index: int,
    highlights: Iterable[tuple[int, int]] = (),
    focus: Iterable[tuple[int, int]] = (),
    scale: float = 1.5,
    password: str | None = None,
    ocr_boxes: Sequence[OcrBox] | None = None,
) -> PagePicture:
    """One page with translucent boxes over the characters [start, end) of each highlight, and
    stronger ones over each focus range; the boxes are returned, so nobody has to find them again.
    ``ocr_boxes``: the page was read by OCR, and these word boxes place its characters."""
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
                if ocr_boxes is not None:
                    boxes = ocr_highlight_boxes(ocr_boxes, image.size, list(highlights))
                    focus_boxes = ocr_highlight_boxes(ocr_boxes, image.size, list(focus))
                else:
                    boxes = _highlight_boxes(page, image.size, list(highlights))
                    focus_boxes = _highlight_boxes(page, image.size, list(focus))
            finally:
                page.close()
        finally:
            pdf.close()
    if boxes or focus_boxes:
        overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(overlay)
        for box in boxes:
            draw.rectangle(box, fill=HIGHLIGHT_RGBA)
        for box in focus_boxes:  # drawn over the chunk's boxes, replacing their colour there
            draw.rectangle(box, fill=FOCUS_RGBA)
        image = Image.alpha_composite(image, overlay)
    return PagePicture(image.convert("RGB"), image.size, tuple(boxes), tuple(focus_boxes))


def render_page(
    pdf_bytes: bytes,
    page_index: int,
    highlights: Iterable[tuple[int, int]] = (),
    scale: float = 1.5,
    password: str | None = None,
) -> bytes:
    """PNG of one page with translucent boxes over the characters [start, end) of each highlight."""
    return draw_page(pdf_bytes, page_index, highlights, scale=scale, password=password).png


def _rects(textpage: pdfium.PdfTextPage, start: int, end: int) -> list[tuple[float, float, float, float]]:
    start = max(0, start)
    end = min(end, textpage.count_chars())
    if end <= start:
        return []
    count = textpage.count_rects(start, end - start)
    return [textpage.get_rect(i) for i in range(count)]


def _highlight_boxes(
    page: pdfium.PdfPage, size: tuple[int, int], highlights: list[tuple[int, int]]
) -> list[PixelBox]:
    if not highlights:
        return []
    textpage = page.get_textpage()
    try:
        rects = [r for start, end in highlights for r in _rects(textpage, start, end)]
    finally:
        textpage.close()
    return [_to_pixels(page, size, rect) for rect in rects]


def ocr_highlight_boxes(
    words: Sequence[OcrBox], size: tuple[int, int], highlights: list[tuple[int, int]]
) -> list[PixelBox]:
    """Pixel boxes over the OCR words that the character ranges touch, one per run of such words
    on a line (as pdfium gives one rectangle per line of a text page)."""
    width, height = size
    found: list[PixelBox] = []
    for start, end in highlights:
        line: list[OcrBox] = []
        for word in words:
            if word.char_end <= start or word.char_start >= end:
                continue
            if line and not _same_line(line[-1], word):
                found.append(_span_px(line, width, height))
                line = []
            line.append(word)
        if line:
            found.append(_span_px(line, width, height))
    return found


def _same_line(a: OcrBox, b: OcrBox) -> bool:
    """b follows a on its line: to its right, and overlapping it by half the shorter height."""
    overlap = min(a.bottom, b.bottom) - max(a.top, b.top)
    return b.left >= a.left and overlap >= 0.5 * min(a.bottom - a.top, b.bottom - b.top)


def _span_px(words: list[OcrBox], width: int, height: int) -> PixelBox:
    return (
        round(min(w.left for w in words) * width) - PAD_PX,
        round(min(w.top for w in words) * height) - PAD_PX,
        round(max(w.right for w in words) * width) + PAD_PX,
        round(max(w.bottom for w in words) * height) + PAD_PX,
    )


def _to_pixels(
    page: pdfium.PdfPage, size: tuple[int, int], rect: tuple[float, float, float, float]
) -> PixelBox:
    """Page units to bitmap pixels; pdfium applies the page's rotation and crop box."""
    left, bottom, right, top = rect
    xs, ys = [], []
    for x, y in ((left, bottom), (right, top)):
        dx, dy = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDF_PageToDevice(page, 0, 0, size[0], size[1], 0, x, y, dx, dy)
        xs.append(dx.value)
        ys.append(dy.value)
    return (min(xs) - PAD_PX, min(ys) - PAD_PX, max(xs) + PAD_PX, max(ys) + PAD_PX)
