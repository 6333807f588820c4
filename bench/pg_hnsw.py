"""pgvector HNSW recall@10 and latency against exact search, for the team-mode index settings.

``python -m bench.pg_hnsw [N] [GENERATOR] [M] [EF_CONSTRUCTION]`` (defaults 50000, library-like
(or isotropic), and the settings' defaults):
N synthetic 384-dimensional unit vectors from bench/synthetic.py and 200 more as queries, in a
PostgreSQL started by pgserver in a temporary folder. Prints the index build time, then recall@10 and recall@24 (retrieval's candidate count
at k=6) against exact inner product, and p50/p95 query times, per ef_search.
"""

from __future__ import annotations

import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

from bench.pg_common import MAINTENANCE_WORK_MEM
from bench.pg_search import LIBRARY_LIKE, MILLION_WORK_MEM, synthetic_vectors
from bench.synthetic import DIM
from ingest.team.store import HnswSettings

QUERIES = 200


def measure(conn: psycopg.Connection, data: np.ndarray, queries: np.ndarray, hnsw: HnswSettings) -> None:
    """Load, index, and query at several ef_search values, printing one line each."""
    conn.execute(f"CREATE TABLE v (id int PRIMARY KEY, e vector({DIM}))")
    with conn.cursor().copy("COPY v (id, e) FROM STDIN WITH (FORMAT BINARY)") as copy:
        copy.set_types(["int4", "vector"])
        for i, row in enumerate(data):
            copy.write_row((i, row))
    conn.execute(
        f"SET maintenance_work_mem = '{MILLION_WORK_MEM if len(data) >= 500_000 else MAINTENANCE_WORK_MEM}'"
    )
    started = time.perf_counter()
    conn.execute(
        f"CREATE INDEX ON v USING hnsw (e vector_ip_ops) WITH (m = {hnsw.m}, "
        f"ef_construction = {hnsw.ef_construction})"
    )
    print(
        f"N={len(data)} m={hnsw.m} ef_construction={hnsw.ef_construction}: "
        f"build {time.perf_counter() - started:.1f} s"
    )
    exact = np.argsort(-(queries @ data.T), axis=1)
    for ef in (40, 100, 200, 400):
        conn.execute(f"SET hnsw.ef_search = {ef}")
        times, r10, r24 = [], [], []
        for q, truth in zip(queries, exact):
            started = time.perf_counter()
            ids = [r[0] for r in conn.execute("SELECT id FROM v ORDER BY e <#> %s LIMIT 24", (q,))]
            times.append((time.perf_counter() - started) * 1000)
            r10.append(len(set(ids[:10]) & set(truth[:10])) / 10)
            r24.append(len(set(ids) & set(truth[:24])) / 24)
        print(
            f"  ef_search={ef}: recall@10 {np.mean(r10):.3f}, recall@24 {np.mean(r24):.3f}, "
            f"p50 {np.percentile(times, 50):.2f} ms, p95 {np.percentile(times, 95):.2f} ms"
        )


def main(
    n: int = 50_000, generator: str = LIBRARY_LIKE, m: int | None = None, ef_construction: int | None = None
) -> None:
    """Run the measurement on a throw-away server."""
    data, queries = synthetic_vectors(n, QUERIES, generator)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pgserver's RuntimeDirWarning (see tests/pg/conftest.py)
        import pgserver
    with tempfile.TemporaryDirectory(prefix="footnote-bench-pg-") as folder:
        server = pgserver.get_server(Path(folder) / "data", cleanup_mode="stop")
        try:
            with psycopg.connect(server.get_uri(), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
                register_vector(conn)
                defaults = HnswSettings()
                hnsw = HnswSettings(
                    m or defaults.m, ef_construction or defaults.ef_construction, defaults.ef_search
                )
                measure(conn, data, queries, hnsw)
        finally:
            server.cleanup()


if __name__ == "__main__":
    main(
        *(int(sys.argv[1]),) if len(sys.argv) > 1 else (),
        *sys.argv[2:3],
        *(int(a) for a in sys.argv[3:5]),
    )
