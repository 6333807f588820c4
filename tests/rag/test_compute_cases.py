"""Issue 51's cases, from one table: the figure an analyst means (averages of yearly figures, a
margin of a derived metric, a quarter's column, a provision's parentheses, a conversion of scale,
net against gross, two reporting entities), in the words its line shows, or a refusal that says
what failed."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ingest.types import Chunk, Document, PageLocator
from rag.citations.evidence import build_evidence
from rag.compute.present import NOT_COMPUTED, compute_answer
from rag.compute.values import grouped
from rag.questions.read import read_question
from rag.types import Evidence


def evidence(*texts: str) -> tuple[Evidence, ...]:
    """One chunk per text, each the whole of its page, of one document."""
    doc = Document("0" * 64, "Acme", "acme.pdf", 9, 1, 1)
    hits = []
    for n, text in enumerate(texts):
        chunk = Chunk(
            f"{n:x}".rjust(64, "c"), doc.doc_id, n, text, (PageLocator(n, str(n + 1), 0, len(text)),)
        )
        hits.append((chunk, doc, 0.5))
    return build_evidence(hits)


TAXES = """Acme Corp
Consolidated Statements of Income
(in millions)
2021 2020 2019
Net sales $ 10,000 $ 9,000 $ 8,100
Operating income 1,100 900 850
Restructuring charges 40 35 30
Income before income taxes 1,000 900 800
Provision for income taxes (200) (195) (170)
Net income 800 705 630"""
CASH_3Y = """Acme Corp
Consolidated Statements of Cash Flows
(in thousands)
Years Ended December 31, 2021 2020 2019 Cash flows from operating activities
Net income 800,000 705,000 630,000
Depreciation and amortization 400,000 380,000 350,000
Net cash provided by operating activities 4,300,000 3,900,000 3,500,000
Capital expenditures (700,000) (630,000) (600,000)"""
PPE = """Acme Corp
Consolidated Balance Sheets
(in millions)
2021 2020
Property, plant and equipment 20,000 18,000
Less accumulated depreciation (8,000) (7,000)
Property, plant and equipment, net 12,000 11,000"""
HOLDING = """Acme Holdings, Inc. Consolidated Balance Sheets
(in millions)
2021 2020
Total current assets 3,000 2,800
Total current liabilities 3,456 3,300"""
UTILITY = """Acme Utility Company Consolidated Balance Sheets
(in millions)
2021 2020
Total current assets 900 850
Total current liabilities 1,000 950"""
BENEFIT = """Acme Corp
Consolidated Statements of Income
(in millions)
2021 2020 2019
Income before income taxes 1,000 900 800
Provision for (benefit from) income taxes 200 (50) 170
Net income 800 950 630"""
JANUARY = 0  # a fiscal year ending in January (0-based month), as retailers' do
CALENDAR_QUARTER = """Acme Corp
Condensed Consolidated Statements of Income
(in millions)
Three Months Ended June 30, 2023 2022
Net revenue 40,000 31,000
Net income 14,472 11,948"""
FISCAL_QUARTERS = """Acme Stores, Inc.
Condensed Consolidated Statements of Income
(in millions)
Three Months Ended October 31, 2022 2021
Net sales 2,500 2,000
Operating income 300 200"""
SECURITIES_NOTE = """Acme Corp
Investment securities
(in millions)
Three Months Ended March 31, 2021 2020
Provision for credit losses 16 9"""
ALLOWANCE = """Acme Corp
Allowance for credit losses
(in millions)
Three Months Ended March 31, 2021 2020
Consumer loans 10 3,000
Wholesale loans (4,166) 5,285
Total provision for credit losses (4,156) 8,285"""
FIRM = """Acme Corp
Selected income statement data
(in millions)
Three Months Ended March 31, 2021 2020
Total net revenue 32,266 28,286"""
CORPORATE_SEGMENT = """Corporate segment
Selected income statement data
(in millions)
Three Months Ended March 31, 2021 2020
Total net revenue (473) 166"""
DISCONTINUED = """Acme Corp
Consolidated Statements of Operations
(in millions)
2021 2020
Revenues 5,000 4,000
Interest expense (300) (250)
Income (loss) from discontinued operations (135) 40
Net income 600 500"""
# A statement whose rows sit under headings ("Revenues", then "Casino"), their total printed with
# no label, and a label set over two lines ("Operating" / "income").
BY_HEADING = """Acme Resorts
Consolidated Statements of Operations
(in millions)
2021 2020
Revenues
Casino 5,000 4,000
Rooms 2,000 1,500
Entertainment, retail and other 100 80
7,100 5,580
Expenses
Casino 3,000 2,500
Rooms 900 700
Operating
income 3,100 2,300
Interest expense (1,000) (920)"""
SEGMENT_CASINO = """Net revenues by segment
(in millions)
2021 2020
East
Casino revenue 3,000 2,500
West
Casino revenue 2,000 1,500"""
NO_SUM = """Acme Resorts
Consolidated Statements of Operations
(in millions)
2021 2020
Revenues
Casino 5,000 4,000
Rooms 2,000 1,500
6,900 5,500"""
# An earnings release's statement: each year's amount, then its percentage of sales; the years
# printed under the table (extraction put the header last).
PAIRED = """Acme Corp
Condensed Consolidated Statement of Earnings
(in millions)
Percent Percent
Amount to Sales Amount to Sales
Sales to customers 25,530 100.0 24,020 100.0
Research and development expense 3,829 15.0 3,703 15.4
(1) See the reconciliation.
SECOND QUARTER
2023 2022
* The quarter's other expense includes a gain."""

