"""Shared fixtures for the answering tests: tiny real PDFs and real libraries in tmp dirs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from fpdf import FPDF

from ingest.embeddings import HashEmbeddings
from ingest.local.library import Library

HASH_NAME = "fake:hash:384"


def make_pdf(pages: Sequence[str], title: str = "Test document") -> bytes:
    """A PDF with one page per text (core font, so latin-1 text only)."""
    pdf = FPDF(format="A4")
    pdf.set_title(title)
    pdf.set_font("Helvetica", size=11)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 6, text)
    return bytes(pdf.output())


def open_hash_library(path: Path, chunk_size: int = 400, chunk_overlap: int = 60) -> Library:
    """A real Library (SQLite + FAISS) with deterministic hashing embeddings."""
    return Library.open(
        path,
        HashEmbeddings(384),
        embedding_name=HASH_NAME,
        chunk_size=chunk_size,
        chunk_overlap=chunk_overlap,
    )


GARDEN = [
    "Tomatoes need full sun and regular watering. The gardener stakes each tomato plant in May. "
    "Basil grows well beside tomatoes and keeps some pests away.",
    "Compost is made from kitchen scraps and dry leaves. A compost heap must be turned every two "
    "weeks so that air reaches the middle. Finished compost smells like forest soil.",
    "The greenhouse was built in 1987 from recycled windows. It keeps seedlings warm during the "
    "cold nights of early spring.",
]
ENGINES = [
    "A steam engine turns the heat of burning coal into motion. James Watt improved the condenser "
    "in 1765, which made engines far more efficient.",
    "Diesel engines ignite their fuel by compression alone, without a spark plug. They are common "
    "in lorries, ships and generators.",
]


@pytest.fixture
def hash_library(tmp_path: Path) -> Library:
    """Two small documents (a garden guide and an engines primer) in a real library."""
    library = open_hash_library(tmp_path / "lib")
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    return library
