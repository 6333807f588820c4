"""rag.compute: a question's figure computed from the evidence's cells, or refused, from one table
of cases (scales, signs, averages, year-over-year, rounding, missing and ambiguous inputs); and a
property test that the result is the formula over the cells the answer cites."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from ingest.types import Chunk, Document, PageLocator
from rag.citations.evidence import build_evidence
from rag.compute.present import NOT_COMPUTED, compute_answer
from rag.questions.read import read_question
from rag.tables.lines import parse_amount
from rag.types import Evidence

BALANCE = """Acme Corp
Consolidated Balance Sheets
(in millions)
2021 2020
Cash and cash equivalents $ 1,234 $ 1,100
Marketable securities — —
Accounts receivable, net 567 540
Inventories 800 760
Total current assets 3,000 2,800
Total assets 12,000 11,000
Total current liabilities 3,456 3,300
Total shareholders' equity 5,000 4,600"""
INCOME = """Acme Corp
Consolidated Statements of Income
(in millions)
2021 2020 2019
Net sales $ 10,000 $ 9,000 $ 8,100
Cost of sales 6,000 5,600 5,000
Gross profit 4,000 3,400 3,100
Operating income (loss) (481) 900 850
Interest expense (120) (110) (100)
Net income 700 650 600"""
CASH_FLOWS = """Acme Corp
Consolidated Statements of Cash Flows
(in thousands)
Year Ended
December 31,
2021
December 31,
2020
Net income 700,000 650,000
Net cash provided by operating activities 4,300,000 3,900,000
Capital expenditures (1,577,000) (1,602,000)
Dividends paid (300,000) (280,000)"""
MDNA = """Liquidity
(in millions)
2021 2020
Net cash provided by operating activities 4,300 3,900"""
UNSCALED = """Acme Corp
Consolidated Balance Sheets (continued)
2021 2020
Total current liabilities 3,456 3,300"""
SEGMENTS = """Acme Corp
Consolidated Statements of Income
(in millions)
2021 2020
Total revenues 10,000 9,000
Total revenues 10,400 9,200"""
PER_SHARE = """Per Share Data
2021 2020
Cash dividends 1.60 1.50"""
QUARTERS = """Acme Corp
Consolidated Statements of Income
(in millions)
Three Months Ended June 30, Six Months Ended June 30,
2023 2022 2023 2022
Net revenues 2,500 2,000 4,800 4,100
Operating income 500 300 900 700"""

# A bank's highlights: columns by quarter ("1Q22"), under a caption wrapped over two lines.
HIGHLIGHTS = """Acme Bank
Consolidated financial highlights
As of or for the period ended, (in millions, except per share, ratio
data and where otherwise noted) 1Q22 4Q21 3Q21
Total net revenue $ 30,717 $ 29,257 $ 29,647
Diluted earnings per share 2.63 3.33 3.74
Cash dividends declared per share 1.00 1.00 0.90"""


def evidence(*texts: str, documents: int = 1) -> tuple[Evidence, ...]:
    """One chunk per text, each the whole of its page, of one document (or spread over several)."""
    hits = []
    for n, text in enumerate(texts):
        doc = Document(f"{n % documents}" * 64, f"Acme {n % documents}", f"acme{n % documents}.pdf", 9, 1, 1)
        chunk = Chunk(
            f"{n:x}".rjust(64, "c"), doc.doc_id, n, text, (PageLocator(n, str(n + 1), 0, len(text)),)
        )
        hits.append((chunk, doc, 0.5))
    return build_evidence(hits)


