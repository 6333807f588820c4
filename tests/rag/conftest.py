"""Shared fixtures for the answering tests: tiny real PDFs and real libraries in tmp dirs, and the
same libraries on either backend (``backend``: the local library, then PostgreSQL on the suite's
one server), so that what rag answers is checked on both."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from fpdf import FPDF

from ingest.embeddings import HashEmbeddings
from ingest.local.library import Library
from ingest.team.library import PgLibrary
from ingest.types import LibraryReader
from rag.questions.read import Question
from rag.stores.migrate import migrate_library
from tests.pg.fixtures import new_database

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


BACKENDS = ("local", "team")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """A test that asks for it runs on the local library, then on PostgreSQL (team mode)."""
    return request.param


OpenLibrary = Callable[..., Any]


@pytest.fixture
def open_backend_library(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> OpenLibrary:
    """Opens a fresh, empty library of the test's backend (a folder, or a database of its own), with
    hashing embeddings unless given and open_hash_library's chunk sizes unless given."""
    folders = itertools.count()

    def open_library(embeddings: Any = None, **options: Any) -> Any:
        embeddings = embeddings if embeddings is not None else HashEmbeddings(384)
        options = {"embedding_name": HASH_NAME, "chunk_size": 400, "chunk_overlap": 60, **options}
        if backend == "local":
            return Library.open(tmp_path / f"lib{next(folders)}", embeddings, **options)
        return PgLibrary.open(new_database(request.getfixturevalue("pg_server")), embeddings, **options)

    return open_library


def acme_report(library: Any, pages: Sequence[str]) -> Any:
    """library with one PDF of these pages added, titled as an annual report."""
    library.add_pdf(make_pdf(pages, "Acme Corporation annual report"), "acme.pdf")
    return library


def first_evidence(library: Any, question: Question) -> str:
    """The text of the first evidence retrieved for the question."""
    from rag.retrieval.retrieve import search_evidence

    return search_evidence(library, question, k=1).evidence[0].text


def copy_to_team(local: Library, server: Any) -> PgLibrary:
    """The local library's documents in a fresh PostgreSQL library, vectors copied as stored (the
    same chunks and vectors: only the backend differs), opened with the same embeddings."""
    team = PgLibrary.open(new_database(server), local.embeddings, **local.config.recorded())
    migrate_library(local, team)
    return team


@pytest.fixture(scope="session")
def team_hash_library(pg_server: Any) -> PgLibrary:
    """hash_library's two documents in PostgreSQL, made once per session: tests only read it."""
    library = PgLibrary.open(
        new_database(pg_server),
        HashEmbeddings(384),
        embedding_name=HASH_NAME,
        chunk_size=400,
        chunk_overlap=60,
    )
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    return library


@pytest.fixture
def garden_library(backend: str, request: pytest.FixtureRequest) -> LibraryReader:
    """hash_library's two documents on the test's backend (the team one shared by the session)."""
    return request.getfixturevalue("hash_library" if backend == "local" else "team_hash_library")
