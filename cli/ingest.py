"""``python -m cli.ingest [--data-dir DIR] [--password PW] [--json] [--queue] PATH...``

One line per file (ok / skipped / error), or one JSON object per file with ``--json``; synchronous
unless ``--queue``, which stores the files as jobs and returns (``worker``, ``jobs`` and ``cancel``
are cli.jobs').
``--check`` repairs a readable library (re-embeds missing vectors); ``recover [--data-dir DIR]``
rebuilds a lost or damaged database from the stored PDFs (on PostgreSQL: the documents whose rows
are incomplete, see ingest.team.recovery); ``sections [--data-dir DIR] [--all]`` reads the
sections of documents added before sections were read, from their stored PDFs, without
re-embedding (ingest.backfill); ``migrate [--to URL]`` copies a local library into PostgreSQL
(rag.stores.migrate).
Exit status: 0 when every file was added or already present, 1 when any failed (or the library
is busy or damaged, which stops the run, or no PDF was found), 2 on usage errors (including bad
settings, and a data folder that cannot be written or created).
"""

from __future__ import annotations

import argparse
import logging
import sys

from cli.arguments import (
    UsageError,
    find_pdfs,
    migrate_parser,
    parse_args,
    parse_recover_args,
    parse_sections_args,
    settings_for,
)
from cli.output import ProgressBar, ingest_one, print_notes, print_record
from ingest.errors import FolderNotWritable, IngestError, LibraryError


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["migrate"]:
        return _migrate(argv[1:])
    if argv[:1] == ["sections"]:
        return _sections(argv[1:])
    from cli import jobs

    if argv[:1] and argv[0] in jobs.COMMANDS:  # worker, jobs, cancel
        return jobs.main(argv)
    recovering = argv[:1] == ["recover"]
    args = parse_recover_args(argv[1:]) if recovering else parse_args(argv)
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    try:
        settings = settings_for(args.data_dir)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if recovering:
        return _recover(settings, args)
    pdfs = list(find_pdfs(args.paths))
    if args.paths and not pdfs:
        print(f"error: no PDFs found in {', '.join(map(str, args.paths))}", file=sys.stderr)
        return 1
    try:
        library = _open_library(args, settings)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if library is None:
        return 1
    if args.queue:
        return jobs.queue_files(library, pdfs, args.password, args.json)
    failed = 0
    for path in pdfs:
        try:
            record = ingest_one(library, path, args.password)
        except LibraryError as exc:  # the library as a whole (busy, gone): the next files would fail alike
            print(f"error: {exc}", file=sys.stderr)
            return 1
        failed += record["status"] == "error"
        print_record(record, args.json)
    return 1 if failed else 0


def _open_library(args: argparse.Namespace, settings):
    """The writer library (re-indexed or repaired first when asked); None after printing an
    IngestError, UsageError for a folder that cannot be written."""
    from ingest.backend import library_class  # imported after argument checks: --help stays fast
    from wiring import library_inputs

    embeddings, config = library_inputs(settings)
    opener, options = library_class(settings), {"config": config, "lock_timeout": args.lock_timeout}
    try:
        if args.reindex:
            library = opener.rebuild(settings.data_dir, embeddings, **options)
            print(f"re-indexed {library.chunk_count()} chunks in {settings.data_dir}", file=sys.stderr)
        else:
            library = opener.open(settings.data_dir, embeddings, **options, repair=not args.check)
            if args.check:
                with ProgressBar("repair") as report:
                    library.open_report += library.check(report)
    except FolderNotWritable as exc:  # a bad folder, like one that is a file: exit status 2
        raise UsageError(str(exc)) from exc
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    print_notes(library)
    if args.check:
        print(
            f"checked {settings.data_dir}: {len(library.documents())} documents, {library.chunk_count()} chunks",
            file=sys.stderr,
        )
    return library


def _recover(settings, args: argparse.Namespace) -> int:
    from ingest.local.library import Library
    from ingest.local.recovery import recover
    from wiring import library_inputs

    embeddings, config = library_inputs(settings)
    try:
        with ProgressBar("recover") as report:
            if settings.database_url is not None:  # re-derives incomplete documents (ingest.team.recovery)
                from ingest.backend import library_class

                opener = library_class(settings)
                library = opener.open(None, embeddings, config=config, lock_timeout=args.lock_timeout)
                result = library.recover(report)
            else:
                library = Library(settings.data_dir, embeddings, config, lock_timeout=args.lock_timeout)
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


def _sections(argv: list[str]) -> int:
    """``sections``: the sections of the documents already in the library."""
    from ingest.backend import library_class
    from ingest.backfill import backfill
    from wiring import library_inputs

    args = parse_sections_args(argv)
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    try:
        settings = settings_for(args.data_dir)
        embeddings, config = library_inputs(settings)
        library = library_class(settings).open(
            settings.data_dir, embeddings, config=config, lock_timeout=args.lock_timeout
        )
        done = backfill(library, every=args.all, progress=_said)
    except (UsageError, FolderNotWritable) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except IngestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print("\n".join(done.lines()))
    return 1 if done.unreadable else 0


def _said(name: str, done: int, total: int) -> None:
    if name:
        print(f"[{done + 1}/{total}] {name}", file=sys.stderr, flush=True)


def _migrate(argv: list[str]) -> int:
    """``migrate``: copy the local library and chats into PostgreSQL."""
    parser = migrate_parser()
    args = parser.parse_args(argv)
    try:
        settings = settings_for(args.data_dir)
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


if __name__ == "__main__":
    sys.exit(main())
