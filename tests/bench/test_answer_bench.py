"""Smoke test of bench/answer.py on a tiny library: one real PDF plus synthetic filler."""

from __future__ import annotations

from pathlib import Path

from bench import answer


def test_filler_texts_are_about_a_thousand_characters_of_corpus_words(corpus: Path) -> None:
    texts = answer.filler_texts(5, seed=3)
    assert len(texts) == 5 and len(set(texts)) == 5
    assert all(600 <= len(t) <= 1600 and t.endswith(".") for t in texts)
    assert answer.filler_texts(5, seed=3) == texts


def test_questions_are_answerable_and_spread_over_the_documents(corpus: Path) -> None:
    rows = answer.load_questions(9)
    assert len(rows) == 9 and not any(r["is_impossible"] for r in rows)
    assert len({r["doc_file"] for r in rows}) >= 2


def test_measure_size_builds_a_consistent_library_and_times_answers(corpus: Path, tmp_path: Path) -> None:
    base = tmp_path / "base"
    built = answer.build_base(str(base), pdfs=["Normans.pdf"])
    assert built["real_chunks"] > 0
    n = built["real_chunks"] + answer.CHUNKS_PER_DOC + 7
    row = answer.measure_size(n, str(base), questions=2, rounds=1, cold_runs=1)
    # build_library reopens the library and fails if its consistency check repaired anything.
    assert row["chunks"] == n and row["filler_docs"] == 2
    assert row["real_chunks"] == built["real_chunks"]
    for key in (
        "cold_first_ms",
        "cold_done_ms",
        "warm_first_p50_ms",
        "warm_done_p50_ms",
        "retrieval_p50_ms",
        "cold_load_chunks_ms",
        "cold_bm25_build_ms",
    ):
        assert row[key] > 0
    assert row["warm_first_p50_ms"] <= row["warm_done_p50_ms"]
    assert 0 <= row["cited_gold_page"] <= row["answered"] <= row["questions"] == 2
    markdown = answer.render([{**built, **row, "child_peak_rss_mb": 1.0}])
    assert f"| {n:,} (" in markdown
