"""Smoke test of the bench command: missing and failing modules are recorded, the README is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import report, runner
from bench.__main__ import main
from bench.runner import Benchmark, Record


def _record(name: str, status: str, **extra: object) -> Record:
    machine = {"date_utc": "2026-01-01 00:00 UTC", "git_commit": "abc", "load_average_1m": 1.0}
    return Record(
        name=name,
        status=status,
        seconds=1.5,
        command="python -m bench all",
        quick=False,
        machine=machine,
        **extra,
    )


def test_missing_module_is_recorded_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(runner.BY_NAME, "ghost", Benchmark("ghost", "Ghost", "bench.no_such_module"))
    outcome = runner.child_entry("ghost")
    assert outcome == {"status": "missing", "reason": "bench/no_such_module.py is not there yet"}


def test_failing_module_is_recorded_with_its_reason(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "boom_bench.py").write_text("def run(quick=False):\n    raise ValueError('boom')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(runner.BY_NAME, "boom", Benchmark("boom", "Boom", "boom_bench"))
    outcome = runner.child_entry("boom", quick=True)
    assert outcome["status"] == "failed" and outcome["reason"] == "ValueError: boom"
    assert "raise ValueError" in outcome["traceback"]


def test_run_benchmark_goes_through_a_child_process() -> None:
    record = runner.run_benchmark("citations", quick=True, command="test")
    assert record.status == "ok" and record.result is not None
    assert record.result["rows"] and record.machine["cores"] >= 1


def test_readme_keeps_the_intro_and_renders_every_status(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(f"# Benchmarks\n\nHand-written words.\n\n{report.MARKER}\n\nold figures\n")
    records = {
        "citations": _record("citations", "ok", result={"markdown": "| figures |"}),
        "ui": _record("ui", "missing", reason="bench/ui.py is not there yet"),
        "ingest": _record("ingest", "failed", reason="RuntimeError: no corpus"),
        "eval": _record("eval", "ok", result={"hit_at_k": 0.9, "nested": {"precision": 0.5}}),
    }
    report.write_readme(records, path)
    text = path.read_text()
    assert text.startswith("# Benchmarks\n\nHand-written words.\n") and "old figures" not in text
    assert "| figures |" in text
    assert "**Not measured yet:** bench/ui.py is not there yet" in text
    assert "**Failed:**" in text and "RuntimeError: no corpus" in text
    assert "| nested.precision | 0.5 |" in text
    assert "Answer latency" in text and "Not run yet." in text
    report.write_readme(records, path)
    assert path.read_text() == text


def test_quick_run_prints_and_writes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    before = report.README.read_text() if report.README.exists() else None
    assert main(["citations", "--quick"]) == 0
    assert "Streaming citation parsing" in capsys.readouterr().out
    assert (report.README.read_text() if report.README.exists() else None) == before


def test_unknown_benchmark_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["nonsense"])
    assert exc.value.code == 2


def test_eval_without_run_goes_through_run_eval_and_render(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "fake_eval_a.py").write_text(
        "def run_eval(qa_path, limit=None):\n"
        "    return {'qa': str(qa_path), 'limit': limit}\n"
        "def render(result):\n"
        "    return 'rendered ' + str(result['limit'])\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(runner.BY_NAME, "eval", Benchmark("eval", "Eval", "fake_eval_a"))
    outcome = runner.child_entry("eval", quick=True)
    assert outcome["status"] == "ok"
    assert outcome["result"]["qa"] == str(runner.DEFAULT_QA)
    assert outcome["result"]["markdown"] == f"rendered {runner.QUICK_EVAL_QUESTIONS}"


def test_eval_with_only_main_keeps_what_it_prints(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "fake_eval_b.py").write_text(
        "def main(argv):\n    print('hit@k 0.9 for', argv[0])\n    return 0\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(runner.BY_NAME, "eval", Benchmark("eval", "Eval", "fake_eval_b"))
    outcome = runner.child_entry("eval")
    assert outcome == {"status": "ok", "result": {"markdown": "```\nhit@k 0.9 for --qa\n```"}}
    assert runner.child_entry("eval", quick=True)["status"] == "missing"


def test_a_failed_run_keeps_the_last_measurement(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(runner, "RESULTS_DIR", tmp_path)
    assert runner.save_record(_record("eval", "ok", result={"markdown": "hit@k 0.9"}))
    assert not runner.save_record(_record("eval", "failed", reason="CliError: schema 4"))
    kept = (tmp_path / "eval.json").read_text(encoding="utf-8")
    assert '"status": "ok"' in kept and "hit@k 0.9" in kept and "schema 4" not in kept
    assert runner.save_record(_record("boom", "failed", reason="ValueError: boom"))  # nothing to keep
    assert '"status": "failed"' in (tmp_path / "boom.json").read_text(encoding="utf-8")
