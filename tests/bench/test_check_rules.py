"""bench check_rules: a rule's effect from the answers it changes, whether it helps, which sets
are checks for it, its section, and the table's figures (rag.offline.rules.table) against the last
saved run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.check_rules import effect, helps
from bench.check_rules_report import effects, render, verdict
from rag.offline.rules.table import NORMANS, RULES, SEED0, SETS

RECORD = Path(__file__).resolve().parents[2] / "bench" / "results" / "check_rules.json"
BY_NAME = {r.name: r for r in RULES}
TALLY = dict.fromkeys(
    "questions unanswerable unanswerable_answered answerable answerable_declined cited with_gold gold".split(),
    1,
)


def _change(qid: str, impossible: bool, cited: bool = False, contains: bool | None = None) -> dict:
    """A question declined with the rule and answered without it (cited, contains: that answer)."""
    return {
        "id": qid,
        "impossible": impossible,
        "reply": ["closest passages", "answered"],
        "cited_gold": [True, cited],
        "contains": [None if contains is None else True, contains],
    }


def test_a_rules_effect_counts_the_answers_it_changes() -> None:
    changes = [_change("u", True), _change("w", False), _change("r", False, cited=True, contains=True)]
    found = effect(changes)
    assert found == {"caught": 1, "declined": 2, "wrong": 1, "cited": 1, "gold": 0}
    assert helps(found)  # two wrong answers stopped (one unanswerable) for one right one declined
    assert not helps(effect([_change("u", True), *[_change(q, False, cited=True) for q in "ab"]]))


def _result(changes_on: str, changes: list[dict]) -> dict:
    """A run where only `swapped` changed answers, on one set; squad-dev's sets hold q1 to q4."""
    ids = {name: [f"{name}-{n}" for n in range(3)] for name in SETS} | {NORMANS: ["q1", "q2", "q3", "q4"]}
    sets = [
        {
            "name": name,
            "ids": ids[name],
            "tallies": dict.fromkeys(("every rule", "no rule"), TALLY),
            "changes": {r.name: changes if (name, r.name) == (changes_on, "swapped") else [] for r in RULES},
        }
        for name in SETS
    ]
    return {
        "k": 6,
        "sets": sets,
        "samples": {SEED0: ["q1", "q2"], "squad-dev: seed-1 and seed-2 samples": []},
    }


def test_a_rule_helping_only_questions_it_was_read_off_is_named_with_its_changes() -> None:
    # swapped was read off the seed-0 sample and two articles: q1, q2 and all of Normans
    result = _result(
        NORMANS, [_change("q1", True), _change("q3", True), _change("q2", False, contains=False)]
    )
    assert verdict(result, BY_NAME["swapped"]) == "**helps only where read off**"
    assert verdict(result, BY_NAME["label"]) == "**helps nowhere**"
    text = render(result)
    assert "- squad-dev: Normans, `q1`: unanswerable, closest passages → answered" in text
    assert (
        "`q2`: answerable, closest passages → answered; evidence page cited yes → no; gold text yes → no"
        in text
    )


def test_squad_devs_questions_a_rule_was_not_read_off_are_a_check() -> None:
    # negation was read off the seed-0 sample only: q3 and q4 of the Normans are a check for it
    result = _result(NORMANS, [_change("q3", True)])
    result["sets"][0]["changes"]["negation"] = [_change("q3", True), _change("q1", True)]
    assert verdict(result, BY_NAME["negation"]) == "helps squad-dev: not read off"
    found = {e.on: e for e in effects(result)["negation"]}
    assert found["squad-dev: not read off"].caught == 1 and found[NORMANS].caught == 2


@pytest.mark.skipif(not RECORD.exists(), reason="bench check_rules has not been run")
def test_the_tables_figures_are_the_last_runs() -> None:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    assert record["status"] == "ok"
    measured = effects(record["result"])
    assert {r.name: r.effects for r in RULES} == measured
