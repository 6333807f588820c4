"""A judgement backed by figures (issue 51 step 7): the metrics the vocabulary ties a judgement's
concept to, computed for each year the statements show, each operand its own footnote; a year an
operand lacks is left out and said so; a row only holding an operand's words is not read; and the
offline answer through the answer stream opens with the figures, then the passages."""

from __future__ import annotations

import re

import pytest

from rag.answering.answer import stream_answer
from rag.answering.events import Done
from rag.answering.scripted import ScriptedChatModel
from rag.judgement.figures import JUDGED_HEAD, judged_figures
from rag.offline.extractive import ExtractiveAnswerer
from rag.questions.read import read_question
from rag.retrieval.retrieve import Retrieval
from tests.rag.test_compute import evidence

INCOME = """Acme Corp
Consolidated Statements of Income
(in millions)
2021 2020 2019
Net sales $ 1,000 $ 800 $ 500
Cost of sales 600 500 350
Gross profit 400 300 150
Operating income 150 100 25
Net income 100 60 -10"""
CASH_FLOWS = """Acme Corp
Consolidated Statements of Cash Flows
(in millions)
2021 2020 2019
Net cash provided by operating activities 250 200 120
Capital expenditures (300) (200) (100)"""
# The capex row of a filing whose cash flow statement shows two years, beside a three-year income statement.
CASH_FLOWS_TWO = """Acme Corp
Consolidated Statements of Cash Flows
(in millions)
2021 2020
Capital expenditures (300) (200)"""
BALANCE = """Acme Corp
Consolidated Balance Sheets
(in millions)
2021 2020
Cash and cash equivalents 150 120
Accounts receivable, net 250 230
Inventories 400 350
Total current assets 900 800
Property, plant and equipment, net 2,400 2,000
Total assets 4,000 3,500
Short-term debt 50 40
Current portion of long-term debt 100 60
Total current liabilities 600 640
Long-term debt 1,350 1,100
Total shareholders' equity 1,500 1,400"""
# A balance sheet without a total assets row: "Total current assets" holds the words, not the row.
BALANCE_NO_TOTAL = """Acme Corp
Consolidated Balance Sheets
(in millions)
2021 2020
Total current assets 900 800
Property, plant and equipment, net 2,400 2,000"""
# Two rows an operand's labels print (short-term investments), with different figures.
BALANCE_TWO_INVESTMENTS = """Acme Corp
Consolidated Balance Sheets
(in millions)
2021 2020
Cash and cash equivalents 150 120
Short-term investments 90 80
Marketable securities 210 200
Accounts receivable, net 250 230
Total current assets 900 800
Total current liabilities 600 640"""
QUARTER = """Acme Corp
Consolidated Balance Sheets
(in millions)
June 30, 2023 December 31, 2022
Total current assets 900 800
Total current liabilities 600 640
Consolidated Statements of Income
Three Months Ended June 30,
2023 2022
Net sales 300 250"""
MDNA = "Acme's business is capital intensive: we invest heavily in plants each year."


def _line(question: str, *passages: str) -> str:
    computation = judged_figures(read_question(question), evidence(*passages))
    assert computation is not None and computation.judged and computation.computed is None
    return computation.line


def _figure(line: str) -> str:
    """The line without its footnote ids (each [hex]), for comparing figures."""
    return re.sub(r" \[[0-9a-f]{7,8}\]", "", line)


@pytest.mark.parametrize(
    ("question", "passages", "figures"),
    [
        (  # capital intensity: capex over revenue (capex printed as an outflow), fixed assets over total assets
            "Is Acme capital-intensive? Use FY2021.",
            (INCOME, CASH_FLOWS, BALANCE),
            [
                "Capex as a % of revenue, FY2021 = capex 300 / revenue 1,000 = 30.0%",
                "Capex as a % of revenue, FY2020 = capex 200 / revenue 800 = 25.0%",
                "Capex as a % of revenue, FY2019 = capex 100 / revenue 500 = 20.0%",
                "Fixed assets to total assets, FY2021 = pp&e 2,400 / total assets 4,000 = 60.0%",
                "Fixed assets to total assets, FY2020 = pp&e 2,000 / total assets 3,500 = 57.1%",
            ],
        ),
        (  # liquidity: the current and quick ratios (no short-term investments row: cash + receivables)
            "Does Acme look liquid at FY2021 year-end?",
            (BALANCE,),
            [
                "Current ratio, FY2021 = current assets 900 / current liabilities 600 = 1.50",
                "Current ratio, FY2020 = current assets 800 / current liabilities 640 = 1.25",
                "Quick ratio, FY2021 = (cash 150 + receivables 250) / current liabilities 600 = 0.67",
                "Quick ratio, FY2020 = (cash 120 + receivables 230) / current liabilities 640 = 0.55",
            ],
        ),
        (  # leverage: debt over equity
            "How leveraged is Acme at the end of FY2021?",
            (BALANCE,),
            [
                "Debt-to-equity, FY2021 = (short term debt 50 + current debt 100 + long-term debt 1,350) / equity 1,500 = 1.00",
                "Debt-to-equity, FY2020 = (short term debt 40 + current debt 60 + long-term debt 1,100) / equity 1,400 = 0.86",
            ],
        ),
        (  # a margin's trend: each margin in each of the three years, a loss as a negative margin
            "How did Acme's margins move over 2019-2021?",
            (INCOME,),
            [
                "Gross margin, FY2021 = gross profit 400 / revenue 1,000 = 40.0%",
                "Gross margin, FY2019 = gross profit 150 / revenue 500 = 30.0%",
                "Operating margin, FY2020 = operating income 100 / revenue 800 = 12.5%",
                "Net margin, FY2021 = net income 100 / revenue 1,000 = 10.0%",
                "Net margin, FY2019 = net income -10 / revenue 500 = -2.0%",
            ],
        ),
    ],
)
def test_a_judgement_opens_with_its_metrics_for_each_year_shown(question, passages, figures) -> None:
    line = _figure(_line(question, *passages))
    for figure in figures:
        assert figure in line
    assert "Not computed" not in line and "FY2018" not in line


