"""Sections for documents already in a library, local or team (``python -m cli.ingest sections``): each
stored PDF is read again (its text layer, no OCR) for its outline and layout headings
(ingest.pdf.sections), and its stored pages and chunks are given their section paths. Nothing is
chunked or embedded again: the chunks keep their ids, texts and vectors, and the library its
generation.

A stored page whose text the new reading does not give back (a page OCR read, or a PDF that
pdfium now reads otherwise) keeps only the path it starts in: no heading offset lands on it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ingest.errors import IngestError
from ingest.pdf.reader import read_pdf
from ingest.pdf.sections import chunk_sections
from ingest.types import OCR_OFF, Document, Page

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BackfillReport:
    """What a backfill did: documents given sections (and how many had an outline), documents
    skipped because they had sections already, and those whose PDF could not be read (with why).
    A document where no heading was found has none after it either, so a later run reads it again."""

    done: tuple[str, ...] = ()
    outlined: int = 0
    skipped: int = 0
    unreadable: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """One sentence per kind of outcome."""
        out = [
            f"read the sections of {len(self.done)} documents "
            f"({self.outlined} from their outline, the rest from their layout)"
        ]
        if self.skipped:
            out.append(f"{self.skipped} documents had their sections already (--all reads them again)")
        out += [f"could not read {name}" for name in self.unreadable]
        return out


def backfill(
    library: Any, *, every: bool = False, progress: Callable[[str, int, int], None] | None = None
) -> BackfillReport:
    """Give every document of a writable library (local or team) its sections; only those that
    have none yet unless ``every``. ``progress`` hears (file name, done, total)."""
    report = progress or (lambda name, done, total: None)
    documents = library.documents()
    done, unreadable, outlined, skipped = [], [], 0, 0
    for n, doc in enumerate(documents):
        report(doc.file_name, n, len(documents))
        if not every and any(library.chunk_sections(doc.doc_id).values()):  # that column only
            skipped += 1
            continue
        try:
            pages, source = sections_of(library.pdf_bytes(doc.doc_id), doc, library.pages(doc.doc_id))
        except (IngestError, FileNotFoundError) as exc:
            log.warning("%s: %s", doc.file_name, exc)
            unreadable.append(f"{doc.file_name} ({exc})")
            continue
        by_index = {p.index: p for p in pages}
        chunks = {c.chunk_id: chunk_sections(by_index, c.locators) for c in library.chunks([doc.doc_id])}
        if library.set_sections(doc.doc_id, pages, chunks):
            done.append(doc.file_name)
            outlined += source == "outline"
    report("", len(documents), len(documents))
    return BackfillReport(tuple(done), outlined, skipped, tuple(unreadable))


def sections_of(data: bytes, doc: Document, stored: Sequence[Page]) -> tuple[list[Page], str]:
    """The stored pages with the sections a new reading of their PDF gives, and where those came
    from ("outline" or "layout"); IngestError when the PDF cannot be read."""
    read = read_pdf(data, doc.file_name, ocr=OCR_OFF)
    fresh = {p.index: p for p in read.pages}
    pages = []
    for page in stored:
        again = fresh.get(page.index)
        found = again.sections if again is not None else ()
        if again is None or again.text != page.text:
            found = tuple((0, path) for start, path in found[:1] if start == 0)
        pages.append(replace(page, sections=found))
    return pages, read.sections.source
