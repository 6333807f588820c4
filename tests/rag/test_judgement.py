"""Judgement questions (issue 38 step 4): the concept a question names, the line items the
vocabulary reads it by, which printed rows are those items, and the offline answer that quotes
the rows and leaves the judgement to the reader."""

from __future__ import annotations

import pytest

from rag.offline.judgement import judgement_answer
from rag.offline.scoring import Source
from rag.prompts import JUDGED_DISCUSSED, JUDGED_FROM
from rag.questions.judgement import row_rank
from rag.questions.read import read_question


@pytest.mark.parametrize(
    ("question", "concepts", "first_items"),
    [
        ("Is AmWater capital-intensive? Use FY2019.", ("capital_intensity",), ("capital_expenditures",)),
        ("Does Coke look liquid at FY2019 year-end?", ("liquidity",), ("cash", "short_term_investments")),
        ("How has GIS's margin profile moved?", ("profitability",), ("revenue", "cost_of_sales")),
        ("How concentrated is MGM's revenue by segment?", ("segment_concentration",), ()),  # a note's table
    ],
)
def test_a_judgement_names_a_concept_and_the_rows_it_is_read_from(question, concepts, first_items) -> None:
    judgement = read_question(question).judgement
    assert judgement is not None and judgement.concepts == concepts
    assert judgement.items[: len(first_items)] == first_items


@pytest.mark.parametrize(
    "question",
    [
        "How much did PepsiCo pay in cash dividends in fiscal 2019?",  # a row's label: that row
        "What is the FY2017 operating cash flow ratio? It is defined as: cash from operations / total "
        "current liabilities.",  # a defined metric: a figure
        "Who are Lockheed's customers?",  # no concept
    ],
)
def test_a_figure_or_a_row_is_no_judgement(question: str) -> None:
    assert read_question(question).judgement is None


def test_a_row_prints_an_item_under_its_label_or_its_words() -> None:
    assert row_rank("current_assets", "Total current assets") == 0
    assert row_rank("capital_expenditures", "Purchases of property, plant and equipment") == 0
    assert row_rank("revenue", "Total operating revenues") == 0
    assert row_rank("capital_expenditures", "Purchases of property and equipment, net") == 1
    assert row_rank("revenue", "Sales and marketing") is None
    assert row_rank("revenue", "Cost of sales") is None
    assert row_rank("interest_expense", "Cash paid for interest, net of amounts capitalized") is None


def test_the_answer_quotes_each_rows_years_and_leaves_the_judgement_to_the_reader() -> None:
    sources = [
        Source(
            "aaaa111", "Net cash provided by operating activities 4,300 3,900", "Statements of Cash Flows"
        ),
        Source(
            "bbbb222",
            "Consolidated Balance Sheets\n2021 2020\nCash and cash equivalents 1,200 1,100\n"
            "Total current assets 15,000 14,500\nTotal current liabilities 9,100 8,700",
        ),
        Source("cccc333", "The company's liquidity is strong, management believes."),
    ]
    answer = judgement_answer(read_question("Does Acme look liquid?"), sources)
    assert answer.startswith(JUDGED_FROM.format(concept="liquidity"))
    assert "Total current assets: 15,000 / 14,500 (columns 2021, 2020) [bbbb222]" in answer
    assert "Total current liabilities: 9,100 / 8,700 (columns 2021, 2020) [bbbb222]" in answer
    assert "[aaaa111]" in answer and "cccc333" not in answer
    assert judgement_answer(read_question("Does Acme look liquid?"), sources[2:]) == ""  # no row: no answer


def test_the_closest_passages_follow_the_rows() -> None:
    sources = [Source("bbbb222", "Balance Sheets\n2021 2020\nTotal current assets 15,000 14,500")]
    answer = judgement_answer(
        read_question("Does Acme look liquid?"), sources, "Liquidity is ample. [cccc333]"
    )
    assert answer.startswith(JUDGED_FROM.format(concept="liquidity"))
    assert answer.endswith(f"[bbbb222] {JUDGED_DISCUSSED} Liquidity is ample. [cccc333]")
