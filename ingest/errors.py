"""What can go wrong while ingesting, and the one rule for handling it.

Error policy
------------
- **Raise** (a subclass of ``IngestError``) when the user must act on the whole file: it is not a
  PDF, is empty, is truncated or structurally unreadable, needs a (different) password, has no
  text layer at all (or nothing drawn on any page), is over the size or page limit, the
  embedding model failed (an endpoint down, refusing or timing out), the file's text cannot be
  made valid characters (``UnreadableText``: found where the text is read or before it is
  embedded, so a text problem never reports the model), or the library was built with other
  embedding or chunk settings. No exception class name or codec message reaches the user: a
  cause is said in words. The message names the file and says what to do; the
  cause is chained with ``raise ... from exc``. Nothing is written to the library for that file.
- **Warn** (strings in ``ReadDocument.warnings`` / ``IngestResult.warnings``, stored with the
  document and shown on the Library page) when the document is usable but partly degraded:
  pages without text, blank pages, pages whose text looks garbled (mojibake from CID fonts),
  pages read by OCR, one sentence per page on which OCR found nothing ("page 7: no text found
  by OCR"), and the pages OCR skipped past its budget (naming the setting that set it).
- **Log and continue** (``logging`` at WARNING) for page-level damage: a page whose text cannot
  be extracted is kept with empty text, so page indexes stay aligned, and the rest is ingested.
  It is also summarised as a warning.
- Never swallow an error silently, and never let one bad file stop the others (the CLI and the
  Library page catch ``IngestError`` per file).
- **Library-wide** problems raise a ``LibraryError`` naming the folder or store file: a lost or
  damaged database (``LibraryDamaged``, which names ``python -m cli.ingest recover``; nothing is
  deleted), a busy write lock, a data folder that cannot be written or created
  (``FolderNotWritable``), no library where a reader looked, a schema too new or too old,
  and in team mode a PostgreSQL server that cannot be used or a database without pgvector.
"""

from __future__ import annotations

from pathlib import Path


class IngestError(Exception):
    """Base class: a file could not be ingested; ``str(err)`` is the user-facing message."""

    reason = "could not be ingested"

    def __init__(self, file_name: str, detail: str | None = None) -> None:
        self.file_name = file_name
        self.detail = detail
        text = f"{file_name}: {self.reason}"
        super().__init__(f"{text} ({detail})" if detail else text)

    @property
    def message(self) -> str:
        """The user-facing message, naming the file."""
        return str(self)


class NotAPdf(IngestError):
    """The bytes are not a PDF at all."""

    reason = "is not a PDF file"


class EmptyFile(IngestError):
    """The file has no bytes."""

    reason = "is empty"


class BrokenPdf(IngestError):
    """Truncated or structurally unreadable PDF."""

    reason = "is damaged or truncated and cannot be read"


class PasswordRequired(IngestError):
    """Encrypted with a user password that was missing or wrong."""

    def __init__(self, file_name: str, *, wrong_password: bool = False) -> None:
        self.wrong_password = wrong_password
        self.reason = (
            "the password is wrong" if wrong_password else "is password-protected; enter its password"
        )
        super().__init__(file_name)


class NoTextLayer(IngestError):
    """No page has any extractable text."""

    reason = "has no text layer (scanned or image-only; OCR is not done)"


class BlankPages(NoTextLayer):
    """Nothing is drawn on any page (no text, picture or drawing): known without rendering, never OCR'd."""

    def __init__(self, file_name: str, pages: int) -> None:
        where = "its one page" if pages == 1 else f"any of its {pages:,} pages"
        self.reason = f"has no text layer, and nothing is drawn on {where}"
        super().__init__(file_name)


class NoTextFound(NoTextLayer):
    """No page has a usable text layer, and OCR found no text on any of them either."""

    reason = "has no text layer, and OCR found no text on its pages"


class TooLarge(IngestError):
    """Over the size or page limit from settings."""

    reason = "is over the limit"


class IndexMismatch(IngestError):
    """The library was built with another embedding model or other chunk settings."""

    reason = "was built with different settings; re-index all documents (Library page or `python -m cli.ingest --reindex`)"


