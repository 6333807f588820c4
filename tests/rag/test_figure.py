"""rag.compute.question: the figure a question asks to be computed, read with the question: its
formula (defined, written out, a share, a change, an average, a standard metric), unit, rounding
and period; and rag.compute.formula's reading of a formula's words."""

from __future__ import annotations

import pytest

from rag.compute.formula import NotAFormula, parse_formula, show
from rag.questions.read import read_question

FIGURES = [
    # question -> (formula: operands with their column's year when not the asked one, unit, decimals, period)
    (
        "What is the FY2015 operating cash flow ratio for Adobe? Operating cash flow ratio is defined as: "
        "cash from operations / total current liabilities. Round your answer to two decimal places.",
        ("cash from operations / total current liabilities", "ratio", 2, "FY2015"),
    ),
    (
        "What is FY2018 days payable outstanding (DPO) for Walmart? DPO is defined as: 365 * (average accounts "
        "payable between FY2017 and FY2018) / (FY2018 COGS + change in inventory between FY2017 and FY2018).",
        (
            "365 \u00d7 ((accounts payable + accounts payable@2017) / 2) / (COGS + (inventory - inventory@2017))",
            "days",
            1,
            "FY2018",
        ),
    ),
    (
        "Transaction margin is defined as net revenues less transaction expense less transaction and credit "
        "losses, divided by net revenues. What was PayPal's transaction margin in Q2 2023? Percent, one decimal.",
        (
            "(net revenues - transaction expense - transaction and credit losses) / net revenues",
            "%",
            1,
            "Q2 2023",
        ),
    ),
    (
        "What was Lockheed's free cash flow for the first half of 2022 (cash from operations less capex)? USD millions.",
        ("cash from operations - capex", "amount", None, "first half of 2022"),
    ),
    (
        "Be brief. What was Walmart's total debt at the end of FY2018, counting short-term borrowings, long-term "
        "debt due within one year and long-term debt (leave out capital lease and financing obligations)?",
        (
            "short-term borrowings + long-term debt due within one year + long-term debt",
            "amount",
            None,
            "FY2018",
        ),
    ),
    (
        "What share of Adobe's FY2015 revenue went into R&D? Give a percentage to one decimal.",
        ("R&D / revenue", "%", 1, "FY2015"),
    ),
    (
        "How many times did AmWater's operating income cover its interest expense in FY2022? Two decimals.",
        ("operating income / interest expense", "times", 2, "FY2022"),
    ),
    (
        "What was American Water Works' FY2021 capex as a percentage of operating revenues? One decimal.",
        ("capex / operating revenues", "%", 1, "FY2021"),
    ),
    (
        "By how much did Adobe's subscription revenue grow year over year in FY2017? Percent, one decimal.",
        ("(subscription revenue - subscription revenue@-1) / subscription revenue@-1", "%", 1, "FY2017"),
    ),
    (
        "What is Lockheed Martin's 2 year total revenue CAGR from FY2020 to FY2022 (in units of percents and "
        "round to one decimal place)?",
        ("(total revenue / total revenue@2020) ^ (1 / 2) - 1", "%", 1, "FY2022"),
    ),
    (
        "What was Coke's average annual capex over 2018-2020? USD millions, whole number.",
        ("(capex@2018 + capex@2019 + capex) / 3", "amount", 0, "FY2020"),
    ),
    (
        "What was AMD's current ratio at the end of 2016? Two decimals.",
        ("current assets / current liabilities", "ratio", 2, "FY2016"),
    ),
    ("What was Nike's FY2023 ROE?", ("net income / ((equity + equity@-1) / 2)", "%", 1, "FY2023")),
    # a bracket that opens the formula: the formula goes on past it (it was read as the sum alone)
    (
        "What is Acme's FY2022 ratio of (cash and cash equivalents + accounts receivable) / total current "
        "liabilities? Two decimals.",
        (
            "(cash and cash equivalents + accounts receivable) / total current liabilities",
            "ratio",
            2,
            "FY2022",
        ),
    ),
    # one printed line item: its cell is the answer (issue 38); a filing named beside the period
    (
        "What operating income did American Water Works report for 2019 in its 2020 annual report? USD millions.",
        ("operating income", "amount", None, "FY2019"),
    ),
]
NO_FIGURE = [
    "Who audits Adobe?",
    "What casino revenue did MGM Resorts report for 2019 in its 2020 10-K?",  # not the revenue line
    "Why did Nike's gross margin shrink in FY2023? Explain.",  # a figure, and more: still read (whole=False)
    "Does American Water Works have positive working capital based on FY2022 data?",
    "Strip out the goodwill impairments: what was Kraft Heinz's FY2018 operating margin before impairment losses?",
    "What is the capital of Normandy?",
    "How much was the 1994 earthquake estimated to cost?",  # "how much" alone asks no table's row
    "How much revenue did Diet Coke generate for Coca-Cola in 2017? USD millions.",  # two names
    "What were PepsiCo's Gatorade net revenues in FY2021?",  # a possessive ends a name: two names
    "What was Acme's average operating margin over the last three years?",  # an average it does not place
]


