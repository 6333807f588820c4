"""bench/ui.py's own arithmetic: figures summarised per side, ratios today / before, the goal's
verdict, and footnote targets that never repeat the footnote just shown."""

from __future__ import annotations

from pathlib import Path

from bench import ui
from bench.ui_browser import Target


def _click(text: float, picture: float) -> dict[str, float]:
    return {"text_s": text, "picture_s": picture, "run_s": picture, "ws_bytes": 8000, "media_bytes": 0}


def _side(text: float, picture: float) -> dict:
    clicks = [_click(text, picture)] * 3
    return {"first": ui._summary(clicks), "next": ui._summary(clicks), "load_s": 3.0}


def test_the_table_gives_ratios_against_the_baseline_and_the_goals_verdict() -> None:
    row = {
        "turns": 30,
        "before": _side(0.8, 1.0),
        "now": _side(0.2, 0.3),
        "script_rerun": {"before": {"p50": 0.1, "p90": 0.1}, "now": {"p50": 0.1, "p90": 0.1}},
    }
    slow = {**row, "turns": 1, "now": _side(0.5, 0.6)}
    text = ui._render({"baseline": "abc1234", "rows": [row, slow], "load_average_1m": [1.5, 2.0]})
    lines = text.splitlines()
    today = [line for line in lines if line.startswith("| 30 | next") and "| today |" in line]
    assert today and today[0].rstrip().endswith("| met |")
    ratios = [line for line in lines if line.startswith("| 30 | next | today / before |")]
    assert ratios and ratios[0].startswith("| 30 | next | today / before | 0.25 | 0.25 | 0.30 | 0.30 |")
    assert any(line.startswith("| 1 | first") and line.rstrip().endswith("| not met |") for line in lines)
    assert "commit abc1234" in text and "1.5, 2.0" in text


def test_targets_cycle_backwards_and_never_repeat_the_footnote_just_shown(tmp_path: Path) -> None:
    from ingest.types import PageLocator
    from rag.stores.conversations import ConversationStore
    from rag.types import Answer, CitationSpan, Evidence, Footnote

    def footnote(number: int, sid: str, at: int) -> Footnote:
        loc = PageLocator(0, "1", 0, 10)
        ev = Evidence(sid, f"{sid}-chunk", "doc", "Title", "f.pdf", f"text of {sid}  here", 0.5, (loc,))
        return Footnote(number, sid, ev, (CitationSpan(sid, at, at + 9, at, at + 9),))

    notes = (footnote(1, "aaaa111", 0), footnote(2, "bbbb222", 20))
    answer = Answer("q", "x" * 40, notes, (), tuple(f.evidence for f in notes))
    store = ConversationStore(tmp_path / "conversations.sqlite3")
    conv = store.create()
    store.add_turn(conv, answer)
    targets = ui._footnote_targets(tmp_path, conv, 5)
    assert [t.short_id for t in targets] == ["bbbb222", "aaaa111", "bbbb222", "aaaa111", "bbbb222"]
    assert targets[0] == Target(1, "bbbb222", "textofbbbb222here")
