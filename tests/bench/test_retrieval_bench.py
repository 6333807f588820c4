"""Smoke test of bench/retrieval.py on tiny libraries: vectors, both searches, IVF recall, child run."""

from __future__ import annotations

import numpy as np

from bench import retrieval


def test_vectors_are_unit_float32_and_deterministic() -> None:
    a = retrieval.make_vectors(300, seed=3, topics=10)
    b = retrieval.make_vectors(300, seed=3, topics=10)
    assert a.shape == (300, retrieval.DIM) and a.dtype == np.float32
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert np.array_equal(a, b)


def test_numpy_baseline_and_faiss_index_agree_on_the_top_k() -> None:
    matrix = retrieval.make_vectors(500, seed=1, topics=20)
    query = matrix[42]
    index = retrieval.build_flat_index(matrix)
    faiss_ids = index.search(query[None, :], retrieval.K)[1][0]
    numpy_ids = retrieval.search_numpy(matrix, query)
    assert numpy_ids[0] == 42 and faiss_ids[0] == 42
    assert set(numpy_ids.tolist()) == set(faiss_ids.tolist())


def test_measure_size_in_process_reports_both_structures_and_ivf() -> None:
    row = retrieval.measure_size(1_000, queries=5, rounds=2, ivf=True)
    assert row["chunks"] == 1_000 and row["numpy_agrees_with_faiss"] == 1.0
    for key in ("faiss_flat", "faiss_flat_1_thread", "numpy"):
        assert row[key]["p50_ms"] > 0 and row[key]["p95_ms"] >= row[key]["p50_ms"]
    assert [p["nprobe"] for p in row["ivf"]["probes"]] == [8, 32, 128]
    assert all(0 <= p["recall_at_k"] <= 1 for p in row["ivf"]["probes"])


def test_run_child_measures_in_a_separate_process_and_renders() -> None:
    from bench.common import run_child

    row = run_child("bench.retrieval:measure_size", {"n": 800, "queries": 4, "rounds": 1})
    assert row["child_peak_rss_mb"] > 0 and "ivf" not in row
    markdown = retrieval.render([row])
    assert "| 800 |" in markdown
