"""The team-mode benchmarks' code on tiny inputs against a real PostgreSQL (no timings asserted):
exact search and recall, the bulk copy of a library, ingest workers, app processes."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from bench import pg_cold, pg_ingest, pg_search, pg_users
from bench.pg_common import new_database
from ingest.embeddings import HashEmbeddings
from ingest.local.library import Library
from ingest.team.library import PgLibrary
from tests.rag.conftest import ENGINES, GARDEN, make_pdf

HARBOUR = [
    "The harbour master logs every ship that enters the port. Ferries leave for the islands at dawn.",
    "Fishing boats unload their catch at the north quay before six in the morning.",
]
FAKE = {"embedding_name": "fake:hash:384", "chunk_size": 300, "chunk_overlap": 30}


def test_exact_top_matches_a_full_sort_and_recall_counts_overlap() -> None:
    rng = np.random.default_rng(5)
    data = rng.normal(size=(250_123 // 1000, 8)).astype(np.float32)
    queries = rng.normal(size=(7, 8)).astype(np.float32)
    truth = np.argsort(-(queries @ data.T), axis=1)[:, :3]
    assert np.array_equal(pg_search.exact_top(data, queries, 3), truth)
    assert pg_search.recall([5, 1, 9], np.array([9, 5, 2]), 3) == pytest.approx(2 / 3)


def test_search_bench_finds_the_exact_neighbours_in_both_indexes() -> None:
    row = pg_search.measure_size(600, queries=5, rounds=1)
    methods = row["methods"]
    assert set(methods) == {"faiss_flat", "pg_product"} | {
        f"pg_sql_ef{ef}" for ef in (40, 100, 200, 400, 800)
    }
    assert methods["faiss_flat"]["recall_at_10"] == 1.0  # exact index: exactly numpy's top 10
    # ef_search 200 over 600 vectors sees most of the graph: chunk ids map back to the right rows
    assert methods["pg_sql_ef200"]["recall_at_10"] >= 0.8 and methods["pg_product"]["recall_at_10"] >= 0.8
    assert all(m["p95_ms"] >= m["p50_ms"] > 0 for m in methods.values())
    assert row["index_build_s"] >= 0 and row["pg_index_mib"] > 0 and row["pgvector"].startswith("0.")
    assert "| 600 | library-like | local FAISS flat" in pg_search.render([row])


@pytest.fixture
def pdfs(tmp_path: Path) -> list[Path]:
    paths = []
    for name, pages in (("garden.pdf", GARDEN), ("engines.pdf", ENGINES), ("harbour.pdf", HARBOUR)):
        path = tmp_path / name
        path.write_bytes(make_pdf(pages, name))
        paths.append(path)
    return paths


def test_split_gives_every_file_once_largest_first_to_the_lighter_worker(pdfs: list[Path]) -> None:
    groups = pg_ingest.split(pdfs, 2)
    assert sorted(p.name for g in groups for p in g) == sorted(p.name for p in pdfs)
    largest = max(pdfs, key=lambda p: p.stat().st_size)
    assert [largest] in groups  # the largest alone, the other two together


def test_two_workers_store_every_file_once_and_a_reingest_skips(pg_server, pdfs: list[Path]) -> None:
    url = new_database(pg_server)
    done = pg_ingest.run_workers(url, pg_ingest.split(pdfs, 2), provider="fake")
    assert done["statuses"] == {p.name: "ok" for p in pdfs}
    contents = pg_ingest.library_contents(url)
    assert [name for name, _ in contents] == sorted(p.name for p in pdfs) and all(c > 0 for _, c in contents)
    again = pg_ingest.run_workers(url, [pdfs], provider="fake")
    assert set(again["statuses"].values()) == {"skipped"} and pg_ingest.library_contents(url) == contents


def test_app_processes_answer_every_users_questions(pg_server, pdfs: list[Path]) -> None:
    url = new_database(pg_server)
    pg_ingest.run_workers(url, [pdfs], provider="fake")
    questions = [["When is the tomato plant staked?"], ["Who improved the condenser?"]]
    result = pg_users.run_config(url, 2, 1, questions, provider="fake")
    assert result["answers"] == 2 and result["answers_per_s"] > 0
    assert result["done_p95_s"] >= result["done_p50_s"] > 0 and result["with_footnotes"] == 2


def test_copy_to_postgres_holds_the_local_library(pg_server, pdfs: list[Path], tmp_path: Path) -> None:
    local = Library.open(tmp_path / "data", HashEmbeddings(384), **FAKE)
    for path in pdfs:
        local.add_pdf(path.read_bytes(), path.name)
    url = new_database(pg_server)
    settings = SimpleNamespace(chunk_size=FAKE["chunk_size"], chunk_overlap=FAKE["chunk_overlap"])
    built = pg_cold.copy_to_postgres(local, url, FAKE["embedding_name"], settings)
    assert built["index_build_s"] >= 0
    copy = PgLibrary.open_reader(url, HashEmbeddings(384), **FAKE)  # the recorded settings match
    assert [d.doc_id for d in copy.documents()] == [d.doc_id for d in local.documents()]
    assert copy.chunks() == local.chunks()
    doc = local.documents()[0]
    assert copy.pages(doc.doc_id) == local.pages(doc.doc_id) and copy.pdf_bytes(
        doc.doc_id
    ) == local.pdf_bytes(doc.doc_id)
    for question in ("tomato plant staked in May", "steam engine condenser"):  # the vectors came along
        vector = HashEmbeddings(384).embed_query(question)
        assert [c.chunk_id for c, _ in copy.search_vector(vector, 2)] == [
            c.chunk_id for c, _ in local.search_vector(vector, 2)
        ]
