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


@dataclass(frozen=True)
class Page:
    """One page's extracted text."""

    index: int
    label: str
    text: str


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
    """Where an ingest is: stage is "read", "chunk", "embed" or "index"; done of total units."""

    file_name: str
    stage: str
    done: int
    total: int


ProgressFn = Callable[[IngestProgress], None]


@dataclass(frozen=True)
class LibrarySettings:
    """What the index records, and the limits it enforces."""

    embedding_name: str
    chunk_size: int = 1000
    chunk_overlap: int = 150
    max_file_mb: float = 100.0
    max_pages: int = 3000
    batch_size: int = 64  # texts per embedding call, and so per progress report

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