def test_a_year_an_operand_lacks_is_left_out_and_said_so() -> None:
    line = _figure(_line("Is Acme capital-intensive?", INCOME, CASH_FLOWS_TWO))
    assert "Capex as a % of revenue, FY2020 = capex 200 / revenue 800 = 25.0%" in line
    assert "Capex as a % of revenue, FY2019: capex: its rows have no 2019 column." in line
    assert "Capex as a % of revenue, FY2019 =" not in line
    # no balance sheet in the evidence: the second metric is named once, never guessed
    assert (
        "Not computed: fixed assets to total assets (FY2021: pp&e: no table row in the passages holds it)."
        in line
    )


def test_a_row_that_only_holds_an_operands_words_is_not_read() -> None:
    line = _figure(_line("Is Acme capital-intensive? Use FY2021.", INCOME, CASH_FLOWS, BALANCE_NO_TOTAL))
    assert "Capex as a % of revenue, FY2021 = capex 300 / revenue 1,000 = 30.0%" in line
    assert "Fixed assets to total assets, FY2021 =" not in line
    assert 'total assets: no row printed under its name (only "Total current assets")' in line


def test_an_alternative_formula_stands_in_only_for_a_row_the_filing_lacks() -> None:
    line = _figure(_line("Does Acme look liquid at FY2021 year-end?", BALANCE_TWO_INVESTMENTS))
    assert "Current ratio, FY2021 = current assets 900 / current liabilities 600 = 1.50" in line
    assert "Quick ratio, FY2021 =" not in line  # never (cash + receivables) beside two investment rows
    assert "Not computed: quick ratio (FY2021: short term investments: two rows could be it)." in line


def test_each_cell_is_one_footnote_whichever_figures_read_it() -> None:
    computation = judged_figures(read_question("Does Acme look liquid?"), evidence(BALANCE))
    assert computation is not None
    cited = re.findall(r"\[([0-9a-f]{7,8})\]", computation.line)
    assert sorted(set(cited)) == sorted(c.short_id for c in computation.cells)
    liabilities = [
        c for c in computation.cells if c.cell is not None and c.cell.label == "Total current liabilities"
    ]
    assert len(liabilities) == 2  # one per year, read by both ratios
    assert computation.block.startswith(JUDGED_HEAD) and all(
        c.short_id in computation.block for c in computation.cells
    )


@pytest.mark.parametrize(
    ("question", "passages"),
    [
        ("Does Acme look liquid at the end of Q2 2023?", (QUARTER,)),  # a quarter asked
        ("Does Acme look liquid?", (QUARTER,)),  # a quarter's statements
        ("Who is Acme's auditor?", (BALANCE,)),  # no judgement
        ("What is Acme's FY2021 current ratio?", (BALANCE,)),  # a figure: rag.compute's
        ("How concentrated is Acme's revenue by segment?", (INCOME,)),  # a concept tied to no metric
        ("Does Acme look liquid?", (INCOME,)),  # no operand's row
    ],
)
def test_no_figures_without_a_fiscal_years_statement_rows(question: str, passages: tuple[str, ...]) -> None:
    assert judged_figures(read_question(question), evidence(*passages)) is None


def test_the_offline_answer_opens_with_the_figures_then_the_passages() -> None:
    question = read_question("Is Acme capital-intensive? Use FY2021.")
    retrieval = Retrieval(evidence(INCOME, CASH_FLOWS, BALANCE, MDNA), best_dense=0.9, best_coverage=1.0)
    events = list(stream_answer(question, retrieval, chat_model=ExtractiveAnswerer(), provider_label="test"))
    answer = next(e for e in events if isinstance(e, Done)).answer
    assert answer.text.startswith("Capex as a % of revenue, FY2021 = capex 300 [")
    # then what the filing says of it, cited by its passage
    assert answer.text.index("Fixed assets to total assets") < answer.text.index(
        "capital intensive: we invest"
    )
    cells = [f for f in answer.footnotes if f.evidence.cell is not None]
    assert {f.evidence.cell.printed for f in cells} >= {"(300)", "1,000", "2,400", "4,000"}
    assert all(f.kind == "cited" for f in cells)
    assert not answer.closest and not answer.unsupported and answer.computed is None


def test_a_model_gets_the_figures_as_one_block_and_the_answer_opens_with_them() -> None:
    model = ScriptedChatModel(replies=["Capex runs near a third of sales: capital intensive."])
    retrieval = Retrieval(evidence(INCOME, CASH_FLOWS, BALANCE), best_dense=0.9, best_coverage=1.0)
    question = read_question("Is Acme capital-intensive? Use FY2021.")
    events = list(stream_answer(question, retrieval, chat_model=model, provider_label="test"))
    answer = next(e for e in events if isinstance(e, Done)).answer
    figures, _, rest = answer.text.rpartition("\n\n")
    assert figures.startswith("Capex as a % of revenue, FY2021 =") and rest.startswith(
        "Capex runs near a third"
    )
    prompt = str(model.calls[0][-1].content)
    assert prompt.count(JUDGED_HEAD) == 1 and "Fixed assets to total assets, FY2021 = pp&e 2,400 [" in prompt
    cells = [f.evidence for f in answer.footnotes if f.evidence.cell is not None]
    assert len(cells) >= 4
    for cell in cells:
        assert prompt.count(f"Source ID [{cell.short_id}]: cell of source [") == 1
