"""Whether a sentence or table row answers *this* question, checked before the offline answerer
presents it as the answer (issue 25): a quote that shares the question's words but not what it
asks for is given as closest passages instead, never as the answer. The rules are the rows of
rag.offline.rules.table, applied in its order; the first one that finds something decides."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rag.offline.rules.held import MIN_SUPPORT, support, unnamed_label, weak_support
from rag.offline.rules.quote import Quote
from rag.offline.rules.table import RULES
from rag.questions.read import Question

__all__ = [
    "DEFAULT",
    "MIN_SUPPORT",
    "OFF",
    "RULES",
    "Quote",
    "Rules",
    "Verdict",
    "check",
    "support",
    "unnamed_label",
]

NAMES = frozenset(rule.name for rule in RULES)


@dataclass(frozen=True)
class Rules:
    """Which rules of the table a check applies (all, or all but those off), with the support floor."""

    off: frozenset[str] = frozenset()
    min_support: float = MIN_SUPPORT

    def __post_init__(self) -> None:
        if unknown := self.off - NAMES:
            raise ValueError(f"no such rules: {', '.join(sorted(unknown))}")

    def on(self, name: str) -> bool:
        """Whether the rule of this name applies."""
        return name not in self.off

    def without(self, *names: str) -> Rules:
        """These rules and the given ones off."""
        return replace(self, off=self.off | frozenset(names))

    def only(self, *names: str) -> Rules:
        """Only the given rules on."""
        return replace(self, off=NAMES - frozenset(names))


DEFAULT = Rules()
OFF = Rules(off=NAMES)


@dataclass(frozen=True)
class Verdict:
    """The check's outcome: passed, or the rule that failed (its name in the table) and on what."""

    passed: bool
    rule: str = ""
    detail: str = ""


def check(question: Question, quote: Quote, rules: Rules = DEFAULT) -> Verdict:
    """Whether the quote answers the question: no rule that applies finds anything, in the
    table's order (the support floor is the check's one setting: rules.min_support)."""
    for rule in RULES:
        if not rules.on(rule.name):
            continue
        if rule.test is weak_support:
            found = weak_support(question, quote, rules.min_support)
        else:
            found = rule.test(question, quote)
        if found:
            return Verdict(False, rule.name, found)
    return Verdict(True)
