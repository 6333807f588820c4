"""What a user gives ``python -m cli.ingest``: its arguments (adding files, ``recover``,
``sections``), the PDFs the paths name, and the settings that ``--data-dir`` and the FOOTNOTE_*
variables make (UsageError when they are bad: exit status 2)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from settings import Settings

PROG = "python -m cli.ingest"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line arguments (argparse exits with status 2 on usage errors)."""
    parser = argparse.ArgumentParser(prog=PROG, description="Add PDFs to the Footnote library.")
    parser.add_argument(
        "paths", nargs="*", type=Path, metavar="PATH", help="PDF files or folders (searched recursively)"
    )
    parser.add_argument("--data-dir", type=Path, help="library folder (default: FOOTNOTE_DATA_DIR or ./data)")
    parser.add_argument("--password", help="password for password-protected PDFs")
    parser.add_argument("--json", action="store_true", help="print one JSON object per file")
    parser.add_argument(
        "--queue",
        action="store_true",
        help=f"store the files and queue them as jobs, then return (a worker adds them: `{PROG} worker`)",
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
    """Arguments of ``recover``."""
    parser = argparse.ArgumentParser(
        prog=f"{PROG} recover",
        description=(
            "Rebuild a lost or damaged library database from the stored PDFs (with FOOTNOTE_DATABASE_URL: "
            "re-derive the documents whose rows are incomplete; restore a lost database from its backups)."
        ),
    )
    parser.add_argument("--data-dir", type=Path, help="library folder (default: FOOTNOTE_DATA_DIR or ./data)")
    parser.add_argument("--lock-timeout", type=float, default=600.0, metavar="SECONDS")
    return parser.parse_args(argv)


def parse_sections_args(argv: list[str]) -> argparse.Namespace:
    """Arguments of ``sections``."""
    parser = argparse.ArgumentParser(
        prog=f"{PROG} sections",
        description=(
            "Read the sections (outline or layout headings) of the documents already in the library "
            "from their stored PDFs, without re-embedding; only those that have none unless --all."
        ),
    )
    parser.add_argument("--data-dir", type=Path, help="library folder (default: FOOTNOTE_DATA_DIR or ./data)")
    parser.add_argument("--all", action="store_true", help="read every document's sections again")
    parser.add_argument("--lock-timeout", type=float, default=600.0, metavar="SECONDS")
    return parser.parse_args(argv)


def migrate_parser() -> argparse.ArgumentParser:
    """Arguments of ``migrate``."""
    parser = argparse.ArgumentParser(
        prog=f"{PROG} migrate",
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
    return parser


def find_pdfs(paths: list[Path]) -> Iterator[Path]:
    """Files as given (any extension), and *.pdf inside folders, recursively and sorted."""
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
        else:
            yield path


class UsageError(Exception):
    """A bad setting or folder: one sentence, exit status 2."""


def settings_for(data_dir: Path | None) -> Settings:
    """The settings, or UsageError naming the bad FOOTNOTE_* value or the --data-dir that is a file."""
    from settings import load_settings  # half a second: not before the arguments are checked

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
