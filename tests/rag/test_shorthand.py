"""The shorthand table and fiscal periods, from one table of questions."""

from __future__ import annotations

import pytest

from rag.questions.periods import Period, read_periods
from rag.questions.shorthand import expand_question, expansions
from rag.retrieval.lexical import tokenize

PERIODS = [
    ("What was 3M's FY2018 capital expenditure?", (Period(2018),)),
    ("capex in fiscal 2018 versus fiscal year 2019", (Period(2018), Period(2019))),
    ("FY 18 and FY'19", (Period(2018), Period(2019))),
    ("Best Buy's Q2 FY2024 10-Q", (Period(2024, 2),)),
    ("revenue in Q2 FY24", (Period(2024, 2),)),
    ("margin in 3Q23", (Period(2023, 3),)),
    ("Q4 2022 revenue", (Period(2022, 4),)),
    ("FY2018 and again FY2018", (Period(2018),)),
    ("What are the geographies the company operates in?", ()),
    ("Revenue grew 2018 units", ()),  # a bare year is not a fiscal period
]


@pytest.mark.parametrize(("question", "expected"), PERIODS)
def test_fiscal_periods(question: str, expected: tuple[Period, ...]) -> None:
    assert read_periods(question).fiscal == expected


EXPANSIONS = [
    (
        "What was the capex?",
        [
            "capital expenditures",
            "purchases of property and equipment",
            "additions to property and equipment",
        ],
    ),
    (  # spelled out, the line item's other names come along
        "What was the capital expenditure in FY2018?",
        [
            "capital expenditures",
            "purchases of property and equipment",
            "additions to property and equipment",
            "fiscal 2018 2018",
        ],
    ),
    ("D&A and PP&E", ["depreciation and amortization", "property plant and equipment"]),
    (
        "YoY growth of SG&A",
        ["year over year compared with prior year change", "selling general and administrative expenses"],
    ),
    ("Q2 FY24 EPS", ["earnings per share", "second quarter Q2 fiscal 2024 2024"]),
    ("capexes and d&amp", []),  # only whole tokens
    ("Who founded the Normans?", []),
]


@pytest.mark.parametrize(("question", "expected"), EXPANSIONS)
def test_expansions(question: str, expected: list[str]) -> None:
    assert expansions(question) == expected


def test_expanded_question_shares_words_with_the_statement_line() -> None:
    line = "Purchases of property and equipment (capital expenditures) (1,577) (1,373)"
    assert not set(tokenize("FY2018 capex")) & set(tokenize(line))
    assert set(tokenize(expand_question("FY2018 capex"))) & set(tokenize(line))


def test_a_synonym_phrase_held_whole_is_the_concept_and_part_of_it_is_not() -> None:
    from rag.questions.asked import read_concepts

    (concept,) = read_concepts("capital expenditure").concepts
    assert concept.credit(set(tokenize("Purchases of property and equipment (249) (210)"))) == 1.0
    assert concept.credit(set(tokenize("Property, plant and equipment, net 1,948 1,865"))) < 1.0


def test_question_without_shorthand_is_unchanged() -> None:
    assert expand_question("How many chunks are there?") == "How many chunks are there?"
