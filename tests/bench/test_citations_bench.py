"""Smoke test of bench/citations.py on tiny answers: code paths, result shape, parser parity."""

from __future__ import annotations

import pytest

from bench import citations


def test_synthetic_answer_has_the_asked_number_of_deltas_and_a_citation_per_sentence() -> None:
    deltas = citations.make_answer(300)
    text = "".join(deltas)
    assert len(deltas) == 300
    assert all(2 <= len(d) <= 6 for d in deltas[:-1])
    sentences = text.count("]. ")
    assert sentences >= 5
    assert len(citations.parse_citation_stream(deltas)) >= sentences


@pytest.mark.parametrize("tokens", [50, 200, 777])
def test_both_parsers_find_the_same_citations(tokens: int) -> None:
    deltas = citations.make_answer(tokens, seed=tokens)
    ours = citations.parse_citation_stream(deltas)
    theirs = citations.parse_r2r_style(deltas)
    assert sorted(ours, key=lambda f: f[1]) == sorted(theirs, key=lambda f: f[1])
    assert citations.parse_citation_stream(deltas, take_safe=True) == ours
    assert citations.check_parity(deltas) == len(ours)
    ids = [f[0] for f in ours]
    assert [f[3] for f in ours] == [cid not in ids[:i] for i, cid in enumerate(ids)]


def test_parity_check_fails_when_the_parsers_disagree() -> None:
    # A grouped marker is one the R2R regex does not know: the check must notice.
    deltas = ["Heat flow [abcd123", ", efgh567] rises. ", "More [ijkl890]."]
    with pytest.raises(AssertionError, match="parsers disagree"):
        citations.check_parity(deltas)


def test_r2r_style_reports_each_span_once_even_when_rescanned() -> None:
    deltas = ["A [abcd", "123] b [abcd123", "] c."]
    assert citations.parse_r2r_style(deltas) == [("abcd123", 2, 11, True), ("abcd123", 14, 23, False)]


def test_run_quick_returns_rows_and_markdown() -> None:
    result = citations.run(quick=True)
    assert [r["tokens"] for r in result["rows"]] == list(citations.QUICK_SIZES)
    for row in result["rows"]:
        assert row["citations"] > 0
        assert row["citation_stream_ms"] > 0 and row["r2r_style_ms"] > 0
        assert row["citation_stream_take_safe_us_per_token"] > 0
        assert row["speedup"] > 0
    assert result["goal_met"] is None
    assert "| answer tokens |" in result["markdown"]
