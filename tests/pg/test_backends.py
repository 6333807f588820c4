"""The same behaviour on both backends, through the real CLIs in subprocesses: the local folder
(FAISS + SQLite) and PostgreSQL + pgvector (FOOTNOTE_DATABASE_URL)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.backend import library_class
from settings import load_settings
from tests.rag.conftest import ENGINES, GARDEN, make_pdf

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["local", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> dict[str, str]:
    """FOOTNOTE_* variables choosing one backend (and a data folder, which PostgreSQL ignores)."""
    env = {"FOOTNOTE_DATA_DIR": str(tmp_path / "data")}
    if request.param == "postgres":
        env["FOOTNOTE_DATABASE_URL"] = request.getfixturevalue("pg_url")
    return env


@pytest.fixture
def pdfs(tmp_path: Path) -> Path:
    folder = tmp_path / "pdfs"
    folder.mkdir()
    (folder / "garden.pdf").write_bytes(make_pdf(GARDEN, "Garden guide"))
    (folder / "engines.pdf").write_bytes(make_pdf(ENGINES, "Engines primer"))
    return folder


def run(command: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    """``python -m cli.<command> ARGS...`` (command: "ingest" or "rag") with the fake embeddings."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("FOOTNOTE_", "OPENAI_"))}
    environ.update(FOOTNOTE_EMBEDDING_PROVIDER="fake", FOOTNOTE_CHUNK_SIZE="400", FOOTNOTE_CHUNK_OVERLAP="60")
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-m", f"cli.{command}", *args],
        check=False,
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def ingest(*args: str, env: dict[str, str]) -> list[dict]:
    done = run("ingest", "--json", *args, env=env)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def ask(question: str, env: dict[str, str]) -> dict:
    done = run("rag", "ask", "--json", "--k", "2", question, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def open_library(env: dict[str, str]):
    settings = load_settings(
        data_dir=Path(env["FOOTNOTE_DATA_DIR"]),
        embedding_provider="fake",
        chunk_size=400,
        chunk_overlap=60,
        database_url=env.get("FOOTNOTE_DATABASE_URL"),
    )
    from ingest.embeddings import HashEmbeddings

    return library_class(settings).open(
        settings.data_dir,
        HashEmbeddings(384),
        embedding_name="fake:hash:384",
        chunk_size=400,
        chunk_overlap=60,
    )


def test_ingest_then_reingest_is_a_no_op(backend: dict[str, str], pdfs: Path) -> None:
    first = ingest(str(pdfs), env=backend)
    assert sorted((r["file"].rsplit("/", 1)[1], r["status"]) for r in first) == [
        ("engines.pdf", "ok"),
        ("garden.pdf", "ok"),
    ]
    again = ingest(str(pdfs), env=backend)
    assert {r["status"] for r in again} == {"skipped"}
    assert len(open_library(backend).documents()) == 2
    local_files = (Path(backend["FOOTNOTE_DATA_DIR"]) / "library.sqlite3").exists()
    assert local_files != ("FOOTNOTE_DATABASE_URL" in backend)  # PostgreSQL leaves the folder alone


def test_ask_cites_the_right_page(backend: dict[str, str], pdfs: Path) -> None:
    ingest(str(pdfs), env=backend)
    data = ask("When was the greenhouse built?", backend)
    assert "1987" in data["answer"] and data["unsupported"] is False
    footnote = data["footnotes"][0]
    assert (footnote["file"], footnote["page_index"], footnote["page_label"]) == ("garden.pdf", 2, "3")


def test_deleted_document_is_no_longer_cited(backend: dict[str, str], pdfs: Path) -> None:
    ingest(str(pdfs), env=backend)
    library = open_library(backend)
    garden = next(d for d in library.documents() if d.file_name == "garden.pdf")
    assert library.delete(garden.doc_id) and not library.delete(garden.doc_id)
    data = ask("When was the greenhouse built?", backend)
    assert all(f["file"] != "garden.pdf" for f in data["footnotes"])
    assert [d.file_name for d in library.documents()] == ["engines.pdf"]
