"""Command line: ``python -m ingest [--data-dir DIR] [--password PW] [--json] [--queue] PATH...``

One line per file (ok / skipped / error), or one JSON object per file with ``--json``; synchronous
unless ``--queue``, which stores the files as jobs and returns (``worker``, ``jobs`` and ``cancel``
are ingest.queue_cli's).
``--check`` repairs a readable library (re-embeds missing vectors); ``python -m ingest recover
[--data-dir DIR]`` rebuilds a lost or damaged database from the stored PDFs (on PostgreSQL: the
documents whose rows are incomplete, see ingest.team.recovery).
Exit status: 0 when every file was added or already present, 1 when any failed (or the library
is busy or damaged, which stops the run, or no PDF was found), 2 on usage errors (including bad
settings, and a data folder that cannot be written or created).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

from ingest.errors import FolderNotWritable, IngestError, LibraryError


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line arguments (argparse exits with status 2 on usage errors)."""
    parser = argparse.ArgumentParser(prog="python -m ingest", description="Add PDFs to the Footnote library.")
    parser.add_argument(
        "paths", nargs="*", type=Path, metavar="PATH", help="PDF files or folders (searched recursively)"
    )
    parser.add_argument("--data-dir", type=Path, help="library folder (default: FOOTNOTE_DATA_DIR or ./data)")
    parser.add_argument("--password", help="password for password-protected PDFs")
    parser.add_argument("--json", action="store_true", help="print one JSON object per file")
    parser.add_argument(
        "--queue",
        action="store_true",
        help="store the files and queue them as jobs, then return (a worker adds them: `python -m ingest worker`)",
    )
    parser.add_argument(
        "--reindex",
        action="store_true",
        help="re-chunk and re-embed every document with the current settings first",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="repair the library (re-embed chunks whose vectors are missing) and say what was done",
    )
    parser.add_argument(
        "--lock-timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="how long to wait for another ingest to finish (default 600)",
    )
    args = parser.parse_args(argv)
    if not args.paths and not args.reindex and not args.check:
        parser.error("give at least one PATH (or --reindex, or --check)")
    return args


def parse_recover_args(argv: list[str]) -> argparse.Namespace:
    """Arguments of ``python -m ingest recover``."""
    parser = argparse.ArgumentParser(
        prog="python -m ingest recover",
        description=(
            "Rebuild a lost or damaged library database from the stored PDFs (with FOOTNOTE_DATABASE_URL: "
            "re-derive the documents whose rows are incomplete; restore a lost database from its backups)."
        ),
    )
    parser.add_argument("--data-dir", type=Path, help="library folder (default: FOOTNOTE_DATA_DIR or ./data)")
    parser.add_argument("--lock-timeout", type=float, default=600.0, metavar="SECONDS")
    return parser.parse_args(argv)


