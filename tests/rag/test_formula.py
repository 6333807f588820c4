"""rag.compute.formula.read_written: where a question writes a formula and what it reads there,
from one table of cases (every formula of a question is read once, by this reader, for the
inputs rag.questions.request names and the figure rag.compute.question computes)."""

from __future__ import annotations

import pytest

from rag.compute.formula import show
from rag.questions.request import read_request

WRITTEN = [
    # question -> (how it is written, the words naming it, the formula with its operands' names), or None
    (
        "What is the FY2017 operating cash flow ratio for Acme? Operating cash flow ratio is defined as: "
        "cash from operations / total current liabilities. Round your answer to two decimal places.",
        ("defines", "Operating cash flow ratio", "cash from operations / total current liabilities"),
    ),
    # periods, averages and changes become columns: @year, not words of the line item
    (
        "What is FY2018 days payable outstanding (DPO) for Walmart? DPO is defined as: 365 * (average accounts "
        "payable between FY2017 and FY2018) / (FY2018 COGS + change in inventory between FY2017 and FY2018).",
        (
            "defines",
            "DPO",
            "365 \u00d7 ((accounts payable@2018 + accounts payable@2017) / 2) / "
            "(COGS@2018 + (inventory@2018 - inventory@2017))",
        ),
    ),
    (
        "Here's the question: what is the working capital ratio? Define working capital ratio as total current "
        "assets divided by total current liabilities.",
        ("defines", "working capital ratio", "total current assets / total current liabilities"),
    ),
    # a definition may name one line item
    (
        "Capex is defined as purchases of property and equipment.",
        ("defines", "Capex", "purchases of property and equipment"),
    ),
    (
        "Transaction margin is defined as net revenues less transaction expense less transaction and credit "
        "losses, divided by net revenues. What was PayPal's transaction margin in Q2 2023?",
        (
            "defines",
            "Transaction margin",
            "(net revenues - transaction expense - transaction and credit losses) / net revenues",
        ),
    ),
    (
        "What was AMD's free cash flow in 2020, taking FCF as operating cash flow minus purchases of property "
        "and equipment? Answer in USD millions.",
        ("after", "FCF", "operating cash flow - purchases of property and equipment"),
    ),
    (
        "JPM's comp ratio for Q3 2021, i.e. compensation expense over total net revenue? Give a percentage.",
        ("after", "JPM's comp ratio", "compensation expense / total net revenue"),
    ),
    (
        "What was Nike's FY2023 ROE, using net income over the average of FY2022 and FY2023 total "
        "shareholders' equity? Percent, one decimal.",
        (
            "after",
            "What was Nike's FY2023 ROE",
            "net income / ((total shareholders' equity@2023 + total shareholders' equity@2022) / 2)",
        ),
    ),
    (
        "Was AES investing more than its depreciation in 2016? Give capex divided by D&A, two decimals.",
        ("after", "", "capex / D&A"),
    ),
    # a colon before a formula; the sign inside its bracket is its own, not a second formula
    (
        "Cash-like assets share for JPM at the end of Q1 2023: (cash and due from banks + deposits with "
        "banks) / total assets. Percent, one decimal.",
        (
            "after",
            "Cash-like assets share",
            "(cash and due from banks + deposits with banks) / total assets",
        ),
    ),
    (
        "Be brief. What was Walmart's total debt at the end of FY2018, counting short-term borrowings, "
        "long-term debt due within one year and long-term debt (leave out capital lease and financing "
        "obligations)? USD millions.",
        (
            "list",
            "What was Walmart's total debt",
            "short-term borrowings + long-term debt due within one year + long-term debt",
        ),
    ),
    (
        "What was AES's free cash flow in FY2021 (CFO minus capex)? USD millions.",
        ("bracket", "What was AES's free cash flow", "CFO - capex"),
    ),
    # a bracket that opens the formula: the formula goes on past it
    (
        "What is Acme's FY2022 ratio of (cash and cash equivalents + accounts receivable) / total current "
        "liabilities? Two decimals.",
        (
            "bracket",
            "What is Acme's FY2022 ratio of",
            "(cash and cash equivalents + accounts receivable) / total current liabilities",
        ),
    ),
    (
        "What was Kraft Heinz's net debt at FY2019 year-end (short-term debt + current portion of long-term "
        "debt + long-term debt - cash)? USD millions.",
        (
            "bracket",
            "What was Kraft Heinz's net debt",
            "short-term debt + current portion of long-term debt + long-term debt - cash",
        ),
    ),
    # written out in the sentence: operands run to the nearest word no line item's name holds
    (
        "What is Acme's FY2021 operating income + depreciation and amortization (EBITDA)?",
        ("sum", "What is Acme's FY2021", "operating income + depreciation and amortization"),
    ),
    (
        "What was American Water Works' FY2021 capex as a percentage of operating revenues? One decimal.",
        ("percent", "What was American Water Works' FY2021", "capex / operating revenues"),
    ),
    # no formula: an operand that is a clause, signs in notation, a bracket saying the unit
    (
        "Lockheed's May 2023 notes: how much did the underwriters earn as gross spread (public offering "
        "price minus what they paid Lockheed), across all three tranches?",
        None,
    ),
    ("If T(n) = 7n2 + 15n, what is the order of T(n)?", None),
    ("What was Acme's revenue in 2020 (in USD millions)?", None),
    ("Revenue grew in 2020.", None),
    ("When did the Normans conquer England?", None),
]


def _written(question: str) -> list[tuple[str, str, str]]:
    found = []
    for written in read_request(question).written:
        names = [
            t.words + (f"@{t.year}" if t.year else "") + (f"@-{t.back}" if t.back else "")
            for t in written.terms
        ]
        found.append((written.kind, written.name, show(written.formula, names)))
    return found


@pytest.mark.parametrize(("question", "expected"), WRITTEN)
def test_a_question_writes_one_formula_or_none(question: str, expected: tuple[str, str, str] | None) -> None:
    assert _written(question) == ([expected] if expected else [])