CASES = [
    # (question, passages, result, unit) - a figure; result None: refused, unit holds the reason's words
    ("What is Acme's FY2021 current ratio?", (BALANCE,), "0.87", "ratio"),
    ("What was Acme's gross margin in FY2021?", (INCOME,), "40.0", "%"),
    ("What was Acme's FY2021 operating margin?", (INCOME,), "-4.8", "%"),  # (481) is a loss
    (  # thousands over millions, reconciled
        "What is the FY2021 operating cash flow ratio for Acme? Operating cash flow ratio is defined as: "
        "cash from operations / total current liabilities. Round your answer to two decimal places.",
        (CASH_FLOWS, BALANCE),
        "1.24",
        "ratio",
    ),
    (  # capex printed (1,577,000): an outflow, its amount subtracted; thousands to the asked billions
        "What was Acme's FY2021 free cash flow (cash from operations minus capex)? Answer in USD billions.",
        (CASH_FLOWS,),
        "2.72",
        "USD billions",
    ),
    (
        "What was Acme's FY2021 free cash flow, defined as cash from operations minus capex? USD millions.",
        (CASH_FLOWS,),
        "2723",
        "USD millions",
    ),
    (
        "How many times did Acme's operating income cover its interest expense in FY2020?",
        (INCOME,),
        "8.18",
        "times",
    ),
    (  # an average of two years' columns
        "What was Acme's FY2021 inventory turnover (cost of sales / average of FY2020 and FY2021 inventories)?",
        (INCOME, BALANCE),
        "7.69",
        "ratio",
    ),
    (
        "By how much did Acme's net sales grow year over year in FY2021? Percent, one decimal.",
        (INCOME,),
        "11.1",
        "%",
    ),
    ("By how much did Acme's net sales change in FY2021?", (INCOME,), "1000", "USD millions"),
    ("What was Acme's 2 year net sales CAGR from FY2019 to FY2021? Percent.", (INCOME,), "11.1", "%"),
    ("What was Acme's FY2021 current ratio? Round to three decimals.", (BALANCE,), "0.868", "ratio"),
    (  # a dash is nothing
        "Using the FY2021 balance sheet, what was Acme's quick ratio ((cash and cash equivalents + marketable "
        "securities + accounts receivable) / current liabilities)?",
        (BALANCE,),
        "0.52",
        "ratio",
    ),
    (
        "What share of its FY2021 net income did Acme pay out as dividends? Percent.",
        (CASH_FLOWS, INCOME),
        "42.9",
        "%",
    ),
    ("What was Acme's operating margin in Q2 2023?", (QUARTERS,), "20.0", "%"),  # the three months' column
    # a figure the filing prints: its cell (an outflow's amount); the 2020 column of a 2021 filing
    (
        "What were Acme's capital expenditures in FY2020? USD thousands.",
        (CASH_FLOWS,),
        "1602000",
        "USD thousands",
    ),
    (
        "What total assets did Acme report for 2020 in its 2021 annual report?",
        (BALANCE,),
        "11000",
        "USD millions",
    ),
    (  # a quarter's column read from its "1Q22" header, the caption's words before it aside
        "What was Acme's dividend payout ratio in Q1 2022 (cash dividends declared per share / diluted EPS)?",
        (HIGHLIGHTS,),
        "38.0",
        "%",
    ),
    (  # the balance sheet's other total is its total assets
        "What was Acme's FY2021 equity-to-assets ratio (total shareholders' equity / total assets)?",
        (BALANCE.replace("Total assets", "Total liabilities and shareholders' equity"),),
        "0.42",
        "ratio",
    ),
    (  # refusals
        "What is Acme's FY2021 debt-to-equity?",
        (BALANCE,),
        None,
        "no table row",
    ),
    ("What was Acme's FY2018 current ratio?", (BALANCE,), None, "no 2018 column"),
    (
        "What was Acme's FY2021 gross margin (gross profit / total revenues)?",
        (INCOME, SEGMENTS),
        None,
        "two rows",
    ),
    (
        "What is Acme's FY2021 cash ratio, defined as cash and cash equivalents / total current liabilities?",
        (UNSCALED, BALANCE.replace("Total current liabilities", "Current debt")),
        None,
        "scale",
    ),
    (
        "What share of its FY2021 net income did Acme pay as cash dividends?",
        (PER_SHARE, INCOME),
        None,
        "no table row",
    ),
    ("What is Acme's current ratio?", (BALANCE,), None, "no fiscal period"),
]


@pytest.mark.parametrize(("question", "passages", "result", "unit"), CASES)
def test_a_figure_is_computed_from_its_cells_or_refused(
    question: str, passages: tuple[str, ...], result: str | None, unit: str
) -> None:
    computation = compute_answer(read_question(question), evidence(*passages))
    assert computation is not None
    if result is None:
        assert computation.computed is None and computation.line.startswith(NOT_COMPUTED)
        assert unit in computation.line
        assert not computation.cells
        return
    assert computation.computed is not None, computation.line
    assert (computation.computed.result, computation.computed.unit) == (result, unit)
    # every operand is cited by a cell of its own, which the line shows with its value
    assert len(computation.cells) == len(computation.computed.operands)
    for operand, cell in zip(computation.computed.operands, computation.cells):
        assert operand.short_id == cell.short_id and f"[{cell.short_id}]" in computation.line
        assert cell.cell is not None and cell.cell.printed == operand.printed


