"""Library page pieces: ingest with per-file progress, result lines, the documents table.

No parsing or index logic here: files go to ``Library.add_pdf`` as bytes, errors come back as
``IngestError`` and are shown by one function. PDF titles and file names are untrusted: they
reach widget labels only through ``escape_markdown`` and tables only as plain cells.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path

import streamlit as st

from components.render import escape_markdown
from ingest.errors import IngestError, PasswordRequired
from ingest.library import Library
from ingest.types import Document, IngestProgress, IngestResult

log = logging.getLogger(__name__)

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "samples"
STAGES = {
    "read": "Reading pages",
    "chunk": "Splitting into chunks",
    "embed": "Embedding chunks",
    "index": "Saving to the index",
}
ICONS = {"ok": ":material/check_circle:", "skipped": ":material/info:", "error": ":material/error:"}


def sample_files() -> list[tuple[str, bytes]]:
    """The sample PDFs shipped in samples/ as (file name, bytes)."""
    return [(p.name, p.read_bytes()) for p in sorted(SAMPLES_DIR.glob("*.pdf"))]


def ingest_files(library: Library, files: Iterable[tuple[str, bytes]], password: str | None) -> list[dict]:
    """Add each file with a live status box; one bad file never stops the others."""
    return [_ingest_one(library, name, data, password) for name, data in files]


def _ingest_one(library: Library, name: str, data: bytes, password: str | None) -> dict:
    label = escape_markdown(name)
    with st.status(f"Adding {label}", expanded=True) as box:
        bar = st.progress(0.0, text="Reading pages")

        def report(p: IngestProgress) -> None:
            share = p.done / p.total if p.total else 0.0
            bar.progress(min(1.0, share), text=progress_text(p))

        line = result_line(name, lambda: library.add_pdf(data, name, password=password, progress=report))
        box.update(
            label=f"{label}: {escape_markdown(line['text'])}",
            state="error" if line["status"] == "error" else "complete",
            expanded=False,
        )
    return line


def progress_text(p: IngestProgress) -> str:
    """What the progress bar says: the stage and how far it is ("Reading page 12 of 80 by OCR")."""
    if p.stage == "ocr":
        return f"Reading page {p.done} of {p.total} by OCR"
    counted = f" ({p.done} of {p.total} {'pages' if p.stage == 'read' else 'chunks'})" if p.total else ""
    return STAGES.get(p.stage, p.stage) + counted


def result_line(name: str, add: callable) -> dict:
    """Run one add and turn its outcome (or error) into a plain result line."""
    try:
        result: IngestResult = add()
    except PasswordRequired as exc:
        first = "the password is wrong" if exc.wrong_password else "is password-protected"
        text = f"{first}: type its password in the Password field and add it again"
        return {"file": name, "status": "error", "text": text}
    except IngestError as exc:
        text = str(exc).removeprefix(f"{name}: ")  # the line names the file already
        return {"file": name, "status": "error", "text": text}
    except Exception as exc:  # an internal failure must still not stop the other files
        log.exception("adding %s failed", name)
        return {"file": name, "status": "error", "text": f"could not be added ({type(exc).__name__}: {exc})"}
    if result.status == "skipped":
        return {"file": name, "status": "skipped", "text": "already in the library"}
    text = f"added: {result.doc.pages} pages, {result.chunks} chunks"
    if result.warnings:
        text += " (" + "; ".join(result.warnings) + ")"
    return {"file": name, "status": "ok", "text": text}


def show_results(results: list[dict]) -> None:
    """The last batch's result lines, escaped, with an icon per status."""
    show = {"ok": st.success, "skipped": st.info, "error": st.error}
    for line in results:
        box = show.get(line["status"], st.info)
        box(escape_markdown(f"{line['file']}: {line['text']}"), icon=ICONS.get(line["status"]))


def index_summary(library: Library, documents: list[Document]) -> str:
    """One line on what the index holds and how it was built (what an auditor asks first)."""
    config = library.config
    return (
        f"{sum(d.chunks for d in documents):,} chunks in {len(documents)} document(s), "
        f"up to {config.chunk_size:,} characters each with {config.chunk_overlap} overlap, "
        f"embedded with {config.embedding_name}."
    )


def document_rows(documents: list[Document]) -> list[dict]:
    """Plain rows for the documents table."""
    return [
        {
            "Title": d.title,
            "File": d.file_name,
            "Pages": d.pages,
            "Chunks": d.chunks,
            "Size": _size(d.size_bytes),
            "Added": d.added_at.replace("T", " ")[:16],
            "Warnings": "; ".join(d.warnings),
        }
        for d in documents
    ]


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{max(1, round(n / 1e3))} KB"


def offer_repair(missing: int, repair: Callable[[Callable[[IngestProgress], None]], list[str]]) -> None:
    """A button that re-embeds the chunks whose vectors are missing, with a progress bar."""
    if not st.button(f"Repair: re-embed {missing:,} chunks", icon=":material/build:"):
        return
    bar = st.progress(0.0, text="Re-embedding")
    try:
        repair(
            lambda p: bar.progress(
                p.done / p.total if p.total else 0.0, text=f"Re-embedding: {p.done} of {p.total} chunks"
            )
        )
    except IngestError as exc:  # the embedding endpoint failed: nothing was changed
        st.error(escape_markdown(str(exc)), icon=":material/error:")
        return
    st.rerun()
