"""Read a PDF's pages: pypdf validates and gives title, encryption and labels; pypdfium2 the text.

Page text is exactly one character per pypdfium2 character index, so a chunk's character
offsets are the indexes ``ingest.pdf.render`` highlights. To keep that 1:1 mapping a few pdfium
characters are replaced in place, never removed: the generated line-end ``\\r`` becomes a space,
pdfium's hyphen-at-line-end marker becomes a soft hyphen (U+00AD: invisible, and dropped by
BERT tokenizers, so "recog\\u00adnition" embeds as one word; strip it before lexical
tokenising), or a hyphen where the document prints that compound with one ("long-term":
``ingest.pdf.hyphens``), other control characters become spaces, and a character above U+FFFF (two pdfium
indexes, one per UTF-16 half) becomes itself and a soft hyphen (``ingest.text.valid_in_place``)
(``ingest.pdf.page_text``, which the page pool's helper processes use too). Titles and outline
entries are made valid text too: nothing invalid is ever stored, embedded or searched.

Pages whose text layer is empty or unusable (``ingest.pdf.text_layer``) are read by OCR when the
caller passes ``OcrOptions`` in "auto" mode (``ingest.pdf.ocr_pages``); their text is then what OCR
read, with each word's box, and a page where OCR found nothing is reported by its label. A blank
page (nothing drawn on it) is never read by OCR, and a file of blank pages only is refused at once.
"""

from __future__ import annotations

import io
import logging
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from pypdf import PasswordType, PdfReader

from ingest.errors import (
    BlankPages,
    BrokenPdf,
    EmptyFile,
    NotAPdf,
    NoTextFound,
    NoTextLayer,
    PasswordRequired,
    TooLarge,
)
from ingest.pdf import page_pool
from ingest.pdf.headings import headings_from, page_lines
from ingest.pdf.hyphens import compound_hyphens
from ingest.pdf.ocr import OcrUnavailable
from ingest.pdf.ocr_pages import OcrOutcome, read_unusable
from ingest.pdf.pdfium_guard import PDFIUM_LOCK
from ingest.pdf.sections import Sections, choose, outline_headings, with_sections
from ingest.pdf.text_layer import usable
from ingest.text import valid_text
from ingest.types import Heading, OcrOptions, Page

log = logging.getLogger(__name__)

PagesRead = Callable[[int, int], None]  # (pages read so far, page count)
OcrRead = Callable[[int, int], None]  # (page number being read by OCR, 1-based; page count)
NOTHING_SHOWN = 10  # per-page "no text found by OCR" sentences, before the rest are summarised


@dataclass(frozen=True)
class ReadDocument:
    """A PDF's title, pages (text and printed labels) and warnings about degraded pages."""

    title: str
    pages: list[Page]
    warnings: tuple[str, ...] = field(default=())
    # For a file that needed a password: the same PDF without encryption (same text and char
    # indexes), stored so pages can be rendered later without asking for the password again.
    unlocked: bytes | None = None
    # Its headings as its outline (bookmarks) gives them, and as its layout does; its pages carry
    # the paths of the sections the one chosen (``sections``) makes (ingest.pdf.sections).
    outline: tuple[Heading, ...] = ()
    layout: tuple[Heading, ...] = ()

    @property
    def sections(self) -> Sections:
        """The document's sections: its outline's when it has one, else its layout's."""
        return choose(self.outline, self.layout)


