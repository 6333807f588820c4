"""``python -m ingest recover`` (and ``--check``) on PostgreSQL: re-derive incomplete documents.

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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ingest import pg_store
from ingest.chunking import chunk_pages
from ingest.context import indexed_text
from ingest.errors import IngestError, LibraryError
from ingest.reader import read_pdf
from ingest.types import Document, IngestProgress, ProgressFn

if TYPE_CHECKING:
    from ingest.pg_library import PgLibrary

_INCOMPLETE = """
SELECT doc_id FROM footnote_documents d
WHERE d.pages <> (SELECT COUNT(*) FROM footnote_pages p WHERE p.doc_id = d.doc_id)
   OR d.chunks <> (SELECT COUNT(*) FROM footnote_chunks c WHERE c.doc_id = d.doc_id)
ORDER BY d.seq
"""


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


def incomplete_documents(library: PgLibrary) -> list[Document]:
    """Documents whose page or chunk rows do not add up to what their row records."""
    with library._connect() as conn:
        ids = [r[0] for r in conn.execute(_INCOMPLETE)]
    return [d for d in (library.document(i) for i in ids) if d is not None]


def rebuild_incomplete(library: PgLibrary, progress: ProgressFn | None = None) -> PgRecoveryReport:
    """Re-read, re-chunk and re-embed every incomplete document (see the module docstring)."""
    report = progress or (lambda _: None)
    rebuilt, unreadable, chunks_done = [], [], 0
    for doc in incomplete_documents(library):
        try:
            read = read_pdf(library.pdf_bytes(doc.doc_id), doc.file_name)  # stored decrypted
        except IngestError as exc:
            unreadable.append(
                f"Could not read a stored PDF ({exc}); it is left as it was: delete it and add the file again."
            )
            continue
        except FileNotFoundError:
            continue  # deleted meanwhile
        cfg = library.config
        chunks = chunk_pages(doc.doc_id, read.pages, cfg.chunk_size, cfg.chunk_overlap)
        matrix = library._embed(
            doc.file_name,
            [indexed_text(c.context, c.text) for c in chunks],
            lambda d, t, name=doc.file_name: report(IngestProgress(name, "embed", d, t)),
        )
        with library._connect() as conn, conn.transaction():
            library._lock_writers(conn)
            if (
                conn.execute("SELECT 1 FROM footnote_documents WHERE doc_id = %s", (doc.doc_id,)).fetchone()
                is None
            ):
                continue  # deleted while it was being embedded
            library._verify_settings(conn, matrix.shape[1])
            conn.execute("DELETE FROM footnote_chunks WHERE doc_id = %s", (doc.doc_id,))
            conn.execute("DELETE FROM footnote_pages WHERE doc_id = %s", (doc.doc_id,))
            pg_store.insert_pages(conn, doc.doc_id, read.pages)
            pg_store.insert_chunks(conn, chunks, matrix)
            conn.execute(
                "UPDATE footnote_documents SET pages = %s, chunks = %s WHERE doc_id = %s",
                (len(read.pages), len(chunks), doc.doc_id),
            )
            pg_store.bump_generation(conn)
        rebuilt.append(doc.file_name)
        chunks_done += len(chunks)
    return PgRecoveryReport(tuple(rebuilt), chunks_done, tuple(unreadable))


def recover(library: PgLibrary, progress: ProgressFn | None = None) -> PgRecoveryReport:
    """``python -m ingest recover`` on PostgreSQL; LibraryError ("nothing to recover", as the local
    command says of a readable library) when every document is complete."""
    if not incomplete_documents(library):
        raise LibraryError(
            library.data_dir,
            f"every document in {library.data_dir} has all its pages and chunks: nothing to recover "
            "(PostgreSQL commits each document whole; restore a lost or damaged database from the "
            "server's backups)",
        )
    return rebuild_incomplete(library, progress)
