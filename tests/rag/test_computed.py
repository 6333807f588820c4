"""rag.passages.computed: the row of each line item a metric is defined over (retrieval's page stage
puts them first); the figure itself is computed by rag.compute (tests/rag/test_compute.py)."""

from __future__ import annotations

from rag.passages.computed import computed_rows
from rag.passages.units import passage_units
from rag.questions.read import Input, read_question

BALANCE = """Consolidated Balance Sheets
(in millions)
2021 2020
Total current assets 15,000 14,500
Other current liabilities 2,100 1,900
Total current liabilities 9,100 8,700
Total assets 50,000 47,000"""
CASH = """Consolidated Statements of Cash Flows
(in millions)
2021 2020 2019
Net cash provided by operating activities 4,300 3,900 3,800
Purchases of property and equipment (1,577) (1,602) (1,499)"""


def inputs(*items: str) -> tuple[Input, ...]:
    """The line items as a question that defines a metric of them is read (rag.questions.read)."""
    found = read_question(f"What is the ratio? The ratio is defined as: {' / '.join(items)}.").inputs
    assert tuple(i.text for i in found) == items
    return found


def test_each_input_gets_the_row_that_holds_all_of_it_with_the_asked_year() -> None:
    units = passage_units("a", BALANCE) + passage_units("b", CASH)
    rows = computed_rows(inputs("cash from operations", "total current liabilities"), units, [2021])
    assert rows is not None
    assert [u.row.label for u in rows] == [
        "Net cash provided by operating activities",
        "Total current liabilities",
    ]
    # an input no row holds: no computation from two of three inputs
    assert computed_rows(inputs("total current liabilities", "inventory"), units, [2021]) is None


def test_a_row_whose_columns_are_other_years_is_no_input() -> None:
    units = passage_units("a", BALANCE) + passage_units("b", CASH)
    # the cash flow statement's columns are 2021-2019: no operating cash flow for 2018 is there
    assert computed_rows(inputs("cash from operations", "total current liabilities"), units, [2018]) is None
    assert computed_rows(inputs("cash from operations"), units, [2019]) is not None
