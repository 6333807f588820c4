"""Writers on PostgreSQL wait a bounded time for each other, as the local library's file lock:
after --lock-timeout, the same one sentence ("the library is busy") and exit status 1."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from ingest.embeddings import HashEmbeddings
from ingest.errors import LibraryBusy
from ingest.team import connect as pg_connect
from ingest.team import store as pg_store
from ingest.team.library import PgLibrary
from tests.pg.test_backends import run
from tests.rag.conftest import ENGINES, GARDEN, make_pdf

BUSY = "the library is busy (another ingest is running); try again when it has finished"


def open_pg(url: str, **options) -> PgLibrary:
    return PgLibrary.open(
        url, HashEmbeddings(384), embedding_name="fake:hash:384", chunk_size=400, chunk_overlap=60, **options
    )


@contextmanager
def another_writer(url: str) -> Iterator[None]:
    """A second real connection inside a writing transaction, holding the write lock."""
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (pg_store.WRITE_LOCK,))
        yield


def test_a_writer_waiting_longer_than_the_timeout_is_told_the_library_is_busy(pg_url: str) -> None:
    library = open_pg(pg_url, lock_timeout=0.2)
    garden = library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf").doc
    generation = library.generation
    with another_writer(pg_url):
        with pytest.raises(LibraryBusy) as caught:
            library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
        assert str(caught.value) == f"{pg_connect.masked(pg_url)}: {BUSY}"
        with pytest.raises(LibraryBusy):
            library.delete(garden.doc_id)
        with pytest.raises(LibraryBusy):
            open_pg(pg_url, lock_timeout=0).reindex_all()
        assert [d.file_name for d in library.documents()] == ["garden.pdf"]  # readers never wait
    assert library.generation == generation  # nothing was written
    assert library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf").status == "ok"
    assert library.delete(garden.doc_id)


def test_the_cli_gives_the_local_sentence_and_exit_status(pg_url: str, tmp_path: Path) -> None:
    pdf = tmp_path / "garden.pdf"
    pdf.write_bytes(make_pdf(GARDEN, "Garden guide"))
    env = {"FOOTNOTE_DATABASE_URL": pg_url, "FOOTNOTE_DATA_DIR": str(tmp_path / "d")}
    assert run("ingest", "--reindex", env=env).returncode == 0  # the tables exist; the library is empty
    with another_writer(pg_url):
        done = run("ingest", "--lock-timeout", "0.2", str(pdf), env=env)
    assert done.returncode == 1
    assert (done.stdout + done.stderr).strip() == f"error: {pg_connect.masked(pg_url)}: {BUSY}"
    assert open_pg(pg_url).documents() == []
    assert run("ingest", str(pdf), env=env).returncode == 0


def test_opening_a_library_whose_schema_is_there_takes_no_table_lock(pg_url: str) -> None:
    """A second worker starting while the first writes must not run DDL: ALTER TABLE and CREATE
    INDEX lock their tables even when there is nothing to do, and two workers started at once
    deadlocked that way (the page insert of one against the schema DDL of the other)."""
    open_pg(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as writer, writer.transaction():
        writer.execute(
            "LOCK TABLE footnote_pages, footnote_chunks IN ROW EXCLUSIVE MODE"
        )  # as an insert holds
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("SET lock_timeout = '2s'")
            pg_store.create_schema(conn)  # raised LockNotAvailable before: its ALTER TABLE waited
            assert pg_store.schema_current(conn)


def test_a_database_from_before_the_schema_version_is_migrated_once(pg_url: str) -> None:
    open_pg(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DELETE FROM footnote_meta WHERE key = 'schema_version'")
        assert not pg_store.schema_current(conn)
        pg_store.create_schema(conn)
        assert pg_store.schema_current(conn)
    assert open_pg(pg_url).chunk_count() == 0
