"""Pages whose text layer is empty or unusable (``ingest.pdf.text_layer``), rendered and read by OCR.

A blank page (nothing drawn on it: ``ingest.pdf.page_text``) is never rendered or read. A document
reads at most ``OcrOptions.max_pages`` pages by OCR (the first ones; the rest are kept empty and
counted), each within ``OcrOptions.page_timeout_s`` for all its readings. Each page is rendered by
pypdfium2 (under the pdfium lock, a few milliseconds) and read by Tesseract outside it, so page
pictures for other sessions are never held up by a long read.
A page on which OCR finds nothing, or only noise, keeps no text and is reported by its printed
label ("page 7: no text found by OCR"): it is never indexed as garbage. A page read upside down
or sideways is turned the right way up when the first reading is noise.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import pypdfium2 as pdfium
from PIL import Image

from ingest.pdf import ocr
from ingest.pdf.pdfium_guard import PDFIUM_LOCK
from ingest.pdf.text_layer import usable
from ingest.types import OcrOptions, Page, PageOcr

# A page is kept when OCR read at least MIN_WORDS words of two or more letters or digits with a
# confidence of MIN_WORD_CONFIDENCE or more, and its confidence (words weighted by length) is at
# least MIN_PAGE_CONFIDENCE: a line between poor scans worth keeping and pages read the wrong way
# up, which are noise (bench/README.md, "How the rules were found" and "Kept or no text found").
MIN_WORDS = 3
MIN_WORD_CONFIDENCE = 0.6
MIN_PAGE_CONFIDENCE = 0.45
# Below this page confidence the page is read again at twice the resolution: a clean scan reads
# 0.95 at 150 dpi, and a 100 dpi A5 scan blurred and speckled read only its last line at 150 dpi
# and all of it at 300 (tests/ingest/test_ocr.py's mixed document).
RETRY_BELOW = 0.8
MAX_SIDE_PX = 5000  # a poster-sized page is read at a lower resolution rather than in gigapixels
OcrProgress = Callable[[int, int], None]  # (the n-th page OCR reads, 1-based; how many it reads)


@dataclass(frozen=True)
class OcrOutcome:
    """The pages after OCR, and which were read, found empty, or given up on (by printed label)."""

    pages: list[Page]
    read: tuple[str, ...]  # labels of the pages read by OCR
    nothing: tuple[str, ...]  # labels of the pages where OCR found no text
    gave_up: tuple[str, ...] = ()  # labels of the pages OCR gave up on (past the engine's timeout)
    blank: tuple[str, ...] = ()  # labels of the pages with nothing drawn on them (never rendered)
    skipped: tuple[str, ...] = ()  # labels of the pages past the budget (OcrOptions.max_pages)

    @property
    def tried(self) -> int:
        """How many pages OCR read (with or without finding text)."""
        return len(self.read) + len(self.nothing) + len(self.gave_up)


@functools.cache
def reader_for(languages: str, data_dir: str | None) -> ocr.TesseractReader:
    """One reader per language set and data folder in this process (it loads its model on first use)."""
    return ocr.TesseractReader(languages, data_dir)


def read_unusable(
    data: bytes,
    password: str | None,
    pages: Sequence[Page],
    options: OcrOptions,
    progress: OcrProgress,
    drawn: Sequence[bool] | None = None,
) -> OcrOutcome:
    """Read by OCR the first ``options.max_pages`` pages whose text layer is unusable, but for blank
    ones (``drawn`` False: nothing on the page); OcrUnavailable when the engine cannot start."""
    reader = options.engine or reader_for(options.languages, options.data_dir)
    drawn = [True] * len(pages) if drawn is None else drawn
    wanted = [n for n, (page, ink) in enumerate(zip(pages, drawn)) if ink and not usable(page.text)]
    chosen, skipped = wanted[: options.max_pages], wanted[options.max_pages :]
    out = list(pages)
    for position in skipped:  # past the budget: kept empty, never indexed as garbage
        out[position] = replace(pages[position], text="", ocr=None)
    found: dict[str, list[str]] = {"read": [], "nothing": [], "gave_up": []}
    for count, position in enumerate(chosen, 1):
        progress(count, len(chosen))
        out[position], kind = _read_one(reader, data, password, pages[position], options)
        found[kind].append(pages[position].label)
    return OcrOutcome(
        out,
        tuple(found["read"]),
        tuple(found["nothing"]),
        tuple(found["gave_up"]),
        tuple(page.label for page, ink in zip(pages, drawn) if not ink),
        tuple(pages[n].label for n in skipped),
    )


def _read_one(
    reader: ocr.OcrEngine, data: bytes, password: str | None, page: Page, options: OcrOptions
) -> tuple[Page, str]:
    """The page as OCR read it, and how: "read", "nothing" (found only noise) or "gave_up"."""
    try:
        found = read_page(
            reader, functools.partial(render, data, password, page.index), options.dpi, options.page_timeout_s
        )
    except GaveUp:
        return replace(page, text="", ocr=None), "gave_up"
    if found is None:
        return replace(page, text="", ocr=None), "nothing"
    text, page_ocr = found
    return replace(page, text=text, ocr=page_ocr), "read"


def render(data: bytes, password: str | None, index: int, dpi: int) -> Image.Image:
    """One page as a picture at ``dpi`` (at most MAX_SIDE_PX on its longer side), rotation applied."""
    with PDFIUM_LOCK:
        pdf = pdfium.PdfDocument(data, password=password)
        try:
            page = pdf[index]
            try:
                width, height = page.get_size()
                scale = min(dpi / 72, MAX_SIDE_PX / max(width, height, 1))
                bitmap = page.render(scale=scale, grayscale=True)
                try:
                    return bitmap.to_pil().convert("L")
                finally:
                    bitmap.close()
            finally:
                page.close()
        finally:
            pdf.close()


class GaveUp(Exception):
    """Tesseract stopped reading a page at its timeout, or the page's time ran out (pages of dense
    noise can take minutes)."""


def read_page(
    reader: ocr.OcrEngine, draw: Callable[[int], Image.Image], dpi: int, timeout_s: float | None = None
) -> tuple[str, PageOcr] | None:
    """The page read at ``dpi``, and again at twice that when the first reading was unsure (a poor
    low-resolution scan reads better enlarged), keeping the more confident reading; None when both
    found only noise; GaveUp when Tesseract stopped at its timeout or ``timeout_s`` for all the
    page's readings ran out with nothing read (a first reading cut short on its retry is kept)."""
    until = None if timeout_s is None else time.monotonic() + timeout_s
    found = read_picture(reader, draw(dpi), until)
    if found is None or found[1].confidence < RETRY_BELOW:
        try:
            again = read_picture(reader, draw(dpi * 2), until)
        except GaveUp:
            if found is None:
                raise
            return found
        if again is not None and (found is None or again[1].confidence > found[1].confidence):
            found = again
    return found