def find_pdfs(paths: list[Path]) -> Iterator[Path]:
    """Files as given (any extension), and *.pdf inside folders, recursively and sorted."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
        else:
            yield path


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["migrate"]:
        return _migrate(argv[1:])
    from ingest import queue_cli

    if argv[:1] and argv[0] in queue_cli.COMMANDS:  # worker, jobs, cancel
        return queue_cli.main(argv, _settings, _open_for_jobs)
    recovering = argv[:1] == ["recover"]
    args = parse_recover_args(argv[1:]) if recovering else parse_args(argv)
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    try:
        settings = _settings(args.data_dir)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if recovering:
        return _recover(settings, args)
    pdfs = list(find_pdfs(args.paths))
    if args.paths and not pdfs:
        print(f"error: no PDFs found in {', '.join(map(str, args.paths))}", file=sys.stderr)
        return 1
    from ingest.backend import library_class  # imported after argument checks: --help stays fast

    try:
        library = _open_library(library_class(settings), args, settings)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if library is None:
        return 1
    if args.queue:
        return queue_cli.queue_files(library, pdfs, args.password, args.json)
    failed = 0
    for path in pdfs:
        try:
            record = _ingest_one(library, path, args.password)
        except LibraryError as exc:  # the library as a whole (busy, gone): the next files would fail alike
            print(f"error: {exc}", file=sys.stderr)
            return 1
        failed += record["status"] == "error"
        _print(record, args.json)
    return 1 if failed else 0


class UsageError(Exception):
    """A bad setting or folder: one sentence, exit status 2."""


def _settings(data_dir: Path | None):
    """The settings, or UsageError naming the bad FOOTNOTE_* value or the --data-dir that is a file."""
    from settings import load_settings

    try:
        settings = load_settings(data_dir=data_dir)
    except ValueError as exc:  # pydantic's ValidationError
        errors = getattr(exc, "errors", lambda: [])()
        parts = [
            f"FOOTNOTE_{'_'.join(map(str, e['loc'])).upper()}={e.get('input')!r}: {e['msg']}" for e in errors
        ]
        raise UsageError("bad setting " + ("; ".join(parts) or str(exc))) from exc
    folder = Path(settings.data_dir)
    if folder.exists() and not folder.is_dir():
        raise UsageError(
            f"the data folder {folder} is a file, not a folder (check --data-dir or FOOTNOTE_DATA_DIR)"
        )
    return settings


def _library_options(settings) -> tuple:
    from wiring import make_embeddings, ocr_options

    embeddings, name = make_embeddings(settings)
    return embeddings, dict(
        embedding_name=name,
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
        max_file_mb=settings.max_file_mb,
        max_pages=settings.max_pages,
        batch_size=settings.embed_batch_size,
        ocr=ocr_options(settings),
    )


def _open_library(library_cls: type, args: argparse.Namespace, settings):
    embeddings, options = _library_options(settings)
    options["lock_timeout"] = args.lock_timeout
    try:
        if args.reindex:
            library = library_cls.rebuild(settings.data_dir, embeddings, **options)
            print(f"re-indexed {library.chunk_count()} chunks in {settings.data_dir}", file=sys.stderr)
        else:
            library = library_cls.open(settings.data_dir, embeddings, **options, repair=not args.check)
            if args.check:
                with _ProgressBar("repair") as report:
                    library.open_report += library.check(report)
    except FolderNotWritable as exc:  # a bad folder, like one that is a file: exit status 2
        raise UsageError(str(exc)) from exc
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    for line in library.open_report:
        print(f"note: {line}", file=sys.stderr)
    if args.check:
        print(
            f"checked {settings.data_dir}: {len(library.documents())} documents, {library.chunk_count()} chunks",
            file=sys.stderr,
        )
    return library


def _open_for_jobs(settings, *, read_only: bool):
    """The library for ``worker`` (a writer), ``jobs`` and ``cancel``; raises IngestError."""
    from ingest.backend import library_class

    embeddings, options = _library_options(settings)
    opener = library_class(settings)
    if read_only:
        return opener.open_reader(
            settings.data_dir,
            embeddings,
            embedding_name=options["embedding_name"],
            chunk_size=options["chunk_size"],
            chunk_overlap=options["chunk_overlap"],
        )
    library = opener.open(settings.data_dir, embeddings, **options)
    for line in library.open_report:
        print(f"note: {line}", file=sys.stderr)
    return library


def _recover(settings, args: argparse.Namespace) -> int:
    from ingest.local.library import Library, LibrarySettings
    from ingest.local.recovery import recover

    embeddings, options = _library_options(settings)
    try:
        with _ProgressBar("recover") as report:
            if settings.database_url is not None:  # re-derives incomplete documents (ingest.team.recovery)
                from ingest.backend import library_class

                opener = library_class(settings)
                result = opener.open(None, embeddings, **options, lock_timeout=args.lock_timeout).recover(
                    report
                )
            else:
                library = Library(
                    settings.data_dir, embeddings, LibrarySettings(**options), lock_timeout=args.lock_timeout
                )
                result = recover(library, report)
    except FolderNotWritable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for line in result.lines():
        print(line)
    return 0


def _migrate(argv: list[str]) -> int:
    """``python -m ingest migrate``: copy the local library and chats into PostgreSQL."""
    parser = argparse.ArgumentParser(
        prog="python -m ingest migrate",
        description=(
            "Copy a local library (PDFs, chunks, vectors, conversations, verdicts) into PostgreSQL without re-embedding."
        ),
    )
    parser.add_argument(
        "--to",
        metavar="URL",
        help="postgresql://... (default: FOOTNOTE_DATABASE_URL; a password "
        "given here is visible to other users of this machine)",
    )
    parser.add_argument("--data-dir", type=Path, help="library folder (default: FOOTNOTE_DATA_DIR or ./data)")
    args = parser.parse_args(argv)
    try:
        settings = _settings(args.data_dir)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    url = args.to or (settings.database_url.get_secret_value() if settings.database_url else None)
    if not url:
        parser.error("give --to postgresql://... or set FOOTNOTE_DATABASE_URL")
    from ingest.team.connect import masked
    from rag.stores.migrate import migrate
    from wiring import make_embeddings

    try:
        done = migrate(settings.data_dir, url, make_embeddings(settings)[0])
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print("\n".join(done.lines(masked(url))))
    return 0


def _ingest_one(library, path: Path, password: str | None) -> dict:
    record = {
        "file": str(path),
        "status": "error",
        "doc_id": None,
        "pages": None,
        "chunks": None,
        "error": None,
    }
    try:
        data = path.read_bytes()
        with _ProgressBar(path.name) as report:
            result = library.add_pdf(data, path.name, password=password, progress=report)
    except LibraryError:
        raise
    except IngestError as exc:
        record["error"] = exc.message
        return record
    except OSError as exc:
        record["error"] = f"{path.name}: cannot be read ({exc.strerror or exc})"
        return record
    doc = result.doc
    record.update(
        status=result.status,
        doc_id=doc.doc_id,
        pages=doc.pages,
        chunks=result.chunks,
        warnings=list(result.warnings),
    )
    return record


class _ProgressBar:
    """A tqdm bar over the embedding stage, only when stderr is a terminal."""

    def __init__(self, name: str) -> None:
        self.name, self.bar = name, None

    def __enter__(self):
        if not sys.stderr.isatty():
            return None
        return self._report

    def _report(self, progress) -> None:
        from tqdm import tqdm

        if self.bar is None:
            self.bar = tqdm(total=progress.total or 1, desc=self.name[:30], unit="chunk", leave=False)
        ocr = progress.stage == "ocr"
        self.bar.set_postfix_str(f"OCR page {progress.done} of {progress.total}" if ocr else progress.stage)
        if progress.stage == "embed":
            self.bar.total = progress.total or 1
            self.bar.n = progress.done
            self.bar.refresh()

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()


def _print(record: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(record, ensure_ascii=False), flush=True)
        return
    status = record["status"]
    if status == "error":
        detail = record["error"]
    elif status == "skipped":
        detail = "already in the library"
    else:
        detail = f"{record['pages']} pages, {record['chunks']} chunks"
        if record.get("warnings"):
            detail += "; " + "; ".join(record["warnings"])
    print(f"{status:<8} {record['file']}  ({detail})", flush=True)


if __name__ == "__main__":
    sys.exit(main())