def read_pdf(
    data: bytes,
    file_name: str,
    *,
    password: str | None = None,
    max_bytes: int | None = None,
    max_pages: int | None = None,
    progress: PagesRead | None = None,
    ocr: OcrOptions | None = None,
    ocr_progress: OcrRead | None = None,
) -> ReadDocument:
    """Validate and read a PDF, raising an ``IngestError`` the user can act on; ``progress`` hears
    (pages read, page count) from before the first page on, then after every page; with ``ocr``
    enabled, pages without a usable text layer are read by OCR, ``ocr_progress`` hearing of each."""
    _check_bytes(data, file_name, max_bytes)
    reader = _open_pypdf(data, file_name, password)
    labels = _labels(reader, file_name)
    if max_pages is not None and len(labels) > max_pages:
        raise TooLarge(file_name, f"{len(labels)} pages, the limit is {max_pages}")
    title = _title(reader) or file_name
    needs_password = bool(password) and reader.is_encrypted
    secret = password if needs_password else None
    pages, damaged, unlocked, fit, drawn, rows = _extract_pages(
        data, file_name, secret, labels, progress or (lambda d, t: None)
    )
    if not any(drawn):  # no text and nothing OCR could read: said at once, nothing rendered
        raise BlankPages(file_name, len(pages))
    as_read = pages
    outcome, ocr_warning = None, None
    if ocr is not None and ocr.enabled and not all(fit):
        try:
            outcome = read_unusable(data, secret, pages, ocr, ocr_progress or (lambda n, t: None), drawn)
            pages = outcome.pages
        except OcrUnavailable as exc:  # the text pages are still worth having
            log.warning("%s: OCR unavailable: %s", file_name, exc)
            ocr_warning = f"pages without a usable text layer were not read: {exc}"
    if not any(p.text.strip() for p in pages):
        if outcome is not None:
            raise NoTextFound(file_name, "; ".join(_nothing_found(outcome, len(pages))))
        raise NoTextLayer(file_name, ocr_warning)
    fit = [ok if p.text == r.text else usable(p.text) for p, r, ok in zip(pages, as_read, fit)]  # after OCR
    warnings = _summarise(pages, damaged, outcome, fit) + ([ocr_warning] if ocr_warning else [])
    texts = compound_hyphens([p.text for p in pages])  # "long-/term" stays "long-term" (ingest.pdf.hyphens)
    pages = [p if t == p.text else replace(p, text=t) for p, t in zip(pages, texts)]
    lines = [line for p, r in zip(pages, rows) if p.ocr is None for line in page_lines(p, r)]
    outline, layout = tuple(outline_headings(reader, pages)), tuple(headings_from(lines, len(pages)))
    return ReadDocument(
        title=title,
        pages=with_sections(pages, choose(outline, layout)),
        warnings=tuple(warnings),
        unlocked=unlocked,
        outline=outline,
        layout=layout,
    )


def _check_bytes(data: bytes, file_name: str, max_bytes: int | None) -> None:
    if not data.strip():
        raise EmptyFile(file_name)
    if max_bytes is not None and len(data) > max_bytes:
        raise TooLarge(file_name, f"{len(data) / 1e6:.1f} MB, the limit is {max_bytes / 1e6:.1f} MB")
    if b"%PDF-" not in data[:1024]:
        raise NotAPdf(file_name)


def _open_pypdf(data: bytes, file_name: str, password: str | None) -> PdfReader:
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        # Empty user password (common: RC4/AES "no-copy" files) opens without asking.
        if reader.is_encrypted and reader.decrypt(password or "") == PasswordType.NOT_DECRYPTED:
            raise PasswordRequired(file_name, wrong_password=bool(password))
        return reader
    except PasswordRequired:
        raise
    except Exception as exc:  # pypdf raises many types on damaged input
        raise BrokenPdf(file_name, _short(exc)) from exc


def _labels(reader: PdfReader, file_name: str) -> list[str]:
    try:
        count = len(reader.pages)
    except Exception as exc:
        raise BrokenPdf(file_name, _short(exc)) from exc
    if count == 0:
        raise BrokenPdf(file_name, "it has no pages")
    try:
        labels = list(reader.page_labels)
    except Exception as exc:  # a bad /PageLabels tree only costs the printed labels
        log.warning("%s: page labels unreadable (%s); using page numbers", file_name, exc)
        labels = []
    if len(labels) != count:
        labels = [str(i + 1) for i in range(count)]
    return [label or str(i + 1) for i, label in enumerate(labels)]


def _title(reader: PdfReader) -> str:
    try:
        title = reader.metadata.title if reader.metadata else None
    except Exception:  # unreadable metadata: fall back to the file name
        return ""
    if not title:
        return ""
    visible = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in valid_text(str(title)))
    return " ".join(visible.split())


