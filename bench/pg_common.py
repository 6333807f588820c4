"""Shared by the team-mode benchmarks (bench/pg_*.py): a throw-away PostgreSQL 16 + pgvector
(the pgserver package, as tests/pg/conftest.py starts it) and a bulk loader into the library's
own tables (ingest/team/store.py's schema), for libraries too large to ingest PDF by PDF here.

The loader writes what ``PgLibrary.store_document`` writes (documents with their PDF bytes,
pages, chunks with locators, context and vectors, the recorded settings) with COPY instead of
one INSERT per row, and builds the HNSW index once the rows are in (``pg_store.create_hnsw_index``,
the index ``fix_dimension`` makes), so its build time can be measured on its own.
"""

from __future__ import annotations

import itertools
import tempfile
import time
import warnings
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

# Index builds need the graph in memory: pgvector warns and slows down a lot once it outgrows
# maintenance_work_mem (64 MB by default, less than 100,000 384-d vectors). A deployment sets it
# for its index builds; these benchmarks set it on their database and say so.
MAINTENANCE_WORK_MEM = "2GB"
_names = itertools.count()


@contextmanager
def pg_server(prefix: str = "footnote-bench-pg-") -> Iterator[Any]:
    """A running pgserver.PostgresServer in a temporary folder, stopped and removed afterwards."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pgserver's RuntimeDirWarning (see tests/pg/conftest.py)
        import pgserver

        # Not in a 0700 folder of ours: running as root, pgserver starts postgres as its own user.
        with tempfile.TemporaryDirectory(prefix=prefix) as folder:
            server = pgserver.get_server(Path(folder) / "data", cleanup_mode="stop")
            try:
                yield server
            finally:
                server.cleanup()


def new_database(server: Any, stem: str = "footnote_bench", work_mem: str = MAINTENANCE_WORK_MEM) -> str:
    """A fresh empty database on the server (maintenance_work_mem raised); its URL."""
    name = f"{stem}_{next(_names)}"
    server.psql(f"CREATE DATABASE {name};")
    server.psql(f"ALTER DATABASE {name} SET maintenance_work_mem = '{work_mem}';")
    return server.get_uri(name)


def server_versions(url: str) -> dict[str, str]:
    """PostgreSQL's and pgvector's versions."""
    from ingest.team import connect as pg_connect

    with pg_connect.connect(url) as conn:
        pg = conn.execute("SHOW server_version").fetchone()[0]
        vec = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()[0]
    return {"postgresql": str(pg), "pgvector": str(vec)}


def bulk_load(
    url: str,
    documents: Iterable[tuple[Any, Sequence[Any], bytes]],
    chunks: Iterable[Any],
    matrix: np.ndarray,
    settings: dict[str, Any],
    hnsw: Any,
) -> dict[str, float]:
    """Create the schema, COPY documents (Document, pages, pdf bytes) and chunks (one row of
    matrix each, in order), record settings (embedding_name, chunk_size, chunk_overlap), then
    build the HNSW index; returns the seconds of the load and of the index build."""
    from psycopg.types.json import Jsonb

    from ingest.team import connect as pg_connect
    from ingest.team import store as pg_store

    dim = int(matrix.shape[1])
    started = time.perf_counter()
    with pg_connect.connect(url) as conn:
        pg_store.create_schema(conn)
        with conn.transaction():
            pg_store.fix_dimension(conn, dim, hnsw)  # as the first document does: typed column, index
            conn.execute("DROP INDEX footnote_chunks_hnsw")  # built below, once the rows are in
            pg_store.write_meta(conn, {**settings, "dim": dim})
        cur = conn.cursor()
        pages_rows: list[tuple] = []
        with cur.copy(
            "COPY footnote_documents (doc_id, title, file_name, pages, size_bytes, chunks, added_at, "
            "warnings, pdf) FROM STDIN"
        ) as copy:
            for doc, pages, pdf in documents:
                copy.write_row(pg_store.document_row(doc, pdf))
                pages_rows += [(doc.doc_id, p.index, p.label, p.text) for p in pages]
        with cur.copy("COPY footnote_pages (doc_id, page_index, label, text) FROM STDIN") as page_copy:
            for row in pages_rows:
                page_copy.write_row(row)
        with cur.copy(
            "COPY footnote_chunks (chunk_id, doc_id, ordinal, text, locators, context, embedding) "
            "FROM STDIN WITH (FORMAT BINARY)"
        ) as copy:
            copy.set_types(["text", "text", "int4", "text", "jsonb", "text", "vector"])
            for chunk, row in zip(chunks, matrix, strict=True):
                locators = [[x.page_index, x.page_label, x.char_start, x.char_end] for x in chunk.locators]
                copy.write_row(
                    (
                        chunk.chunk_id,
                        chunk.doc_id,
                        chunk.ordinal,
                        chunk.text,
                        Jsonb(locators),
                        chunk.context,
                        row,
                    )
                )
        conn.execute("ANALYZE")
        loaded = time.perf_counter()
        pg_store.create_hnsw_index(conn, hnsw)
        built = time.perf_counter()
        with conn.transaction():
            pg_store.bump_generation(conn)
    return {"load_s": round(loaded - started, 1), "index_build_s": round(built - loaded, 1)}


def relation_mib(url: str, name: str) -> float:
    """On-disk size of a table (with its TOAST) or index, in MiB."""
    from ingest.team import connect as pg_connect

    with pg_connect.connect(url) as conn:
        size = conn.execute("SELECT pg_total_relation_size(%s::regclass)", (name,)).fetchone()[0]
    return round(size / 2**20, 1)
