"""``python -m cli.ingest recover`` (and ``--check``) on PostgreSQL: re-derive incomplete documents.

The database is the source of truth there and every document is committed whole, so there is
no half-written state of ours to repair, and a lost or damaged database is the server's to
restore (its backups, ``pg_dump``, a provider's point-in-time recovery), not ours. What can still
leave a document incomplete is a change from outside: a partial restore (``footnote_chunks``
refused because the target had no pgvector), rows deleted by hand. A document whose stored page
or chunk rows do not add up to what its row records is read again from its stored PDF (bytea),
chunked with the library's settings under its own doc_id (so chunk ids come out as before) and
embedded, and its pages and chunks are replaced in one transaction under the write lock.
A stored PDF that cannot be read is reported and left as it is: nothing is deleted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from ingest.errors import IngestError, LibraryError
from ingest.pdf.chunking import chunk_pages
from ingest.pdf.reader import read_pdf
from ingest.types import Chunk, Document, Page, ProgressFn


class PgRepairable(Protocol):
    """What recovery reads and calls on a PostgreSQL library (ingest.team.library.PgLibrary)."""

    data_dir: str
    config: object  # LibrarySettings: chunk_size, chunk_overlap

    def incomplete_documents(self) -> list[Document]:
        """Documents whose page or chunk rows do not add up to what their row records."""

    def pdf_bytes(self, doc_id: str) -> bytes:
        """The stored PDF; FileNotFoundError when the document is gone."""

    def embed_chunks(self, file_name: str, chunks: Sequence[Chunk], report: ProgressFn) -> np.ndarray:
        """The chunks' vectors (context and text), reporting embed progress."""

    def replace_rows(
        self, doc_id: str, pages: Sequence[Page], chunks: Sequence[Chunk], matrix: np.ndarray
    ) -> bool:
        """Replace a document's pages and chunks in one transaction; False when it is gone."""


@dataclass(frozen=True)
class PgRecoveryReport:
    """What was re-derived from stored PDFs, and which stored PDFs could not be read."""

    rebuilt: tuple[str, ...]  # file names
    chunks: int
    unreadable: tuple[str, ...] = field(default=())  # one sentence each

    def lines(self) -> list[str]:
        """The report, one sentence a line (nothing when every document was complete)."""
        out = []
        if self.rebuilt:
            out.append(
                f"Recovered {len(self.rebuilt)} documents from their stored PDFs "
                f"({self.chunks} chunks embedded again): {', '.join(self.rebuilt)}."
            )
        return out + list(self.unreadable)


def rebuild_incomplete(library: PgRepairable, progress: ProgressFn | None = None) -> PgRecoveryReport:
    """Re-read, re-chunk and re-embed every incomplete document (see the module docstring)."""
    report = progress or (lambda _: None)
    rebuilt, unreadable, chunks_done = [], [], 0
    for doc in library.incomplete_documents():
        try:
            # stored decrypted; scanned pages are read by OCR again
            read = read_pdf(library.pdf_bytes(doc.doc_id), doc.file_name, ocr=library.config.ocr)
        except IngestError as exc:
            unreadable.append(
                f"Could not read a stored PDF ({exc}); it is left as it was: delete it and add the file again."
            )
            continue
        except FileNotFoundError:
            continue  # deleted meanwhile
        cfg = library.config
        chunks = chunk_pages(doc.doc_id, read.pages, cfg.chunk_size, cfg.chunk_overlap)
        matrix = library.embed_chunks(doc.file_name, chunks, report)
        if not library.replace_rows(doc.doc_id, read.pages, chunks, matrix):
            continue  # deleted while it was being embedded
        rebuilt.append(doc.file_name)
        chunks_done += len(chunks)
    return PgRecoveryReport(tuple(rebuilt), chunks_done, tuple(unreadable))


def recover(library: PgRepairable, progress: ProgressFn | None = None) -> PgRecoveryReport:
    """``python -m cli.ingest recover`` on PostgreSQL; LibraryError ("nothing to recover", as the local
    command says of a readable library) when every document is complete."""
    if not library.incomplete_documents():
        raise LibraryError(
            library.data_dir,
            f"every document in {library.data_dir} has all its pages and chunks: nothing to recover "
            "(PostgreSQL commits each document whole; restore a lost or damaged database from the "
            "server's backups)",
        )
    return rebuild_incomplete(library, progress)