def _extract_pages(
    data: bytes, file_name: str, password: str | None, labels: list[str], progress: PagesRead
) -> tuple[list[Page], list[str], bytes | None, list[bool], list[bool], list[list]]:
    """The pages' text layers, the labels of pages that could not be read, the unlocked copy,
    whether each page's text layer is usable (ingest.pdf.text_layer), whether anything is drawn
    on each (ingest.pdf.page_text) and the type of each's lines (ingest.pdf.line_styles.line_rows).
    A long file is read in worker processes (ingest.pdf.page_pool), with the same result."""
    progress(0, len(labels))  # before waiting for the lock: the page count is already known
    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(data, password=password)
        except pdfium.PdfiumError as exc:
            raise BrokenPdf(file_name, _short(exc)) from exc
        try:
            count = len(pdf)
            if count != len(labels):
                log.warning("%s: pypdf sees %d pages, pdfium %d", file_name, len(labels), count)
                labels = [labels[i] if i < len(labels) else str(i + 1) for i in range(count)]
            read = None if page_pool.worth_it(count) else _read_here(pdf, count, progress)
            unlocked = _without_security(pdf) if password else None
        finally:
            pdf.close()
    if read is None:
        read = page_pool.read_pages(data, password, count, lambda done: progress(done, count))
    if read is None:  # the pool failed: read here, as short files are
        read = _read_again_here(data, password, count, progress)
    pages, damaged = [], []
    for index, (label, (text, error, _, _, _)) in enumerate(zip(labels, read)):
        if error is not None:  # page-level damage: keep the page, empty
            log.warning("%s: page %s unreadable: %s", file_name, label, error)
            damaged.append(label)
        pages.append(Page(index=index, label=label, text=text))
    return pages, damaged, unlocked, [r[2] for r in read], [r[3] for r in read], [r[4] for r in read]


def _read_here(pdf: pdfium.PdfDocument, count: int, progress: PagesRead) -> list[page_pool.PageRead]:
    """Every page's text, or its error, in this process (the caller holds the PDFium lock)."""
    read: list[page_pool.PageRead] = []
    for index in range(count):
        read.append(page_pool.read_page(pdf, index))  # page-level damage: reported by the caller
        progress(index + 1, count)
    return read


def _read_again_here(
    data: bytes, password: str | None, count: int, progress: PagesRead
) -> list[page_pool.PageRead]:
    with PDFIUM_LOCK:
        pdf = pdfium.PdfDocument(data, password=password)
        try:
            return _read_here(pdf, count, progress)
        finally:
            pdf.close()


def _without_security(pdf: pdfium.PdfDocument) -> bytes:
    out = io.BytesIO()
    pdf.save(out, flags=pdfium_c.FPDF_REMOVE_SECURITY)
    return out.getvalue()


def _looks_garbled(text: str) -> bool:
    """Text that is there but unusable (mojibake; ingest.pdf.text_layer)."""
    return bool(text.strip()) and not usable(text)


def _summarise(
    pages: list[Page], damaged: list[str], outcome: OcrOutcome | None, fit: list[bool]
) -> list[str]:
    warnings = []
    if outcome is not None and outcome.read:
        warnings.append(
            f"{len(outcome.read)} of {len(pages)} pages read by OCR (p. {_some(list(outcome.read))})"
        )
    if outcome is not None:
        warnings += _nothing_found(outcome, len(pages))
    else:
        empty = [p.label for p in pages if not p.text.strip()]
        if empty:
            warnings.append(f"{len(empty)} of {len(pages)} pages have no text (p. {_some(empty)})")
    if damaged:
        warnings.append(f"{len(damaged)} pages could not be read (p. {_some(damaged)})")
    garbled = [p.label for p, ok in zip(pages, fit) if p.text.strip() and not ok]  # _looks_garbled
    if garbled:
        warnings.append(f"{len(garbled)} pages have mostly unreadable text (p. {_some(garbled)})")
    return warnings


def _nothing_found(outcome: OcrOutcome, total: int) -> list[str]:
    """One sentence per page where OCR found no text; past NOTHING_SHOWN pages, one for the rest;
    one for the blank pages, which OCR never read; one for the pages it gave up on and one for those
    past its budget, each naming the setting that set the limit."""
    labels = outcome.nothing
    found = [f"page {label}: no text found by OCR" for label in labels[:NOTHING_SHOWN]]
    rest = labels[NOTHING_SHOWN:]
    if rest:
        found.append(f"{len(rest)} more pages with no text found by OCR (p. {_some(list(rest))})")
    if outcome.blank:
        found.append(f"{len(outcome.blank)} of {total} pages are blank (p. {_some(list(outcome.blank))})")
    if outcome.gave_up:
        found.append(
            f"OCR gave up on {len(outcome.gave_up)} pages, too noisy to read in time "
            f"(p. {_some(list(outcome.gave_up))}): FOOTNOTE_OCR_PAGE_TIMEOUT_S"
        )
    if outcome.skipped:
        wanted = outcome.tried + len(outcome.skipped)
        found.append(
            f"read {outcome.tried:,} of {wanted:,} pages by OCR; the rest were skipped: FOOTNOTE_OCR_MAX_PAGES"
        )
    return found


def _some(labels: list[str], limit: int = 8) -> str:
    shown = ", ".join(labels[:limit])
    return shown + (f" and {len(labels) - limit} more" if len(labels) > limit else "")


def _short(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."
