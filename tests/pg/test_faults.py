"""A database that cannot be used: one clear sentence, a non-zero exit, nothing written, and
never the password from the URL."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from ingest.embeddings import HashEmbeddings
from ingest.team.connect import masked
from ingest.team.library import PgLibrary
from tests.pg.test_backends import run
from tests.ports import refused_port
from tests.rag.conftest import GARDEN, make_pdf

SECRET = "s3cret-Pa55"


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    path = tmp_path / "garden.pdf"
    path.write_bytes(make_pdf(GARDEN, "Garden guide"))
    return path


def tables(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        return [
            r[0] for r in conn.execute("SELECT tablename FROM pg_tables WHERE tablename LIKE 'footnote%'")
        ]


def assert_refused(done, *words: str) -> None:
    assert done.returncode != 0, done.stdout + done.stderr
    message = (done.stdout + done.stderr).strip()
    assert SECRET not in message and "Traceback" not in message
    assert len(message.splitlines()) == 1, message
    for word in words:
        assert word in message, message


def test_masked_url_hides_the_password() -> None:
    assert (
        masked(f"postgresql://ann:{SECRET}@db.example:5432/lib") == "postgresql://ann:***@db.example:5432/lib"
    )
    assert SECRET not in masked(f"host=db user=ann password={SECRET} dbname=lib")
    assert masked("postgresql:///lib?host=/tmp") == "postgresql:///lib?host=/tmp"


@pytest.mark.parametrize("command", [["ingest"], ["rag", "ask", "anything?"]])
def test_server_that_is_down(command: list[str], pdf: Path, tmp_path: Path) -> None:
    args = [str(pdf)] if command == ["ingest"] else []
    with refused_port() as port:  # nothing can listen there while the command runs
        url = f"postgresql://ann:{SECRET}@127.0.0.1:{port}/lib"
        done = run(
            command[0],
            *command[1:],
            *args,
            env={"FOOTNOTE_DATABASE_URL": url, "FOOTNOTE_DATA_DIR": str(tmp_path / "d")},
        )
    assert_refused(done, "cannot connect to PostgreSQL", f"ann:***@127.0.0.1:{port}/lib")
    assert not (tmp_path / "d").exists()


def test_wrong_database_name(pg_server, pdf: Path, tmp_path: Path) -> None:
    url = pg_server.get_uri("no_such_database")
    done = run(
        "ingest", str(pdf), env={"FOOTNOTE_DATABASE_URL": url, "FOOTNOTE_DATA_DIR": str(tmp_path / "d")}
    )
    assert_refused(done, "cannot connect to PostgreSQL", "no_such_database")


def test_database_without_pgvector(pg_server, pg_url: str, pdf: Path, tmp_path: Path) -> None:
    database = pg_url.split("?")[0].rsplit("/", 1)[1]
    pg_server.psql(
        f"DROP ROLE IF EXISTS analyst; CREATE ROLE analyst LOGIN PASSWORD '{SECRET}'; "
        f"GRANT ALL ON DATABASE {database} TO analyst;"
    )
    with psycopg.connect(pg_url, autocommit=True) as conn:  # so that only the extension is missing
        conn.execute("GRANT ALL ON SCHEMA public TO analyst")
    host = pg_url.split("host=", 1)[1]
    url = f"postgresql://analyst:{SECRET}@/{database}?host={host}"
    done = run(
        "ingest", str(pdf), env={"FOOTNOTE_DATABASE_URL": url, "FOOTNOTE_DATA_DIR": str(tmp_path / "d")}
    )
    assert_refused(done, "no pgvector extension", "CREATE EXTENSION vector")
    assert tables(pg_url) == []


def test_database_made_by_another_embedding_model(pg_url: str, pdf: Path, tmp_path: Path) -> None:
    library = PgLibrary.open(
        pg_url,
        HashEmbeddings(384),
        embedding_name="openai:text-embedding-3-small",
        chunk_size=400,
        chunk_overlap=60,
    )
    library.add_pdf(make_pdf(["An older report about tides."], "Tides"), "tides.pdf")
    for command in (["ingest", str(pdf)], ["rag", "ask", "What about tides?"]):
        done = run(*command, env={"FOOTNOTE_DATABASE_URL": pg_url, "FOOTNOTE_DATA_DIR": str(tmp_path / "d")})
        assert_refused(done, "different settings", "openai:text-embedding-3-small")
    assert [d.file_name for d in library.documents()] == ["tides.pdf"]


def test_reindex_is_the_way_out_of_another_chunk_size(pg_url: str, pdf: Path, tmp_path: Path) -> None:
    env = {"FOOTNOTE_DATABASE_URL": pg_url, "FOOTNOTE_DATA_DIR": str(tmp_path / "d")}
    assert run("ingest", str(pdf), env=env).returncode == 0
    bigger = env | {"FOOTNOTE_CHUNK_SIZE": "800"}
    assert_refused(
        run("ingest", str(pdf), env=bigger), "different settings", "chunk_size: library 400, now 800"
    )
    done = run("ingest", "--reindex", env=bigger)
    assert done.returncode == 0, done.stderr
    library = PgLibrary.open_reader(
        pg_url, HashEmbeddings(384), embedding_name="fake:hash:384", chunk_size=800, chunk_overlap=60
    )
    (doc,) = library.documents()
    assert library.chunk_count() == doc.chunks and max(len(c.text) for c in library.chunks()) > 400
