"""bench/computed.py: a computed figure judged against the gold one, from a table of cases; and
filings-dev's computed questions all carry a gold figure (issue 39)."""

from __future__ import annotations

import pytest

from bench import real_filings
from bench.computed import figure_matches, figures_by_group, gold_figure, judge_figure, summarize_figures
from rag.types import Answer, Computed


@pytest.mark.parametrize(
    ("result", "unit", "gold", "matches"),
    [
        ("0.83", "ratio", "0.83", True),
        ("0.826", "ratio", "0.83", True),  # equal at the gold's rounding
        ("1832", "USD millions", "1832.00", True),
        ("3215.4", "USD millions", "3215.00", True),  # within 0.5%
        ("4135", "USD millions", "4126", True),  # 0.2% off
        ("76.2", "%", "76.7", False),  # 0.65% off
        ("1.42", "%", "0.01", True),  # 1.42% is the fraction 0.0142, 0.01 at two decimals
        ("0.86", "ratio", "86.0", True),  # a fraction and its percentage
        ("-1.5", "%", "-1.5", True),
        ("1.5", "%", "-1.5", False),
        ("n/a", "%", "1", False),
    ],
)
def test_figure_matches(result: str, unit: str, gold: str, matches: bool) -> None:
    assert figure_matches(result, unit, gold) is matches


@pytest.mark.parametrize(
    ("text", "figure"), [("$1832.00", "1832.00"), ("65.4%", "65.4"), ("0.66", "0.66"), ("$3,215", "3215")]
)
def test_gold_figure_reads_an_answer(text: str, figure: str) -> None:
    assert gold_figure(text) == figure


def _answer(computed: Computed | None) -> Answer:
    return Answer("q", "t", (), (), (), computed=computed)


def test_judge_and_summarize_figures() -> None:
    def figure(result: str) -> Computed:
        return Computed("a / b", (), result, "ratio")

    rows = [
        {
            "id": "a",
            "group": "ours computed",
            "figure": judge_figure({"gold_result": "0.5"}, _answer(figure("0.50"))),
        },
        {
            "id": "b",
            "group": "ours computed",
            "figure": judge_figure({"gold_result": "0.5"}, _answer(figure("0.7"))),
        },
        {
            "id": "c",
            "group": "financebench computed",
            "figure": judge_figure({"gold_result": "2"}, _answer(None)),
        },
        {"id": "d", "group": "ours fact", "figure": judge_figure({}, _answer(None))},
    ]
    assert [r["figure"] for r in rows] == ["correct", "wrong", "none", None]
    summary = summarize_figures(rows)
    assert summary == {
        "computed": 3,
        "figure_given": 0.667,
        "figure_correct": 0.333,
        "figure_wrong": 0.333,
        "wrong_ids": ["b"],
    }
    assert set(figures_by_group(rows)) == {"all", "financebench", "ours"}


@pytest.mark.skipif(not real_filings.FILINGS_DEV.is_dir(), reason="needs ../shared/corpus/filings-dev")
def test_every_computed_question_of_filings_dev_has_a_gold_figure() -> None:
    computed = [q for q in real_filings.questions() if q.get("category") == "computed"]
    assert len(computed) == 83
    assert all(q.get("gold_result") not in (None, "") for q in computed)
    assert {q["source"] for q in computed} == {"financebench", "ours"}
