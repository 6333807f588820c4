"""`python -m bench jobs --first-answer [N]`: its arguments, that it never saves, and its rendering
(made-up figures: nothing is measured here)."""

from __future__ import annotations

from typing import Any

import pytest

import bench.__main__ as bench_main
from bench import first_answer
from bench.__main__ import parse_args
from bench.runner import Record


def test_first_answer_runs_three_times_unless_told() -> None:
    assert parse_args(["jobs"]).first_answer == 0
    assert parse_args(["jobs", "--first-answer"]).first_answer == 3
    assert parse_args(["jobs", "--first-answer", "5"]).first_answer == 5


@pytest.mark.parametrize("argv", [["citations", "--first-answer"], ["jobs", "--first-answer", "-1"]])
def test_first_answer_is_for_the_jobs_benchmark_only(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        parse_args(argv)
    assert exc.value.code == 2


def test_first_answer_passes_its_runs_and_saves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, ...]] = []

    def fake_run(name: str, quick: bool, command: str, options: Any = None, timeout: Any = None) -> Record:
        calls.append((name, quick, options))
        return Record(name, "ok", 1.0, command, quick, {}, {"markdown": "| figures |"})

    monkeypatch.setattr(bench_main, "run_benchmark", fake_run)
    monkeypatch.setattr(bench_main, "save_record", lambda record: pytest.fail("saved a --first-answer run"))
    monkeypatch.setattr(bench_main, "write_readme", lambda records: pytest.fail("rewrote the README"))
    assert bench_main.main(["jobs", "--first-answer", "2"]) == 0
    assert calls == [("jobs", False, {"first_answer": 2})]


def _run(first: float, sync: float, cited: list[int], order: list[str]) -> dict[str, Any]:
    return {
        "words_s": first / 2,
        "first_answer_s": first,
        "read_before_s": first * 0.8,
        "sync_s": sync,
        "ratio": round(first / sync, 3),
        "read_before_ratio": round(first * 0.8 / sync, 3),
        "order": order,
        "cited_pages": cited,
        "read_before_cited_pages": [548],
        "cited_last_pages": bool(cited),
        "pages": 549,
        "load": [0.5, 0.7],
    }


def _result(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "runs": runs,
        "median": {k: first_answer._median([r[k] for r in runs]) for k in first_answer.MEASURED},
        "long_file": "LONG.pdf",
        "pages": 549,
        "neighbours": 3,
        "cores": 2,
        "commit": "abc1234",
        "full_run": "commit 25cbc64, 2026-12-02 02:21 UTC",
    }


def test_render_lists_every_run_and_names_the_full_run() -> None:
    cold_first, sync_first = ["cold", "read", "sync"], ["sync", "read", "cold"]
    text = first_answer.render(
        _result([_run(2.0, 40.0, [548], cold_first), _run(2.2, 41.0, [547], sync_first)])
    )
    assert text.count("\n| 1 |") == 1 and text.count("\n| 2 |") == 1 and "| median |" in text
    assert "p. 548; p. 548" in text and "| cold, read, sync |" in text and "| sync, read, cold |" in text
    assert "(met)" in text and "commit 25cbc64, 2026-12-02 02:21 UTC" in text and "abc1234" in text
    assert "24 filings through the queue against synchronous" in text


def test_render_says_not_met_when_a_run_missed_the_last_pages() -> None:
    order = ["cold", "read", "sync"]
    text = first_answer.render(_result([_run(2.0, 40.0, [548], order), _run(2.0, 40.0, [], order)]))
    assert "**not met**" in text and "**not the last pages**" in text and "p. none" in text
