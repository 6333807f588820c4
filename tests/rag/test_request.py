"""rag.questions.request: a question read apart from how it asks to be answered, from one table of cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.compute.formula import read_written
from rag.questions.request import read_request, statements_in

CASES = [
    # (question, core, statements, inputs)
    (
        "What is the FY2021 capital expenditure amount (in USD billions) for PepsiCo? Respond to the "
        "question by assuming the perspective of an investment analyst who can only use the details "
        "shown within the statement of cash flows.",
        "What is the FY2021 capital expenditure amount (in USD billions) for PepsiCo?",
        ("cash_flows",),
        (),
    ),
    (
        "Basing your judgments off of the balance sheet, what is the year end FY2018 amount of "
        "accounts payable for MGM Resorts? Answer in USD millions.",
        "what is the year end FY2018 amount of accounts payable for MGM Resorts?",
        ("balance",),
        (),
    ),
    (
        "What is the FY2017 operating cash flow ratio for Acme? Operating cash flow ratio is defined "
        "as: cash from operations / total current liabilities. Round your answer to two decimal places.",
        "What is the FY2017 operating cash flow ratio for Acme?",
        (),
        ("cash from operations", "total current liabilities"),
    ),
    (
        "What is FY2018 days payable outstanding (DPO) for Acme? DPO is defined as: 365 * (average "
        "accounts payable between FY2017 and FY2018) / (FY2018 COGS + change in inventory between "
        "FY2017 and FY2018). Please base your judgments on the P&L statement and the balance sheet.",
        "What is FY2018 days payable outstanding (DPO) for Acme?",
        ("income", "balance"),
        ("accounts payable", "COGS", "inventory"),
    ),
    (
        "Here's the question: what is the working capital ratio? Define working capital ratio as total "
        "current assets divided by total current liabilities.",
        "what is the working capital ratio?",
        (),
        ("total current assets", "total current liabilities"),
    ),
    # A statement named as the subject is still where to look, and its name is not searched for.
    (
        "What does the consolidated statement of financial position show for 2020?",
        "What does show for 2020?",
        ("balance",),
        (),
    ),
    # A metric written out in the question names its inputs too.
    (
        "What is the FY2018 - FY2020 3 year average of capex as a % of revenue for Acme?",
        "What is the FY2018 - FY2020 3 year average of capex as a % of revenue for Acme?",
        (),
        ("capex", "revenue"),
    ),
    (
        "What is Acme's FY2021 operating income + depreciation and amortization (EBITDA)?",
        "What is Acme's FY2021 operating income + depreciation and amortization (EBITDA)?",
        (),
        ("operating income", "depreciation and amortization"),
    ),
    (
        "What was Acme's FY2021 free cash flow (cash from operations minus capital expenditures)?",
        "What was Acme's FY2021 free cash flow (cash from operations minus capital expenditures)?",
        (),
        ("cash from operations", "capital expenditures"),
    ),
    # Plain questions are left as they are (squad-dev's kind).
    ("When did the Normans conquer England?", "When did the Normans conquer England?", (), ()),
    (
        "Looking at VaR, did the risk decrease in the second quarter?",
        "Looking at VaR, did the risk decrease in the second quarter?",
        (),
        (),
    ),
    # An imperative request with no question mark is the question.
    ("List the segments Acme reports.", "List the segments Acme reports.", (), ()),
    # A sentence saying only the answer's unit and rounding asks nothing.
    ("What was Acme's FY2020 current ratio? Two decimals.", "What was Acme's FY2020 current ratio?", (), ()),
    (
        "Compute Acme's FY2021 free cash flow. USD millions.",
        "Compute Acme's FY2021 free cash flow. USD millions.",  # nothing but instructions: all of it
        (),
        (),
    ),
]


@pytest.mark.parametrize(("question", "core", "statements", "inputs"), CASES)
def test_a_question_is_read_into_what_to_search_where_to_look_and_what_a_metric_needs(
    question: str, core: str, statements: tuple[str, ...], inputs: tuple[str, ...]
) -> None:
    request = read_request(question)
    assert request.core == core
    assert request.statements == statements
    assert request.inputs == inputs


@pytest.mark.parametrize(
    ("heading", "kind"),
    [
        ("CONSOLIDATED STATEMENTS OF CASH FLOWS (In thousands)", "cash_flows"),
        ("ConsolidatedStatementsofOperations", "income"),  # as some PDFs extract it, unspaced
        ("Consolidated Statements of Earnings", "income"),
        ("Consolidated Statements of Comprehensive Income (Loss)", "comprehensive"),
        ("Consolidated Statements of Shareholders' Equity", "equity"),
        ("Consolidated Statement of Financial Position", "balance"),
        ("Consolidated Balance Sheets", "balance"),
    ],
)
def test_statement_names_are_read_however_they_are_spaced(heading: str, kind: str) -> None:
    assert statements_in(heading)[:1] == (kind,)


def test_a_sentence_that_defines_nothing_has_no_inputs() -> None:
    assert read_written("Revenue grew in 2020.") == ()


@pytest.mark.corpus
def test_squad_questions_have_nothing_to_set_aside(corpus: Path) -> None:
    """squad-dev's questions carry no instructions and name no statements: reading them changes
    nothing there (the second set the rules are checked on)."""
    rows = [json.loads(line) for line in (corpus / "squad-dev" / "questions.jsonl").read_text().splitlines()]
    changed = [
        r["question"] for r in rows if read_request(r["question"]).core != " ".join(r["question"].split())
    ]
    assert len(changed) <= 0.01 * len(rows), changed[:5]


def test_what_named_the_statement_goes_with_it_and_a_final_preposition_of_the_question_stays() -> None:
    asked = read_request("What were Acme's net revenues for FY2017, based on the income statement?")
    assert asked.core == "What were Acme's net revenues for FY2017?"
    assert read_request("Who did the Irish culture have an effect on?").core.endswith("effect on?")