def read_picture(
    reader: ocr.OcrEngine, picture: Image.Image, until: float | None = None
) -> tuple[str, PageOcr] | None:
    """The page text and its OCR record, or None when OCR found only noise (even turned upright);
    GaveUp when Tesseract stopped at its timeout or the time ``until`` (time.monotonic) came."""
    result = reader.read_turned(picture, 0, _time_left(until))
    if result.gave_up:
        raise GaveUp
    if not looks_like_text(result.words):
        turn = reader.orientation(picture)
        if not turn:
            return None
        result = reader.read_turned(picture, turn, _time_left(until))
        if result.gave_up:
            raise GaveUp
        if not looks_like_text(result.words):
            return None
    text, boxes = ocr.page_text(result.words)
    return text, PageOcr(reader.name, round(page_confidence(result.words), 3), boxes)


def _time_left(until: float | None) -> float | None:
    """Seconds left for a page's readings (None: the engine's own limit); GaveUp when none are."""
    if until is None:
        return None
    left = until - time.monotonic()
    if left <= 0:
        raise GaveUp
    return left


def page_confidence(words: Sequence[ocr.OcrWord]) -> float:
    """The words' mean confidence, each weighted by its length (0 for no words)."""
    total = sum(len(w.text) for w in words)
    return sum(w.confidence * len(w.text) for w in words) / total if total else 0.0


def looks_like_text(words: Sequence[ocr.OcrWord]) -> bool:
    """Enough confident words and a confident page (thresholds above, with what they were measured on)."""
    good = sum(1 for w in words if w.confidence >= MIN_WORD_CONFIDENCE and _alnum(w.text) >= 2)
    return good >= MIN_WORDS and page_confidence(words) >= MIN_PAGE_CONFIDENCE


def _alnum(text: str) -> int:
    return sum(1 for c in text if c.isalnum())
