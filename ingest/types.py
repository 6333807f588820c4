"""The ingestion vocabulary: documents, pages, page locators and chunks (frozen, content-derived),
and LibraryReader, what the answering core (rag/) reads from a library of them.

LibraryReader is the one contract both backends keep, the local library
(ingest.local.library.Library) and the team library (ingest.team.library.PgLibrary): rag/ types
every library parameter with it and asks a library nothing else, so a read added to one backend
and not the other fails the suite (tests/ingest/test_library_reader.py), not a question in team
mode. A capability only one backend has is still a method on both, and the other says that it
lacks it (``has_lexical_search``, ``cache_dir``); rag then takes its own way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # only named in annotations: the vocabulary imports no model code
    from langchain_core.embeddings import Embeddings


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
    # Where each section path in force on the page begins ("PART I > Item 3. Legal Proceedings";
    # ingest.pdf.sections): (character offset, path), the first at 0 the one the page starts in.
    # Empty when the document's headings were not read or it has none before the page's end.
    sections: tuple[tuple[int, str], ...] = ()

    @property
    def section(self) -> str:
        """The path of the section that covers most of the page ("" for none)."""
        ends = [start for start, _ in self.sections[1:]] + [len(self.text)]
        spans: dict[str, int] = {}
        for (start, path), end in zip(self.sections, ends):
            spans[path] = spans.get(path, 0) + end - start
        return max(spans, key=lambda path: spans[path]) if spans else ""


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
    # The section paths the chunk lies in (ingest.pdf.sections): the one where it starts, then
    # each that begins inside it. Data beside the text, never embedded or searched as words.
    sections: tuple[str, ...] = ()

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
class Heading:
    """A heading of a document, from its outline or its layout (ingest.pdf.sections): its level
    (1 is the top), its title, and where it starts (page index, character offset in its text)."""

    level: int
    title: str
    page_index: int
    char_start: int


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

    @classmethod
    def of(cls, config: LibrarySettings | None, **fields: Any) -> LibrarySettings:
        """An opener's ``config`` (the one wiring.library_settings builds), or one made of its fields
        given as keywords (as tests write them out); never both."""
        if fields and config is not None:
            raise TypeError(f"give config or its fields, not both ({', '.join(sorted(fields))})")
        return cls(**fields) if config is None else config

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


class LibraryReader(Protocol):
    """A library as the answering core reads it: documents, pages, chunks and searches."""

    embeddings: Embeddings  # the model the vectors were made with; questions are embedded with it
    config: LibrarySettings  # what the library records (rag reads its embedding_name)
    open_report: list[str]  # what opening it found (a repair a writer would make), for the CLI

    @property
    def generation(self) -> int:
        """Changes on every add, delete and re-index: what rag keys its caches on."""
        ...

    @property
    def cache_dir(self) -> Path | None:
        """The folder where rag keeps what it derives from the library (BM25 index, each chunk's
        terms, document profiles) for the next process; None when there is none to write in."""
        ...

    @property
    def has_lexical_search(self) -> bool:
        """Whether lexical_search ranks words in the store itself; when False rag builds BM25."""
        ...

    def documents(self) -> list[Document]:
        """Every listed document (searchable, by words at least), in the order added."""
        ...

    def document(self, doc_id: str) -> Document | None:
        """One listed document, or None (gone, or never there)."""
        ...

    def pages(self, doc_id: str) -> list[Page]:
        """A document's pages (text and printed labels)."""
        ...

    def first_pages(self, limit: int) -> dict[str, list[Page]]:
        """The first ``limit`` pages of every listed document, by doc_id, in one read."""
        ...

    def chunks(self, doc_ids: Sequence[str] | None = None) -> list[Chunk]:
        """Chunks of listed documents (or of these), ordered by document and ordinal."""
        ...

    def chunk_count(self) -> int:
        """How many chunks the listed documents have."""
        ...

    def chunk_keys(self) -> list[tuple[str, str, int, int]]:
        """(chunk_id, doc_id, context length, text length) in chunks() order, without the texts."""
        ...

    def chunk_words(self) -> list[tuple[str, str, str, str]]:
        """(chunk_id, doc_id, context, text) in chunks() order, without decoding locators."""
        ...

    def chunk_pages(self, doc_id: str) -> dict[str, int]:
        """Each chunk of a document (by id, in ordinal order) and the page it starts on."""
        ...

    def chunk_sections(self, doc_id: str) -> dict[str, tuple[str, ...]]:
        """Each chunk of a document (by id, in ordinal order) and its section paths (Chunk.sections)."""
        ...

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        """The listed chunks among chunk_ids, by id (deleted ones are missing)."""
        ...

    def search_vector(
        self, vec: Sequence[float], k: int, doc_ids: Sequence[str] | None = None
    ) -> list[tuple[Chunk, float]]:
        """The k chunks closest to a query vector (cosine, best first), optionally within documents."""
        ...

    def lexical_search(
        self, query: str, k: int, doc_ids: Sequence[str] | None = None
    ) -> list[tuple[Chunk, float]] | None:
        """The k chunks whose words best match the query, by the store's own ranking; None when
        the library has none (has_lexical_search is False)."""
        ...

    def vector_progress(self) -> dict[str, float]:
        """Documents searchable by words whose vectors are still being embedded: the share done."""
        ...
