"""A lost or damaged database never costs a PDF or a vector: opening stops with one sentence,
and ``recover`` brings the documents back, searchable."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.embeddings import HashEmbeddings
from ingest.errors import LibraryDamaged, LibraryError
from ingest.local.library import Library, LibrarySettings
from ingest.local.recovery import recover
from tests.ingest.test_library import BEES, FOG, NAME, open_library

ROOT = Path(__file__).resolve().parents[2]


def _library_with_two(folder: Path) -> dict[str, str]:
    library = open_library(folder)
    return {
        library.add_pdf(FOG, "fog.pdf").doc.doc_id: "fog",
        library.add_pdf(BEES, "bees.pdf").doc.doc_id: "bees",
    }


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every stored PDF and the index, byte for byte."""
    files = {p.name: p.read_bytes() for p in (folder / "files").iterdir()}
    return files | {"index.faiss": (folder / "index.faiss").read_bytes()}


def _damage(db: Path, how: str) -> None:
    data = db.read_bytes()
    if how == "deleted":
        db.unlink()
    elif how == "empty":
        db.write_bytes(b"")
    elif how == "garbage header":
        db.write_bytes(b"\x00garbage!" * 12 + data[108:])
    elif how == "cut in half":
        db.write_bytes(data[: len(data) // 2])
    elif how == "recreated empty":  # what the old check did after the real one was lost
        db.unlink()
        conn = sqlite3.connect(db)
        conn.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE documents (doc_id TEXT PRIMARY KEY);"
        )
        conn.close()


def _recover(folder: Path):
    return recover(Library(folder, HashEmbeddings(), LibrarySettings(NAME, chunk_size=300, chunk_overlap=30)))


DAMAGES = ["deleted", "empty", "garbage header", "cut in half", "recreated empty"]


@pytest.mark.parametrize("how", DAMAGES)
def test_a_lost_database_deletes_nothing_and_says_how_to_recover(tmp_path: Path, how: str) -> None:
    _library_with_two(tmp_path)
    before = _snapshot(tmp_path)
    _damage(tmp_path / "library.sqlite3", how)
    for opener in (
        open_library,
        lambda d: Library.open_reader(
            d, HashEmbeddings(), embedding_name=NAME, chunk_size=300, chunk_overlap=30
        ),
    ):
        with pytest.raises(LibraryDamaged) as caught:
            opener(tmp_path)
        message = str(caught.value)
        assert "\n" not in message and "Traceback" not in message
        assert f"python -m cli.ingest recover --data-dir {tmp_path}" in message
        assert "nothing was changed or deleted" in message
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("how", DAMAGES)
def test_recover_brings_the_documents_back_searchable(tmp_path: Path, how: str) -> None:
    names = _library_with_two(tmp_path)
    _damage(tmp_path / "library.sqlite3", how)
    report = _recover(tmp_path)
    assert len(report.documents) == 2 and set(report.documents) == {"Fog", "Bees"}
    assert report.renamed == 2 and any("<doc_id>.pdf" in line for line in report.lines())
    if how != "deleted":
        assert (tmp_path / report.kept_as).exists()  # the damaged file is kept, never deleted
    library = open_library(tmp_path)
    assert library.open_report == [] and library.check() == []
    assert sorted(d.doc_id for d in library.documents()) == sorted(names)
    assert sum(d.chunks for d in library.documents()) == library.chunk_count() == report.chunks
    top = library.search_vector(library.embeddings.embed_query("honeybees dance clover hive"), 1)[0][0]
    assert names[top.doc_id] == "bees"
    assert {d.file_name for d in library.documents()} == {f"{i}.pdf" for i in names}


def test_recover_reuses_vectors_the_readable_rows_still_tie_to_chunks(tmp_path: Path) -> None:
    first = open_library(tmp_path)
    first.delete(first.add_pdf(BEES, "bees.pdf").doc.doc_id)  # so vector ids no longer start at 1
    _library_with_two(tmp_path)
    db = tmp_path / "library.sqlite3"
    conn = sqlite3.connect(db)
    page = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'chunks_by_doc'").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(db.read_bytes())
    data[(page - 1) * size : page * size] = (
        b"\xff" * size
    )  # an index page: rows still read, the file fails its check
    db.write_bytes(bytes(data))
    with pytest.raises(LibraryDamaged, match="is damaged"):
        open_library(tmp_path)
    killed = subprocess.run(
        [sys.executable, "-m", "tests.ingest.library_child", str(tmp_path), "saved", "--recover"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert killed.returncode < 0  # died after writing the new index, before the database was in place
    report = _recover(tmp_path)  # reads the set-aside file again; the index now holds the first run's ids
    assert report.reused == report.chunks > 0 and report.embedded == 0
    assert report.renamed == 0
    library = open_library(tmp_path)
    assert sorted(d.file_name for d in library.documents()) == ["bees.pdf", "fog.pdf"]
    assert (
        library.search_vector(library.embeddings.embed_query("relief keeper coal Tuesday"), 1)[0][
            0
        ].text.count("coal")
        == 1
    )
    embed = HashEmbeddings().embed_documents
    for chunk in library.chunks():  # every reused vector is its own chunk's
        assert library.search_vector(embed([chunk.text])[0], 1)[0][0].chunk_id == chunk.chunk_id


def test_recover_refuses_a_readable_library_and_an_empty_folder(tmp_path: Path) -> None:
    _library_with_two(tmp_path / "ok")
    with pytest.raises(LibraryError, match="is readable: nothing to recover"):
        _recover(tmp_path / "ok")
    with pytest.raises(LibraryError, match="holds no library"):
        _recover(tmp_path / "new")
    assert len(open_library(tmp_path / "ok").documents()) == 2


def test_an_unreadable_pdf_is_moved_aside_not_deleted(tmp_path: Path) -> None:
    names = _library_with_two(tmp_path)
    bees = next(i for i, n in names.items() if n == "bees")
    (tmp_path / "files" / f"{bees}.pdf").write_bytes(b"%PDF-1.4 truncated")
    (tmp_path / "library.sqlite3").unlink()
    report = _recover(tmp_path)
    assert report.documents == ("Fog",) and report.unreadable == (f"{bees}.pdf",)
    assert (tmp_path / "unrecovered" / f"{bees}.pdf").read_bytes() == b"%PDF-1.4 truncated"


def test_a_new_folder_is_still_created_by_a_writer(tmp_path: Path) -> None:
    library = open_library(tmp_path / "new")
    assert library.documents() == [] and (tmp_path / "new" / "library.sqlite3").exists()
    assert library.add_pdf(FOG, "fog.pdf").status == "ok"


# What FAISS's own errors look like ("Error in void faiss::read_xb_vector(...) at
# /project/faiss/impl/index_read.cpp:276: ..."): never in a sentence a user reads.
FAISS_WORDS = ("faiss::", ".cpp", "Error in", "read error")


def test_a_cut_index_is_named_in_our_words_and_faiss_s_detail_only_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _library_with_two(tmp_path)
    index = tmp_path / "index.faiss"
    index.write_bytes(index.read_bytes()[: index.stat().st_size // 3])
    reader = Library.open_reader(
        tmp_path, HashEmbeddings(), embedding_name=NAME, chunk_size=300, chunk_overlap=30
    )
    assert reader.open_report == [
        f"The vector index is damaged or incomplete ({index}), so answers are found by words only. "
        f"Repair: `python -m cli.ingest --check --data-dir {tmp_path}` or the Library page."
    ]
    assert "faiss::" in caplog.text and "the vector index is damaged or incomplete" in caplog.text
    writer = open_library(tmp_path)
    assert (
        writer.open_report[0]
        == "The vector index is damaged or incomplete; rebuilding it from the stored chunks."
    )
    assert not any(word in line for word in FAISS_WORDS for line in reader.open_report + writer.open_report)
    assert writer.check() == []


def test_rag_ask_on_a_cut_index_says_so_once_in_our_words(tmp_path: Path) -> None:
    import os

    _library_with_two(tmp_path)
    index = tmp_path / "index.faiss"
    index.write_bytes(index.read_bytes()[:100])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOOTNOTE_", "OPENAI_"))}
    env |= {
        "FOOTNOTE_EMBEDDING_PROVIDER": "fake",
        "FOOTNOTE_CHUNK_SIZE": "300",
        "FOOTNOTE_CHUNK_OVERLAP": "30",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cli.rag",
            "ask",
            "--data-dir",
            str(tmp_path),
            "Who arrives every second Tuesday?",
        ],
        cwd=ROOT,
        env=env | {"HOME": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "coal" in done.stdout  # still answered, by words
    assert [line for line in done.stderr.splitlines() if "vector index" in line] == [
        f"note: The vector index is damaged or incomplete ({index}), so answers are found by words only. "
        f"Repair: `python -m cli.ingest --check --data-dir {tmp_path}` or the Library page."
    ]
    assert not any(word in done.stderr for word in FAISS_WORDS), done.stderr
