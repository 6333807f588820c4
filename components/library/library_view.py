"""Library page pieces: the samples, the index summary, the documents table, the repair button.

No parsing or index logic here: uploads go to the library's job queue as bytes
(components/shared/resources.py, ``enqueue_files``) and their progress is components/library/jobs_view.py's.
PDF titles and file names are untrusted: they reach widget labels only through
``escape_markdown`` and tables only as plain cells.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import streamlit as st

from components.shared.render import escape_markdown
from ingest.errors import IngestError
from ingest.local.library import Library
from ingest.types import Document, IngestProgress

log = logging.getLogger(__name__)

SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"


def sample_files() -> list[tuple[str, bytes]]:
    """The sample PDFs shipped in samples/ as (file name, bytes)."""
    return [(p.name, p.read_bytes()) for p in sorted(SAMPLES_DIR.glob("*.pdf"))]


def index_summary(library: Library, documents: list[Document]) -> str:
    """One line on what the index holds and how it was built (what an auditor asks first)."""
    config = library.config
    return (
        f"{sum(d.chunks for d in documents):,} chunks in {len(documents)} document(s), "
        f"up to {config.chunk_size:,} characters each with {config.chunk_overlap} overlap, "
        f"embedded with {config.embedding_name}."
    )


def document_rows(documents: list[Document], vectors: dict[str, float] | None = None) -> list[dict]:
    """Plain rows for the documents table, by title (the library's order is the order ingest jobs
    ended, and two run at once); ``vectors``: the share embedded of documents that are searchable
    by words only so far (Library.vector_progress)."""
    vectors = vectors or {}
    return [
        {
            "Title": d.title,
            "File": d.file_name,
            "Pages": d.pages,
            "Chunks": d.chunks,
            "Searched by": (
                f"words only: vectors {int(vectors[d.doc_id] * 100)}% done"  # as answers say it (rag.retrieval.pending)
                if d.doc_id in vectors
                else "words and meaning"
            ),
            "Size": _size(d.size_bytes),
            "Added": d.added_at.replace("T", " ")[:16],
            "Warnings": "; ".join(d.warnings),
        }
        for d in sorted(documents, key=lambda d: (d.title.casefold(), d.file_name))
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
