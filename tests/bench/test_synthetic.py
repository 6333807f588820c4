"""bench/synthetic.py's generators and statistics, and the calibration benchmark's parts, on small
inputs (no timings)."""

from __future__ import annotations

import numpy as np
import pytest

from bench import pg_calibrate, pg_search, synthetic


def test_library_like_is_seeded_unit_length_and_in_random_row_order() -> None:
    a = synthetic.library_like(np.random.default_rng(3), 500, per_doc=50)
    b = synthetic.library_like(np.random.default_rng(3), 500, per_doc=50)
    assert a.shape == (500, synthetic.DIM) and a.dtype == np.float32
    assert np.array_equal(a, b)
    assert np.allclose(np.linalg.norm(a, axis=1), 1, atol=1e-5)
    # Rows are shuffled: neighbouring rows are mostly not of one document (they would be near 1).
    consecutive = np.sum(a[:-1] * a[1:], axis=1)
    assert np.median(consecutive) < 0.5


def test_library_like_is_far_more_clustered_than_isotropic() -> None:
    rng = np.random.default_rng(0)
    like = synthetic.neighbour_stats(synthetic.library_like(rng, 1500, per_doc=20))
    iso = synthetic.neighbour_stats(synthetic.isotropic(rng, synthetic.isotropic_centres(rng), 1500))
    # Real MiniLM chunks: nearest neighbour at cosine about 0.7, intrinsic dimension 6-15.
    assert like["nearest"] > 0.6 > 0.3 > iso["nearest"]
    assert like["lid"] < 25 < 50 < iso["lid"]
    assert like["pair_mean"] > 0.05 and abs(iso["pair_mean"]) < 0.02


def test_neighbour_stats_finds_the_dimension_of_a_flat_patch() -> None:
    rng = np.random.default_rng(1)
    plane = np.zeros((1200, 16))
    plane[:, 0] = 10.0  # a small patch on the sphere around one direction: locally 2-dimensional
    plane[:, 1:3] = rng.uniform(-1, 1, size=(1200, 2))
    stats = synthetic.neighbour_stats(plane)
    assert 1.5 < stats["lid"] < 2.8
    assert stats["nearest"] >= stats["tenth"]


def test_hnsw_recall_is_high_on_an_easy_set_and_grows_with_ef_search() -> None:
    v = synthetic.library_like(np.random.default_rng(2), 800, per_doc=40)
    recall = pg_calibrate.hnsw_recall(v, 40)
    assert len(recall) == len(pg_calibrate.EF_SEARCH)
    assert recall[-1] >= 0.9 and recall[-1] >= recall[0] - 0.02


def test_compare_rows_and_render() -> None:
    real = np.random.default_rng(4).normal(size=(300, synthetic.DIM)).astype(np.float32)
    rows = pg_calibrate.compare("noise", real, documents=10, queries=20)
    assert [r["label"].split(":")[0].split(",")[0] for r in rows] == [
        "real",
        "library-like",
        "isotropic (500 centres",
    ]
    assert rows[1]["label"] == "library-like, 30 chunks per document"
    assert all(r["n"] == 300 and 0 <= min(r["recall"]) <= max(r["recall"]) <= 1 for r in rows)
    text = pg_calibrate.render(
        [{"name": "noise", "documents": 10, "chunks": 300, "queries": 20, "rows": rows}]
    )
    assert "| real: noise | 300 |" in text and "20 for the noise" in text


def test_python_docs_reads_text_from_this_interpreter() -> None:
    texts = pg_calibrate.python_docs(limit=5)
    assert len(texts) == 5 and all(len(t) > 0 for t in texts)
    chunks = pg_calibrate.chunk_texts([[pg_calibrate._page(t)] for t in texts])
    assert chunks and all(len(c) <= pg_calibrate.CHUNK_SIZE for c in chunks)


@pytest.mark.parametrize("generator", [pg_search.LIBRARY_LIKE, pg_search.ISOTROPIC])
def test_search_bench_queries_are_not_rows_of_the_index(generator: str) -> None:
    data, queries = pg_search.synthetic_vectors(400, 10, generator)
    assert data.shape == (400, synthetic.DIM) and queries.shape == (10, synthetic.DIM)
    assert (queries @ data.T).max() < 0.9999
