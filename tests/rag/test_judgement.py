"""Judgement questions (issue 38 step 4): the concept a question names, the line items the
vocabulary reads it by, which printed rows are those items, and the offline answer that quotes
the rows and leaves the judgement to the reader."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ingest.types import Chunk
from rag.judgement.answer import judgement_answer
from rag.judgement.question import row_rank
from rag.judgement.rows import concept_rows
from rag.offline.extractive import MIN_SCORE, compose_answer
from rag.offline.scoring import Source
from rag.prompts import JUDGED_DISCUSSED, JUDGED_FROM
from rag.questions.read import read_question
from rag.retrieval.pages import DocumentPages


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
        "What was the bank's supplementary leverage ratio at the end of Q1?",  # a ratio it prints
        "What is the liquidity coverage ratio?",
    ],
)
def test_a_figure_or_a_row_is_no_judgement(question: str) -> None:
    assert read_question(question).judgement is None


def test_a_ratio_named_beside_the_concept_leaves_the_judgement() -> None:
    judgement = read_question("Assess the bank's liquidity using its quick ratio.").judgement
    assert judgement is not None and judgement.concepts == ("liquidity",)


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


def test_rows_on_their_statements_page_come_before_a_notes_rows() -> None:
    # A note's "Inventories" row is the first liquidity item found, but the page stage keeps only
    # the first few row chunks: the balance sheet's current assets and liabilities must lead.
    pages = DocumentPages(
        [
            "Notes to Consolidated Financial Statements\nNote 4. Inventories\nInventories 500 400",
            "CONSOLIDATED BALANCE SHEETS\n2021 2020\nTotal current assets 15,000 14,500\n"
            "Total current liabilities 9,100 8,700",
        ],
        {"note": 0, "assets": 1, "liabilities": 1},
    )
    chunks = {
        "note": "Inventories 500 400",
        "assets": "Total current assets 15,000 14,500",
        "liabilities": "Total current liabilities 9,100 8,700",
    }
    index = SimpleNamespace(scores=lambda text, doc_ids: dict.fromkeys(chunks, 1.0))
    fetch = lambda ids: {c: Chunk(c, "d", n, chunks[c], ()) for n, c in enumerate(ids)}  # noqa: E731
    page_of = {c: ("d", p) for c, p in pages.chunk_pages.items()}
    question = read_question("Does Acme look liquid?")
    assert pages.fact(1).statement == "balance" and pages.fact(0).statement != "balance"
    assert concept_rows(question, index, ["d"], {"d": pages}, page_of, fetch) == [
        "assets",
        "liabilities",
        "note",
    ]


def test_the_answer_quotes_a_statements_row_before_a_notes() -> None:
    sources = [
        Source(
            "aaaa111", "Restructuring charges\n2020 2019\nCost of sales 25.8 9.9", "Note 5. Restructuring"
        ),
        Source(
            "bbbb222",
            "Net sales 17,626 16,865\nCost of sales 11,496 11,108",
            "Consolidated Statements of Earnings",
        ),
    ]
    answer = judgement_answer(read_question("How has Acme's margin profile moved?"), sources)
    assert "Cost of sales: 11,496 / 11,108 [bbbb222]" in answer and "aaaa111" not in answer


def test_the_passages_beside_the_rows_come_from_each_place_retrieval_ranked() -> None:
    # After the best passage (eeee555), the best by words are three sentences of one source
    # (cccc333); each further source gives its best passage instead, in the evidence's order.
    sources = [
        Source(
            "aaaa111",
            "Consolidated Balance Sheets\n2021 2020\nTotal current assets 15,000 14,500\n"
            "Total current liabilities 9,100 8,700",
        ),
        Source(
            "cccc333",
            "Acme liquidity was ample in 2021. Acme liquidity was steady in 2021. Acme liquidity was strong.",
        ),
        Source("bbbb222", "Acme liquidity rests on a revolving credit facility of $2 billion."),
        Source("eeee555", "Markets look calm at the end of the year."),
    ]
    question = read_question("Does Acme look liquid at the end of the year?")
    answer = compose_answer(question, sources, MIN_SCORE, 3)
    assert answer.startswith(JUDGED_FROM.format(concept="liquidity")), answer
    discussed = answer.split(JUDGED_DISCUSSED)[1]
    assert discussed.index("[eeee555]") < discussed.index("[cccc333]") < discussed.index("[bbbb222]"), (
        discussed
    )
    assert discussed.count("[cccc333]") == 1, discussed
