"""A small real library (PDFs made with fpdf2, real FAISS and SQLite) for the chat page tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from fpdf import FPDF

from ingest.embeddings import HashEmbeddings
from ingest.local.library import Library
from settings import load_settings

ROOT = Path(__file__).resolve().parents[2]
CHUNK_SIZE, CHUNK_OVERLAP = 180, 0  # small chunks: a few per page, so answers cite several

WATER = [
    "Water boils at one hundred degrees Celsius at sea level. At higher altitudes the boiling point "
    "drops because the air pressure is lower. Mountaineers therefore cook pasta for longer.",
    "Ice melts at zero degrees Celsius. Salt lowers the freezing point of water, which is why roads "
    "are salted in winter. Sea water freezes at about minus two degrees.",
]
HOSTILE = [
    "Attack text <img src=x onerror=window.__pwned=1> and <script>window.__pwned=1</script> here. "
    "A link [click me](javascript:window.__pwned=1) and **bold** markdown and $\\frac{a}{b}$ LaTeX. "
    "The hostile document explains nothing about boiling water.",
]


def answers(at) -> list:
    """The interactive answers an AppTest run drew (v2 components named footnote_answer; the side
    panel's click relay is one too, and is not an answer)."""
    return [el for el in at.get("bidi_component") if el.proto.component_name.endswith("footnote_answer")]


def make_pdf(pages: list[str], title: str = "") -> bytes:
    """A text PDF, one string per page."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    if title:
        pdf.set_title(title)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 8, text)
    return bytes(pdf.output())


def outlined_pdf(sections: dict[str, str]) -> bytes:
    """A text PDF with one bookmarked section a page (three or more make an outline the ingest
    trusts: ingest.pdf.sections), each page its title then its text."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for title, text in sections.items():
        pdf.add_page()
        pdf.start_section(title)
        pdf.multi_cell(0, 6, f"{title}\n{text}")
    return bytes(pdf.output())


TENK = {  # a filing's items, for the panel's section line
    "Item 1. Business": "The company makes kettles and sells them in Europe.",
    "Item 2. Properties": "The company owns one factory in Leeds.",
    "Item 3. Legal Proceedings": "The company is a defendant in a patent suit brought by Acme in Delaware.",
}


def build_library(
    data_dir: Path,
    docs: list[tuple[str, bytes]],
    chunk_size: int = CHUNK_SIZE,
    chunk_overlap: int = CHUNK_OVERLAP,
) -> Library:
    """A real library under data_dir with the fake (hashing) embeddings the settings name."""
    settings = load_settings(
        data_dir=data_dir, embedding_provider="fake", chunk_size=chunk_size, chunk_overlap=chunk_overlap
    )
    embeddings = HashEmbeddings(384)
    library = Library.open(
        data_dir,
        embeddings,
        embedding_name="fake:hash:384",
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
    )
    for name, data in docs:
        library.add_pdf(data, name)
    return library


@pytest.fixture
def app_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """FOOTNOTE_* settings pointing at a fresh data dir with two small PDFs, fake providers."""
    data_dir = tmp_path / "data"
    build_library(
        data_dir,
        [
            ("water.pdf", make_pdf(WATER, "Water facts")),
            ("hostile.pdf", make_pdf(HOSTILE, "<b>Evil</b> <script>x</script> title")),
        ],
    )
    monkeypatch.setenv("FOOTNOTE_DATA_DIR", str(data_dir))
    monkeypatch.setenv("FOOTNOTE_EMBEDDING_PROVIDER", "fake")
    monkeypatch.setenv("FOOTNOTE_LLM_PROVIDER", "fake")
    monkeypatch.setenv("FOOTNOTE_CHUNK_SIZE", str(CHUNK_SIZE))
    monkeypatch.setenv("FOOTNOTE_CHUNK_OVERLAP", str(CHUNK_OVERLAP))
    monkeypatch.chdir(ROOT)
    st.cache_resource.clear()
    st.cache_data.clear()
    yield data_dir
    st.cache_resource.clear()
    st.cache_data.clear()
