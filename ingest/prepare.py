"""Adding a PDF, the part both backends share: read, chunk and embed it in memory, before
anything is written (``prepare_pdf``), and the result of an add that found it stored (``skipped``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from ingest.chunking import chunk_pages
from ingest.context import indexed_text
from ingest.errors import NoTextLayer
from ingest.ids import doc_id_for
from ingest.reader import read_pdf
from ingest.types import Chunk, Document, IngestProgress, IngestResult, LibrarySettings, Page, ProgressFn


@dataclass(frozen=True)
class PreparedPdf:
    """A PDF read, chunked and embedded in memory, before anything is written (any backend)."""

    doc: Document
    pages: list[Page]
    chunks: list[Chunk]
    matrix: np.ndarray
    pdf: bytes  # what is stored: the original, or its decrypted copy when it needed a password


def prepare_pdf(
    config: LibrarySettings,
    embed: Callable[[str, list[str], Callable[[int, int], None]], np.ndarray],
    data: bytes,
    file_name: str,
    password: str | None,
    report: ProgressFn,
) -> PreparedPdf:
    """Read, chunk and embed (context + text) one PDF, reporting each stage; raises IngestError."""
    read = read_pdf(
        data,
        file_name,
        password=password,
        max_bytes=int(config.max_file_mb * 1e6),
        max_pages=config.max_pages,
        progress=lambda done, total: report(IngestProgress(file_name, "read", done, total)),
        ocr=config.ocr,
        ocr_progress=lambda number, total: report(IngestProgress(file_name, "ocr", number, total)),
    )
    chunks = chunk_pages(doc_id_for(data), read.pages, config.chunk_size, config.chunk_overlap)
    if not chunks:  # read_pdf already refuses text-less files; this guards the invariant
        raise NoTextLayer(file_name)
    report(IngestProgress(file_name, "chunk", len(chunks), len(chunks)))
    matrix = embed(
        file_name,
        [indexed_text(c.context, c.text) for c in chunks],
        lambda d, t: report(IngestProgress(file_name, "embed", d, t)),
    )
    doc = Document(
        doc_id_for(data),
        read.title,
        file_name,
        len(read.pages),
        len(data),
        len(chunks),
        datetime.now(UTC).isoformat(timespec="seconds"),
        read.warnings,
    )
    return PreparedPdf(doc, list(read.pages), chunks, matrix, read.unlocked or data)


def skipped(doc: Document) -> IngestResult:
    """The result of adding a file whose bytes are already stored."""
    return IngestResult("skipped", doc, doc.chunks, doc.warnings, "already in the library")