def test_signs_and_scales_are_said_in_the_line() -> None:
    question = (
        "What was Acme's FY2021 free cash flow, defined as cash from operations minus capex? USD millions."
    )
    line = compute_answer(read_question(question), evidence(CASH_FLOWS)).line
    assert line.startswith("Free cash flow, FY2021 = cash from operations 4,300,000 [")
    assert "capex 1,577,000 [" in line and "= USD 2,723 million" in line
    assert "cells in thousands" in line and "capex printed (1,577,000), an outflow" in line


def test_several_documents_and_none_named_is_no_figure() -> None:
    computation = compute_answer(
        read_question("What is Acme's FY2021 current ratio?"), evidence(BALANCE, INCOME, documents=2)
    )
    assert computation is not None and computation.computed is None
    assert "several documents" in computation.line


def test_two_operands_of_one_chunk_are_two_cells_each_its_number_on_the_page() -> None:
    (chunk,) = evidence(BALANCE)
    computation = compute_answer(read_question("What is Acme's FY2021 current ratio?"), (chunk,))
    assert computation is not None and computation.computed is not None
    first, second = computation.cells
    assert first.chunk_id == second.chunk_id == chunk.chunk_id and first.short_id != second.short_id
    for cell, number in zip(computation.cells, ("3,000", "3,456")):
        loc = cell.locators[0]
        assert BALANCE[loc.char_start : loc.char_end] == number  # the locator is the number itself
        assert cell.cell is not None and cell.cell.chunk == chunk.short_id
        assert BALANCE[cell.cell.label_start : cell.cell.label_end] in (
            "Total current assets",
            "Total current liabilities",
        )


def test_a_question_asking_no_figure_gets_no_computation() -> None:
    assert compute_answer(read_question("Who is Acme's auditor?"), evidence(BALANCE)) is None
    # a printed figure that the passages do not hold is theirs to answer: no refusal line
    assert compute_answer(read_question("What was Acme's goodwill in FY2019?"), evidence(BALANCE)) is None


def test_a_printed_figure_is_its_row_and_cell() -> None:
    question = read_question("What were Acme's capital expenditures in FY2020? USD thousands.")
    computation = compute_answer(question, evidence(CASH_FLOWS))
    assert computation is not None and computation.complete
    assert computation.line.startswith("Capital expenditures, FY2020: 1,602,000 (USD thousands) [")
    assert "printed (1,602,000), an outflow" in computation.line


ITEMS = ["cash and cash equivalents", "accounts receivable, net", "inventories", "total current liabilities"]
LABELS = ["Cash and cash equivalents", "Accounts receivable, net", "Inventories", "Total current liabilities"]


@seed(39)
@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(min_value=1, max_value=9_999_999), min_size=4, max_size=4),
    ops=st.lists(st.sampled_from(["+", "-", "/"]), min_size=3, max_size=3),
    decimals=st.integers(min_value=0, max_value=3),
)
def test_the_result_is_the_formula_over_the_cited_cells(
    values: list[int], ops: list[str], decimals: int
) -> None:
    rows = "\n".join(f"{label} {v:,} {v + 7:,}" for label, v in zip(LABELS, values))
    passage = f"Acme Corp\nConsolidated Balance Sheets\n(in millions)\n2021 2020\n{rows}"
    formula = f"{ITEMS[0]} {ops[0]} {ITEMS[1]} {ops[1]} {ITEMS[2]} {ops[2]} {ITEMS[3]}"
    words = ["zero", "one", "two", "three"][decimals]
    question = (
        f"What is Acme's FY2021 liquidity score? It is defined as: {formula}. Round to {words} decimals."
    )
    computation = compute_answer(read_question(question), evidence(passage))
    assert computation is not None and computation.computed is not None, computation.line
    cited = [parse_amount(o.printed) for o in computation.computed.operands]
    assert [o.label for o in computation.computed.operands] == LABELS
    assert cited == [Decimal(v) for v in values]  # the asked year's column (2021), not 2020's
    expected = _evaluate([Decimal(v) for v in values], ops)
    assert Decimal(computation.computed.result) == expected.quantize(
        Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP
    )


def _evaluate(values: list[Decimal], ops: list[str]) -> Decimal:
    """The formula a op b op c op d with the usual precedence, computed apart from rag.compute."""
    terms: list[Decimal] = [values[0]]
    signs: list[str] = []
    for op, value in zip(ops, values[1:]):
        if op == "/":
            terms[-1] = terms[-1] / value
        else:
            signs.append(op)
            terms.append(value)
    total = terms[0]
    for sign, term in zip(signs, terms[1:]):
        total = total + term if sign == "+" else total - term
    return total
