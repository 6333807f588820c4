"""The chunk context is stored, embedded with the text, and an old library without the column opens."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ingest.embeddings import HashEmbeddings
from ingest.local import store
from ingest.local.library import Library
from tests.ingest.test_context import _statement_pdf

TITLE = "Consolidated Statements of Cash Flows | (in millions) 2023 2022 2021"


class RecordingEmbeddings(HashEmbeddings):
    """Hash embeddings that remember every passage they embedded."""

    def __init__(self) -> None:
        super().__init__(64)
        self.seen: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.seen += texts
        return super().embed_documents(texts)


def _open(path: Path, embeddings: HashEmbeddings) -> Library:
    return Library.open(path, embeddings, embedding_name="fake:hash:64", chunk_size=250, chunk_overlap=40)


def test_context_is_stored_and_embedded_before_the_text(tmp_path: Path) -> None:
    embeddings = RecordingEmbeddings()
    library = _open(tmp_path / "lib", embeddings)
    library.add_pdf(_statement_pdf(), "northwind.pdf")
    rows = [c for c in library.chunks() if c.context == TITLE]
    assert rows, "the statement rows came back from SQLite without their context"
    assert all(f"{TITLE}\n{c.text}" in embeddings.seen for c in rows)
    library.reindex_all()
    assert {c.context for c in library.chunks()} >= {TITLE}


def test_a_library_made_before_the_context_column_opens_and_reads_empty_context(tmp_path: Path) -> None:
    library = _open(tmp_path / "lib", HashEmbeddings(64))
    library.add_pdf(_statement_pdf(), "northwind.pdf")
    before = library.chunks()
    with sqlite3.connect(library.db_path) as conn:  # what version 1 wrote
        conn.execute("ALTER TABLE chunks DROP COLUMN context")
        conn.execute("ALTER TABLE pages DROP COLUMN ocr")  # version 3's
        conn.execute("DROP TABLE jobs")  # version 4's
        conn.execute("ALTER TABLE pages DROP COLUMN sections")  # version 5's
        conn.execute("ALTER TABLE chunks DROP COLUMN sections")  # version 5's
        conn.execute("PRAGMA user_version = 1")
    reopened = _open(tmp_path / "lib", HashEmbeddings(64))
    after = reopened.chunks()
    assert [c.text for c in after] == [c.text for c in before]
    assert {c.context for c in after} == {""}
    with store.connect(library.db_path) as conn:
        # migrated to the newest version (2 added the context, 3 the pages' OCR, 4 the jobs table, 5 sections)
        assert conn.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION >= 2
