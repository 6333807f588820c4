"""What ``python -m cli.ingest`` does per file and shows: one file added (a record, never an exception
for the file's own faults), the progress bar on a terminal, one line or JSON object per file, and
the notes an opened library reports."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from ingest.errors import IngestError, LibraryError


def ingest_one(library, path: Path, password: str | None) -> dict:
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
        with ProgressBar(path.name) as report:
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


class ProgressBar:
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


def print_record(record: dict, as_json: bool) -> None:
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


def print_notes(library: Any, err: TextIO | None = None) -> None:
    """What opening the library found (a repair made, or one a writer would make), one note a line."""
    for line in library.open_report:
        print(f"note: {line}", file=err or sys.stderr)
