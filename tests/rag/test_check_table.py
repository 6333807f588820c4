"""The answer check's table (rag.offline.rules.table) is honest: every rule function of the rules
package is a row and every row's function is one, each row says what it catches with an example,
and each row's example is caught by its own rule and by no other."""

from __future__ import annotations

import inspect

import pytest

from rag.offline.check import DEFAULT, check
from rag.offline.rules import counts, held, order, ranks, roles
from rag.offline.rules.table import RULES, Rule
from rag.questions.read import read_question

FAMILIES = (held, order, ranks, roles, counts)


def _rule_functions() -> set[str]:
    """The public functions of the rule modules that take a question and a Quote."""
    found = set()
    for module in FAMILIES:
        for name in module.__all__:
            item = getattr(module, name)
            kinds = (
                [p.annotation for p in inspect.signature(item).parameters.values()][:2]
                if callable(item)
                else []
            )
            if inspect.isfunction(item) and kinds == ["Question", "Quote"]:
                found.add(f"{module.__name__}.{name}")
    return found


def test_every_rule_function_is_a_row_and_every_row_one() -> None:
    rows = {f"{r.test.__module__}.{r.test.__name__}" for r in RULES}
    assert rows == _rule_functions()
    assert len({r.name for r in RULES}) == len(RULES)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_each_row_has_its_fields(rule: Rule) -> None:
    assert rule.name and rule.example.question and rule.example.quote.text
    assert rule.catches and "\n" not in rule.catches


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_each_example_is_caught_by_its_rule_alone(rule: Rule) -> None:
    question, quote = read_question(rule.example.question), rule.example.quote
    caught = [r.name for r in RULES if not check(question, quote, DEFAULT.only(r.name)).passed]
    assert caught == [rule.name]
    assert check(question, quote).rule == rule.name


def test_rules_off_and_only_name_rows() -> None:
    with pytest.raises(ValueError, match="no such rules: nonesuch"):
        DEFAULT.without("nonesuch")
    assert [r.name for r in RULES if DEFAULT.only("moved").on(r.name)] == ["moved"]