def _shown(question: str) -> tuple[str, str, int | None, str]:
    figure = read_question(question).figure
    assert figure is not None
    names = [
        o.name
        + (f"@{o.year}" if o.year and o.year != figure.year else "")
        + (f"@-{o.back}" if o.back else "")
        for o in figure.operands
    ]
    return show(figure.formula, names), figure.unit, figure.rounding, figure.period_text()


@pytest.mark.parametrize(("question", "expected"), FIGURES)
def test_a_question_names_its_figure(question: str, expected: tuple[str, str, int | None, str]) -> None:
    assert _shown(question) == expected


@pytest.mark.parametrize("question", NO_FIGURE)
def test_a_question_without_a_figure_to_compute_has_none(question: str) -> None:
    figure = read_question(question).figure
    assert figure is None or not figure.whole


def test_a_standard_metric_brings_its_alternatives_and_line_items() -> None:
    figure = read_question("What was Acme's quick ratio at the end of FY2022?").figure
    assert figure is not None and figure.source == "metric"
    assert [o.line_item for o in figure.operands] == [
        "cash",
        "short_term_investments",
        "receivables",
        "current_liabilities",
    ]
    assert (
        figure.alternatives
        and figure.alternatives[0].formula_text() == "(cash + receivables) / current liabilities"
    )
    capex = read_question("What was Acme's FY2022 capex-to-D&A ratio?").figure
    assert capex is not None and capex.operands[0].outflow and capex.operands[0].statement == "cash flow"


def test_the_operands_are_searched_for_with_the_question() -> None:
    question = read_question("What was Coke's current ratio at the end of FY2020?")
    assert [i.text for i in question.search.inputs] == ["current assets", "current liabilities"]


@pytest.mark.parametrize(
    "words", ["the statement of cash flows", "revenue", "what they paid / gross spread +"]
)
def test_words_without_a_formula_are_none(words: str) -> None:
    with pytest.raises(NotAFormula):
        parse_formula(words)


def test_an_adverb_is_no_row_labels_word_so_a_clause_is_not_read_as_a_row() -> None:
    # "directly outlined in its income statements" is how the question asks: no row is named
    # "quantity restructuring costs directly outlined", and reading one displaced the real row's
    # passage from the evidence (the PepsiCo browser test)
    asked = "What is the quantity of restructuring costs directly outlined in Acme's income statements for FY2021?"
    assert read_question(asked).figure is None
    # a row the vocabulary does not hold is still read when its words are a label's
    assert (
        read_question("How much goodwill impairment did Acme record in FY2019? USD millions.").figure
        is not None
    )
    # an adjective in -ly is a label's word ("quarterly dividends"): only an adverb before a participle is not
    asked = "What were Acme's quarterly dividends in FY2021, according to the cash flow statement?"
    assert read_question(asked).figure is not None
