"""The ingest command line's arguments: ``python -m ingest`` and ``python -m ingest recover``, and
the PDFs the paths name."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path


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


def parse_sections_args(argv: list[str]) -> argparse.Namespace:
    """Arguments of ``python -m ingest sections``."""
    parser = argparse.ArgumentParser(
        prog="python -m ingest sections",
        description=(
            "Read the sections (outline or layout headings) of the documents already in the library "
            "from their stored PDFs, without re-embedding; only those that have none unless --all."
        ),
    )
    parser.add_argument("--data-dir", type=Path, help="library folder (default: FOOTNOTE_DATA_DIR or ./data)")
    parser.add_argument("--all", action="store_true", help="read every document's sections again")
    parser.add_argument("--lock-timeout", type=float, default=600.0, metavar="SECONDS")
    return parser.parse_args(argv)


def find_pdfs(paths: list[Path]) -> Iterator[Path]:
    """Files as given (any extension), and *.pdf inside folders, recursively and sorted."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
        else:
            yield path


class UsageError(Exception):
    """A bad setting or folder: one sentence, exit status 2."""
