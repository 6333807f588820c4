"""bench check_rules: its counts, its verdict on a rule, its section, and the table's figures
(rag.offline.rules.table) against the last saved run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.check_rules import effect, helps, tally
from bench.check_rules_report import effects, render, verdict
from rag.offline.rules.table import RULES, SETS

RECORD = Path(__file__).resolve().parents[2] / "bench" / "results" / "check_rules.json"


def _row(impossible: bool, answered: bool, cited: bool = False, contains: bool | None = None) -> dict:
    return {
        "impossible": impossible,
        "unsupported": False,
        "closest": not answered,
        "cited_gold": int(cited),
        "contains": contains,
    }


def test_a_rules_effect_counts_questions() -> None:
    every = tally([_row(True, False), _row(False, False, cited=True, contains=True), _row(False, True)])
    without = tally([_row(True, True), _row(False, True, cited=False, contains=False), _row(False, True)])
    found = effect(every, without)
    assert found == {"caught": 1, "declined": 1, "cited": 1, "gold": 1}
    assert not helps(found)
    assert helps({**found, "caught": 2})


def _result(changed_on: str) -> dict:
    """A run where only `swapped` changed answers, on one set: 2 caught for 1 declined."""
    sets = []
    for name in SETS:
        figures = {r.name: dict.fromkeys(("caught", "declined", "cited", "gold"), 0) for r in RULES}
        changes: dict[str, list] = {r.name: [] for r in RULES}
        if name == changed_on:
            figures["swapped"] = {"caught": 2, "declined": 1, "cited": 0, "gold": -1}
            changes["swapped"] = [
                {"id": "q1", "impossible": True, "reply": ["closest passages", "answered"]},
                {
                    "id": "q2",
                    "impossible": False,
                    "reply": ["closest passages", "answered"],
                    "cited_gold": [True, True],
                    "contains": [False, True],
                },
            ]
        tallies = dict.fromkeys(
            ("every rule", "no rule"),
            dict.fromkeys(
                (
                    "questions",
                    "unanswerable",
                    "unanswerable_answered",
                    "answerable",
                    "answerable_declined",
                    "cited",
                    "with_gold",
                    "gold",
                ),
                1,
            ),
        )
        sets.append({"name": name, "tallies": tallies, "effects": figures, "changes": changes})
    return {"k": 6, "sets": sets}


def test_a_rule_helping_only_where_read_off_is_named_with_its_changes() -> None:
    result = _result("squad-dev: Normans")  # swapped was read off squad-dev
    assert verdict(result, "swapped") == "**helps only where read off**"
    assert verdict(result, "label") == "**helps nowhere**"
    text = render(result)
    assert (
        "- squad-dev: Normans, `q2`: answerable, closest passages → answered; evidence page cited yes → yes; gold text no → yes"
        in text
    )
    assert "- squad-dev: Normans, `q1`: unanswerable, closest passages → answered" in text


def test_a_rule_helping_a_set_it_was_not_read_off_stays() -> None:
    result = _result("filings-dev: analyst")
    assert verdict(result, "swapped") == "helps filings-dev: analyst"
    assert effects(result)["swapped"][0].caught == 2


@pytest.mark.skipif(not RECORD.exists(), reason="bench check_rules has not been run")
def test_the_tables_figures_are_the_last_runs() -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    assert record["status"] == "ok"
    measured = effects(record["result"])
    assert {r.name: r.effects for r in RULES} == {name: measured[name] for name in measured}
