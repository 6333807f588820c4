"""The suite's own PostgreSQL: every test database can have pgvector with an HNSW index."""

from __future__ import annotations

import psycopg


def test_fresh_database_offers_pgvector_with_hnsw(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT COUNT(*) FROM pg_extension WHERE extname = 'vector'").fetchone()[0] == 0
        conn.execute("CREATE EXTENSION vector")
        conn.execute("CREATE TABLE t (v vector(3))")
        conn.execute("CREATE INDEX ON t USING hnsw (v vector_ip_ops)")
        conn.execute("INSERT INTO t VALUES ('[1,0,0]'), ('[0,1,0]')")
        assert (
            conn.execute("SELECT v::text FROM t ORDER BY v <#> '[0,1,0]' LIMIT 1").fetchone()[0] == "[0,1,0]"
        )