CASES = [
    # (question, passages, result, unit, words the line holds); result None: refused for those words,
    # or, unit "passages", no figure read at all; then the fiscal year end's month (0-based), if not December
    (  # a 3-year average: each year's ratio, then their mean; every year shown
        "What is the FY2019 - FY2021 3 year average of capex as a % of revenue for Acme? Percent, one decimal.",
        (CASH_3Y, TAXES),
        "7.1",
        "%",
        ("FY2019: 7.4%", "FY2020: 7.0%", "FY2021: 7.0%"),
    ),
    (  # the same, said as analysts say it: "three-year average net profit margin for 2019 to 2021"
        "What was Acme's three-year average net profit margin for 2019 to 2021?",
        (TAXES,),
        "7.9",
        "%",
        ("Average net margin, FY2019-FY2021 = (", "FY2019: 7.8%", "FY2020: 7.8%", "FY2021: 8.0%"),
    ),
    (  # the years listed one by one: each is averaged
        "What was Acme's average net profit margin across FY2019, FY2020 and FY2021?",
        (TAXES,),
        "7.9",
        "%",
        ("FY2019: 7.8%", "FY2020: 7.8%", "FY2021: 8.0%"),
    ),
    (  # an average over years the question does not place: no figure, never one year's
        "What was Acme's average operating margin over the last three years?",
        (TAXES,),
        None,
        "passages",
        (),
    ),
    (  # a margin of a derived metric: EBITDA's formula over revenue, thousands and millions reconciled
        "What was Acme's FY2020 EBITDA % margin?",
        (TAXES, CASH_3Y),
        "14.2",
        "%",
        ("EBITDA margin, FY2020 = (operating income 900 [", "d&a 380,000 ["),
    ),
    (  # a quarter's column by its "three months ended" header
        "What were Acme's net sales for the three months ended October 31, 2022? USD millions.",
        (FISCAL_QUARTERS,),
        "2500",
        "USD millions",
        ("Net sales, three months of 2022: 2,500 (USD millions) [",),
    ),
    (  # a fiscal quarter: a year ending in January makes the three months to October 31, 2022 its Q3 FY2023
        "What were Acme's net sales in Q3 of fiscal 2023? USD millions.",
        (FISCAL_QUARTERS,),
        "2500",
        "USD millions",
        ("Net sales, Q3 2023: 2,500 (USD millions) [",),
        JANUARY,
    ),
    (  # a calendar year's three months to June 30 are its second quarter, never the third asked
        "What was Acme's net income in Q3 2023? USD millions.",
        (CALENDAR_QUARTER,),
        None,
        "passages",
        (),
    ),
    (  # a provision printed in parentheses is an expense, not a negative amount; each year's rate shown
        "By how much did Acme's effective tax rate change from FY2020 to FY2021? Percent, one decimal.",
        (TAXES,),
        "-1.7",
        "%",
        ("FY2021: 20.0%", "FY2020: 21.7%", "printed (200), an outflow"),
    ),
    (  # a row printing one year in parentheses among plain ones: that year's benefit, a sign
        "What was Acme's effective tax rate in FY2020? Percent, one decimal.",
        (BENEFIT,),
        "-5.6",
        "%",
        ("Effective tax rate, FY2020 = ",),
    ),
    (  # a plain lookup in thousands, asked in millions: converted, the conversion shown
        "What were Acme's capital expenditures in FY2021? Answer in USD millions.",
        (CASH_3Y,),
        "700",
        "USD millions",
        ("Capital expenditures, FY2021: 700 (USD millions) [", "700,000 thousand = 700 million"),
    ),
    (  # net against gross: the definition's net PP&E, not the gross row above it
        "What is Acme's FY2021 fixed asset turnover ratio? Fixed asset turnover ratio is defined as: FY2021 "
        "revenue / (average PP&E between FY2020 and FY2021). Round your answer to two decimal places.",
        (TAXES, PPE),
        "0.87",
        "ratio",
        ("PP&E 2021 12,000 [", "PP&E 2020 11,000 ["),
    ),
    (  # two entities, none named: the figure for each, labelled with the entity its table names
        "What is Acme's FY2021 current ratio?",
        (HOLDING, UTILITY),
        "0.87",
        "ratio",
        (
            "Acme Holdings, Inc.: Current ratio, FY2021 = ",
            "Acme Utility Company: Current ratio, FY2021 = ",
            "= 0.90",
        ),
    ),
    (  # two entities, one named: that entity's figure
        "What was Acme Utility Company's FY2021 current ratio?",
        (HOLDING, UTILITY),
        "0.90",
        "ratio",
        ("current assets 900 [",),
    ),
    (  # "unadjusted" and "reported" qualify the line item, they do not hide it
        "What was Acme's reported operating income in FY2021? USD millions.",
        (TAXES,),
        "1100",
        "USD millions",
        ("Operating income, FY2021: 1,100 (USD millions) [",),
    ),
    (  # a row the vocabulary does not hold, asked as printed
        "How much did Acme spend on restructuring charges in FY2020? USD millions.",
        (TAXES,),
        "35",
        "USD millions",
        ("Restructuring charges, FY2020: 35 (USD millions) [",),
    ),
    (  # two names, a product inside the company: no row of the company's is its figure; the passages answer
        "How much revenue did Widget Pro generate for Acme in FY2021? USD millions.",
        (TAXES,),
        None,
        "passages",
        (),
    ),
    (  # a margin asked in a currency: an amount, so the margin's percentage is refused, never stated
        "What was Acme's operating margin in FY2021, in USD millions?",
        (TAXES,),
        None,
        "",
        ("asks for an amount", "gives a percentage"),
    ),
    (  # rows tied on the line item: the one its label says is the total is the company's figure
        "What was Acme's provision for credit losses in Q1 2020? USD millions.",
        (SECURITIES_NOTE, ALLOWANCE),
        "8285",
        "USD millions",
        ("Total provision for credit losses, Q1 2020: 8,285 (USD millions) [",),
    ),
    (  # two totals disagree (the firm's and a segment's): refused, never the larger or the first
        "What was Acme's total net revenue in Q1 2021? USD millions.",
        (FIRM, CORPORATE_SEGMENT),
        None,
        "",
        ("two rows could be it", "32,266", "(473)"),
    ),
    (  # a row holding the line item's words and a qualifier ("discontinued operations") is not it
        "What was Acme's FY2021 interest coverage ratio (operating income / interest expense)? Two decimals.",
        (DISCONTINUED,),
        None,
        "",
        ('"operating income"',),
    ),
    (  # a row under a heading is named by both ("Casino" under "Revenues"), not the expense under "Expenses"
        "What was Acme's casino revenue in FY2021? USD millions.",
        (SEGMENT_CASINO, BY_HEADING),
        "5000",
        "USD millions",
        ("Casino, FY2021: 5,000 (USD millions) [",),
    ),
    (  # a heading's rows ("... and other" ends a label), then their sum with no label: the heading's total
        "What were Acme's total revenues in FY2021? USD millions.",
        (BY_HEADING,),
        "7100",
        "USD millions",
        ("Total Revenues, FY2021: 7,100 (USD millions) [",),
    ),
    (  # cells alone that are not the sum of the rows above: no row, no figure; the passages answer
        "What were Acme's total revenues in FY2021? USD millions.",
        (NO_SUM,),
        None,
        "passages",
        (),
    ),
    (  # a label set over two lines ("Operating" / "income 3,100") is one label
        "What was Acme's FY2021 interest coverage ratio (operating income / interest expense)? Two decimals.",
        (BY_HEADING,),
        "3.10",
        "ratio",
        ("operating income 3,100 [",),
    ),
    (  # amount and percentage columns alternate: the year's amount, not the percentage beside the year before
        "What was Acme's research and development expense in Q2 2022? USD millions.",
        (PAIRED,),
        "3703",
        "USD millions",
        ("Research and development expense, Q2 2022: 3,703 (USD millions) [",),
    ),
    (  # a percentage asked, and the only figure found an amount: refused, the rows found shown
        "What was Acme's FY2021 free cash flow yield, in percent?",
        (CASH_3Y,),
        None,
        "",
        ("asks for a percentage", "gives an amount", "4,300,000"),
    ),
]


@pytest.mark.parametrize("case", CASES)
def test_the_figure_an_analyst_means_and_its_line(case: tuple) -> None:
    question, passages, result, unit, holds, *fy_end = case
    fy_ends = {"0" * 64: fy_end[0]} if fy_end else None  # the document's company's fiscal year end
    computation = compute_answer(read_question(question), evidence(*passages), (), fy_ends)
    if unit == "passages":  # no figure is read: the passages answer
        assert computation is None
        return
    assert computation is not None
    for words in holds:
        assert words in computation.line, computation.line
    if result is None:
        assert computation.computed is None and computation.line.startswith(NOT_COMPUTED)
        return
    assert computation.computed is not None, computation.line
    assert (computation.computed.result, computation.computed.unit) == (result, unit)
    # the text shows the figure computed.result holds
    shown = grouped(Decimal(result)) if unit.startswith("USD") else result
    assert f" {shown}" in computation.line
