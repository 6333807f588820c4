"""The answer check's rules, one row each, in the order the check applies them: the function, what
it catches and an example it catches. What each rule does on the question sets, and how each was
found: bench/README.md ("How the rules were found", "Answer check, rule by rule")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rag.offline.rules import counts, held, order, ranks, roles
from rag.offline.rules.quote import Quote
from rag.questions.read import Question

__all__ = ["RULES", "Example", "Rule"]


@dataclass(frozen=True)
class Example:
    """A question and a quote the rule catches."""

    question: str
    quote: Quote


Test = Callable[[Question, Quote], str]


@dataclass(frozen=True)
class Rule:
    """One rule of the check: its test says what it found wrong with a quote ("" for nothing)."""

    name: str
    test: Test
    catches: str
    example: Example


RULES = (
    Rule(
        "asked_for",
        held.asked_for,
        "no answer of the kind asked for: an amount, a date, a name, a statement for a yes/no",
        Example("When did the Acmeans reach Italy?", Quote("The Acmeans reached Italy by sea.")),
    ),
    Rule(
        "specific",
        held.specific,
        "a name, number or qualifier of the question missing, or a number or quarter replaced",
        Example("What did Acme Foods sell in Asia?", Quote("Acme sold jets in Asia.")),
    ),
    Rule(
        "negation",
        held.negation,
        "a negated question and a quote that is not negated",
        Example("What does not hide constant factors?", Quote("Big O notation hides constant factors.")),
    ),
    Rule(
        "moved",
        order.moved,
        "the question's qualifier on other words in the quote",
        Example(
            "What is the second-largest inland harbour?",
            Quote("Acme Bay is the largest inland harbour; Beta Bay is the second largest sea harbour."),
        ),
    ),
    Rule(
        "inserted",
        order.inserted,
        "words the question puts between two the quote holds side by side: a narrower thing",
        Example(
            "What is the busiest single runway airport?",
            Quote("Acme Field is the busiest airport in the region."),
        ),
    ),
    Rule(
        "reversed",
        roles.reversed_roles,
        "a name of the question on the other side of the same verb",
        Example("Who did Edgar marry?", Quote("King Malcolm married Edgar's sister Margaret.")),
    ),
    Rule(
        "outranked",
        ranks.outranked,
        "the question's words only below the first place (second busiest, one of the largest)",
        Example(
            "What is the busiest inland harbour?",
            Quote("Acme Bay is the busiest sea harbour; Beta Bay is the second busiest inland harbour."),
        ),
    ),
    Rule(
        "opposite",
        ranks.opposite,
        "the thing the question relates only with the opposite relation (after for before)",
        Example(
            "What did the monks build before the war?",
            Quote("Subsequent to the war, the monks built a mill."),
        ),
    ),
    Rule(
        "recounted",
        counts.recounted,
        "the thing the question counts, counted with another number",
        Example(
            "How many stores does Acme run under 28 banners?",
            Quote("Acme runs 900 stores under 65 banners in 28 countries."),
        ),
    ),
    Rule(
        "elsewhere",
        roles.elsewhere,
        "none of the directions the question gives",
        Example("What desert is to the south of Acme?", Quote("Acme has the Mojo Desert to its east.")),
    ),
    Rule(
        "renamed",
        roles.renamed,
        "the question's words said of another name (as English for as French)",
        Example(
            "Who identified themselves as Frisian during the war?",
            Quote(
                "During the war, the Acme nobles identified themselves as Saxon.", passage="Frisian lands."
            ),
        ),
    ),
    Rule(
        "support",
        held.weak_support,
        "a support score (the question's concepts held, with the cosine) under MIN_SUPPORT",
        Example(
            "What are the geographies Acme operates in?",
            Quote("Net cash used was $2.4 billion.", context="Acme 10-K", support=0.2),
        ),
    ),
)