class UnreadableText(IngestError):
    """Text read from the file is not valid Unicode even after ingest.text cleaned it: a problem of
    the file's text, never reported as the embedding model's."""

    reason = "holds text that could not be read as characters, so nothing was added"


class EmbeddingFailed(IngestError):
    """The embedding model (for example an OpenAI-compatible endpoint) failed or is unreachable."""

    reason = (
        "could not be embedded, so nothing was changed; try again once the embedding model or endpoint works"
    )


class LibraryError(IngestError):
    """The library folder (or a store file) as a whole cannot be used as it is."""

    def __init__(self, where: str, message: str | None = None) -> None:
        self.file_name, self.detail = where, None
        Exception.__init__(self, message or f"{where}: {self.reason}")


class LibraryDamaged(LibraryError):
    """The database is missing, empty or unreadable while PDFs or vectors remain: nothing is touched."""

    def __init__(self, data_dir: str, problem: str) -> None:
        super().__init__(
            data_dir,
            f"{problem}; nothing was changed or deleted. Rebuild the database from "
            f"the stored PDFs with `python -m cli.ingest recover --data-dir {data_dir}`",
        )


class NoLibrary(LibraryError):
    """A reader was pointed at a folder that holds no library (readers never create one)."""

    def __init__(self, data_dir: str) -> None:
        super().__init__(
            data_dir,
            f"no library at {data_dir} (check --data-dir or FOOTNOTE_DATA_DIR; "
            "`python -m cli.ingest --data-dir DIR PDF...` creates one)",
        )


class NoPgLibrary(NoLibrary):
    """A reader found no Footnote tables in the database (readers never create them)."""

    def __init__(self, where: str) -> None:
        Exception.__init__(
            self,
            f"no Footnote library in the database at {where} "
            "(`python -m cli.ingest PDF...` with FOOTNOTE_DATABASE_URL set creates one)",
        )
        self.file_name, self.detail = where, None


class DatabaseUnavailable(LibraryError):
    """The PostgreSQL server cannot be reached, or refuses the connection."""


class NoVectorExtension(LibraryError):
    """The database has no pgvector extension and it could not be created."""


class LibraryBusy(LibraryError):
    """Another process held the library's write lock for longer than the timeout."""

    reason = "the library is busy (another ingest is running); try again when it has finished"


class FolderNotWritable(LibraryError):
    """The data folder cannot be written or created (read-only file system, no permission)."""

    def __init__(self, data_dir: str, cause: str, blocked_by: str | None = None) -> None:
        where = f"the data folder {data_dir}"
        problem = (
            f"cannot create {where}: {blocked_by} is not writable ({cause})"
            if blocked_by
            else f"cannot write to {where} ({cause})"
        )
        super().__init__(
            data_dir, f"{problem}; choose a writable folder with --data-dir or FOOTNOTE_DATA_DIR"
        )


class ReadOnlyLibrary(LibraryError):
    """A write was asked of a library opened for reading."""

    reason = "was opened read-only; open it with Library.open to change it"


class SchemaTooNew(LibraryError):
    """A store file written by a newer Footnote: refused, never misread."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            path,
            f"{path} was written by a newer version of Footnote (schema version {found}; "
            f"this one reads up to {known}): upgrade Footnote or use another data folder",
        )


class SchemaTooOld(LibraryError):
    """A reader found a library that needs a migration, which only a writer may run."""

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            path,
            f"{path} has schema version {found} and needs upgrading to {known}: run "
            f"`python -m cli.ingest --check --data-dir {Path(path).parent}` once",
        )


class PgSchemaTooOld(SchemaTooOld):
    """A reader found a team library whose tables a writer must bring up to date first (a
    SchemaTooOld: the app then opens it once for writing, as it migrates an older local file)."""

    def __init__(self, where: str) -> None:
        LibraryError.__init__(
            self,
            where,
            f"the Footnote library in the database at {where} was written by an older version: "
            "open it once for writing (`python -m cli.ingest sections` with FOOTNOTE_DATABASE_URL set "
            "also reads the sections of the documents it holds)",
        )
