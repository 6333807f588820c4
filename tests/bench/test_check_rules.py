"""bench check_rules: a question's reply under any rules, a rule's effect from the answers it
changes, whether it helps, which sets are checks for it, the order rules go in and its section."""

from __future__ import annotations

from bench.check_rules import (
    GROUPS,
    NORMANS,
    NOT_READ_OFF,
    READ_OFF,
    SEED0,
    SEEDS12,
    SETS,
    changes,
    effect,
    helps,
    outcome,
    rules,
    tally,
)
from bench.check_rules_report import effects, eliminate, render, verdict
from rag.offline.check import RULES

EVERY = frozenset(READ_OFF)
BY_NAME = {r["name"]: r for r in rules()}
CLOSEST = {"reply": "closest passages", "cited": True, "contains": True}


def _row(
    qid: str, failing: list[str], impossible: bool, cited: bool = False, contains: bool | None = None
) -> dict:
    """A question whose best quote these rules fail; its answer without them cites the evidence
    page or not, holds the gold text or not (None: none to hold)."""
    answer = {"reply": "answered", "cited": cited, "contains": contains}
    return {
        "id": qid,
        "impossible": impossible,
        "failing": failing,
        "with": CLOSEST | {"contains": None if contains is None else True} if failing else answer,
        "without": answer,
    }


def test_a_reply_is_declined_when_a_rule_on_fails_it() -> None:
    row = _row("q", ["renamed", "inserted"], True)
    assert outcome(row, frozenset({"inserted"}))["reply"] == "closest passages"
    assert outcome(row, frozenset({"moved"}))["reply"] == "answered"
    assert changes([row], frozenset({"renamed", "inserted"}), "renamed") == []  # inserted still fails it
    assert len(changes([row], frozenset({"renamed"}), "renamed")) == 1
    assert tally([row], frozenset())["unanswerable_answered"] == 1


def test_a_rules_effect_counts_the_answers_it_changes() -> None:
    rows = [_row("u", ["moved"], True), _row("w", ["moved"], False), _row("r", ["moved"], False, True, True)]
    found = effect(changes(rows, EVERY, "moved"))
    assert found == {"caught": 1, "declined": 2, "wrong": 1, "mended": 0, "cited": 1, "gold": 0}
    assert helps(found)  # two wrong answers stopped (one unanswerable) for one right one declined
    right = [_row("u", ["moved"], True), *[_row(q, ["moved"], False, cited=True) for q in "ab"]]
    assert not helps(effect(changes(right, EVERY, "moved")))


def test_a_wrong_answer_the_check_replaces_by_a_right_one_counts_as_mended() -> None:
    # With the rule the check takes its next quote, which cites the evidence page; without it, the
    # first quote, which cites no evidence page and holds no gold text.
    wrong = {"reply": "answered", "cited": False, "contains": False}
    right = {"reply": "answered", "cited": True, "contains": False}
    mended = {"id": "m", "impossible": False, "failing": ["moved"], "with": right, "without": wrong}
    declined = _row("d", ["moved"], False, cited=True)  # a right answer the rule declines
    found = effect(changes([mended, declined], EVERY, "moved"))
    assert found == {"caught": 0, "declined": 1, "wrong": 0, "mended": 1, "cited": 1, "gold": 0}
    assert not helps(found)  # one wrong answer mended for one right one declined: no gain
    marred = {**mended, "with": wrong, "without": right}
    assert effect(changes([marred], EVERY, "moved"))["mended"] == -1
    assert helps(effect(changes([mended, _row("u", ["moved"], True), declined], EVERY, "moved")))


def _result(rows_on: dict[str, list[dict]]) -> dict:
    """A run whose sets hold these rows (the Normans also q1 to q4, answered by every rule)."""
    sets = []
    for name in SETS:
        rows = rows_on.get(name, [])
        if name == NORMANS:
            rows = rows + [
                _row(q, [], False) for q in ("q1", "q2", "q3", "q4") if q not in {r["id"] for r in rows}
            ]
        sets.append({"name": name, "rows": rows})
    return {"k": 6, "rules": rules(), "sets": sets, "samples": {SEED0: ["q1", "q2"], SEEDS12: []}}


def test_a_rule_helping_only_questions_it_was_read_off_goes_with_its_changes() -> None:
    # renamed was read off the Normans (all of its questions)
    result = _result(
        {NORMANS: [_row("q1", ["renamed"], True), _row("q2", ["renamed"], False, contains=False)]}
    )
    assert verdict(result, BY_NAME["renamed"]) == "**helps only where read off**"
    assert verdict(result, BY_NAME["moved"]) == "**helps nowhere**"
    assert "renamed" in [rule["name"] for rule, _ in eliminate(result)]  # with every rule doing nothing
    text = render(result)
    assert "- squad-dev: Normans, `q1`: unanswerable, closest passages → answered" in text
    assert (
        "`q2`: answerable, closest passages → answered; evidence page cited yes → no; gold text yes → no"
        in text
    )


def test_squad_devs_questions_a_rule_was_not_read_off_are_a_check() -> None:
    # negation was read off the seed-0 sample only: q3 of the Normans is a check for it
    result = _result({NORMANS: [_row("q3", ["negation"], True), _row("q1", ["negation"], True)]})
    assert verdict(result, BY_NAME["negation"]) == "helps squad-dev: not read off"
    found = effects(result)["negation"]
    assert found[NOT_READ_OFF]["caught"] == 1 and found[NORMANS]["caught"] == 2
    assert set(found) == {NORMANS, NOT_READ_OFF}  # only the sets where it changes an answer


def test_a_rule_left_alone_on_a_question_helps_once_the_other_is_gone() -> None:
    # a trap of the wording set that renamed and reversed both catch: neither alone changes it;
    # once renamed (read off the Normans, doing least there) goes, reversed is its only catcher
    wording = [_row("fw", ["renamed", "reversed"], True)]
    normans = [_row("q3", ["reversed"], True), _row("q4", ["reversed"], True)]
    result = _result({"filings-dev: wording": wording, NORMANS: normans})
    assert verdict(result, BY_NAME["reversed"]) == "**helps only where read off**"
    gone = [rule["name"] for rule, _ in eliminate(result)]
    assert "renamed" in gone and "reversed" not in gone


def test_every_rule_of_the_check_is_measured_with_the_sets_it_was_read_off() -> None:
    assert [r["name"] for r in rules()] == [r.name for r in RULES]
    assert set(READ_OFF) == {r.name for r in RULES}
    for name, read_off in READ_OFF.items():
        assert read_off and set(read_off) <= set(GROUPS), name
