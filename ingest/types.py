"""The ingestion vocabulary: documents, pages, page locators and chunks (frozen, content-derived)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PageLocator:
    """Where a piece of text sits on one page: 0-based index to navigate, printed label to show,
    and character offsets [char_start, char_end) into that page's extracted text."""

    page_index: int
    page_label: str
    char_start: int
    char_end: int
    # Set when the page was read by OCR: the engine's confidence for the page (0-1).
    ocr_confidence: float | None = None


@dataclass(frozen=True)
class OcrBox:
    """Where one OCR word sits: its characters [char_start, char_end) in the page text, and its box
    (left, top, right, bottom) as fractions of the page picture's width and height."""

    char_start: int
    char_end: int
    left: float
    top: float
    right: float
    bottom: float


@dataclass(frozen=True)
class PageOcr:
    """How a page without a usable text layer was read: the engine, its confidence for the page
    (0-1, the mean of its words' weighted by length) and every word's box."""

    engine: str
    confidence: float
    boxes: tuple[OcrBox, ...] = ()


@dataclass(frozen=True)
class Page:
    """One page's extracted text (read by OCR when ``ocr`` is set)."""

    index: int
    label: str
    text: str
    ocr: PageOcr | None = None


@dataclass(frozen=True)
class Chunk:
    """A piece of a document's text with every page it touches (one locator per page, in order)."""

    chunk_id: str
    doc_id: str
    ordinal: int
    text: str
    locators: tuple[PageLocator, ...]
    # What a reader needs to use the text that is not in it: the section or table title and the
    # column header line, from earlier on the page or an earlier page. Never part of ``text``, so
    # the locators and the highlight stay exact.
    context: str = ""

    @property
    def short_id(self) -> str:
        """The first 7 hex characters of the chunk id (collisions are handled per answer)."""
        return self.chunk_id[:7]

    @property
    def first(self) -> PageLocator:
        return self.locators[0]

    @property
    def last(self) -> PageLocator:
        return self.locators[-1]


@dataclass(frozen=True)
class Document:
    """A PDF in the library."""

    doc_id: str
    title: str
    file_name: str
    pages: int
    size_bytes: int
    chunks: int = 0
    added_at: str = ""
    warnings: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class IngestProgress:
    """Where an ingest is: stage is "read", "chunk", "embed" or "index", done of total units; or
    "ocr": the ``done``-th of the ``total`` pages OCR reads is being read."""

    file_name: str
    stage: str
    done: int
    total: int


ProgressFn = Callable[[IngestProgress], None]


@dataclass(frozen=True)
class OcrOptions:
    """Whether pages without a usable text layer are read by OCR ("auto") or left out ("off"), in
    which Tesseract languages ("eng", "eng+deu"), from which folder of language data (None: the
    one pip installed), at what resolution (dpi) pages are rendered for it, and its budget: how
    many pages of one document it reads, and how long it may spend on one page."""

    mode: str = "auto"
    languages: str = "eng"
    data_dir: str | None = None
    dpi: int = 150  # settings.py's ocr_dpi says how it was chosen
    max_pages: int = 500  # the budget per document: settings.py's ocr_max_pages says why
    page_timeout_s: float = 60.0  # all the readings of one page: settings.py's ocr_page_timeout_s
    # An engine in place of Tesseract (ingest.pdf.ocr.OcrEngine), as Library.open takes an
    # embeddings object: tests pass a fake one; None is Tesseract for these languages.
    engine: object | None = field(default=None, compare=False, repr=False)

    @property
    def enabled(self) -> bool:
        return self.mode == "auto"


OCR_OFF = OcrOptions(mode="off")


@dataclass(frozen=True)
class LibrarySettings:
    """What the index records, and the limits it enforces."""

    embedding_name: str
    chunk_size: int = 1000
    chunk_overlap: int = 150
    max_file_mb: float = 100.0
    max_pages: int = 3000
    batch_size: int = 64  # texts per embedding call, and so per progress report
    ocr: OcrOptions = OCR_OFF  # not recorded: reading scans by OCR or not never changes the index

    def recorded(self) -> dict[str, object]:
        """The settings a library records with its index and checks on every open and write."""
        return {
            "embedding_name": self.embedding_name,
            "chunk_size": self.chunk_size,
            "chunk_overlap": self.chunk_overlap,
        }


@dataclass(frozen=True)
class IngestResult:
    """The outcome for one file: status "ok" or "skipped" (errors raise IngestError)."""

    status: str
    doc: Document
    chunks: int
    warnings: tuple[str, ...] = field(default=())
    message: str = ""
