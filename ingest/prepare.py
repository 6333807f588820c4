"""Adding a PDF, the part both backends share: read and chunk it in memory (``prepare_words``),
embed it (``prepare_pdf`` does both, before anything is written), and the result of an add that
found it stored (``skipped``). Ingestion jobs store the words first and embed behind (ingest.worker)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from ingest.errors import NoTextLayer, UnreadableText
from ingest.ids import doc_id_for
from ingest.pdf.chunking import chunk_pages
from ingest.pdf.context import indexed_text
from ingest.pdf.reader import read_pdf
from ingest.text import first_invalid
from ingest.types import Chunk, Document, IngestProgress, IngestResult, LibrarySettings, Page, ProgressFn

Embed = Callable[[str, list[str], Callable[[int, int], None]], np.ndarray]


@dataclass(frozen=True)
class PreparedWords:
    """A PDF read and chunked in memory: all that lexical search needs, before any vector."""

    doc: Document
    pages: list[Page]
    chunks: list[Chunk]
    pdf: bytes  # what is stored: the original, or its decrypted copy when it needed a password


@dataclass(frozen=True)
class PreparedPdf:
    """A PDF read, chunked and embedded in memory, before anything is written (any backend)."""

    doc: Document
    pages: list[Page]
    chunks: list[Chunk]
    matrix: np.ndarray
    pdf: bytes  # what is stored: the original, or its decrypted copy when it needed a password


def prepare_words(
    config: LibrarySettings,
    data: bytes,
    file_name: str,
    password: str | None,
    report: ProgressFn,
    doc_id: str | None = None,
) -> PreparedWords:
    """Read and chunk one PDF, reporting each stage; raises IngestError. ``doc_id`` names a
    document whose original bytes were not ``data`` (a queued copy decrypted at the upload)."""
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
    bad = first_invalid([p.text for p in read.pages] + [read.title])
    if bad is not None:  # the reader makes text valid (ingest.text); this guards the invariant
        where = f"page {read.pages[bad].label}" if bad < len(read.pages) else "its title"
        raise UnreadableText(file_name, where)
    doc_id = doc_id or doc_id_for(data)
    chunks = chunk_pages(doc_id, read.pages, config.chunk_size, config.chunk_overlap)
    if not chunks:  # read_pdf already refuses text-less files; this guards the invariant
        raise NoTextLayer(file_name)
    report(IngestProgress(file_name, "chunk", len(chunks), len(chunks)))
    doc = Document(
        doc_id,
        read.title,
        file_name,
        len(read.pages),
        len(data),
        len(chunks),
        datetime.now(UTC).isoformat(timespec="seconds"),
        read.warnings,
    )
    return PreparedWords(doc, list(read.pages), chunks, read.unlocked or data)


def embed_chunks(embed: Embed, file_name: str, chunks: Sequence[Chunk], report: ProgressFn) -> np.ndarray:
    """The chunks' vectors (context and text, as stored and searched), reporting embed progress."""
    return embed(
        file_name,
        [indexed_text(c.context, c.text) for c in chunks],
        lambda d, t: report(IngestProgress(file_name, "embed", d, t)),
    )


def prepare_pdf(
    config: LibrarySettings,
    embed: Embed,
    data: bytes,
    file_name: str,
    password: str | None,
    report: ProgressFn,
) -> PreparedPdf:
    """Read, chunk and embed (context + text) one PDF, reporting each stage; raises IngestError."""
    words = prepare_words(config, data, file_name, password, report)
    matrix = embed_chunks(embed, file_name, words.chunks, report)
    return PreparedPdf(words.doc, words.pages, words.chunks, matrix, words.pdf)


def skipped(doc: Document) -> IngestResult:
    """The result of adding a file whose bytes are already stored."""
    return IngestResult("skipped", doc, doc.chunks, doc.warnings, "already in the library")
