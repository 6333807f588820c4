"""rag.passages.computed: whether a passage prints the row of a line item a metric is defined over
(retrieval's page stage takes those passages first); the figure itself is computed by rag.compute
(tests/rag/test_compute.py)."""

from __future__ import annotations

from rag.passages.computed import holds_row
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


def test_a_passage_holds_an_input_when_a_row_label_holds_all_of_it() -> None:
    cash_from_operations, current_liabilities, inventory = inputs(
        "cash from operations", "total current liabilities", "inventory"
    )
    # a shorthand's spelled-out words count: "cash from operations" is the operating activities row
    assert holds_row(cash_from_operations, CASH) and not holds_row(cash_from_operations, BALANCE)
    assert holds_row(current_liabilities, BALANCE) and not holds_row(current_liabilities, CASH)
    assert not holds_row(inventory, BALANCE + "\n" + CASH)


def test_a_label_holding_part_of_an_input_is_another_row() -> None:
    (current_liabilities,) = inputs("total current liabilities")
    assert not holds_row(current_liabilities, "Other current liabilities 2,100 1,900")
    # prose naming the item is no row
    assert not holds_row(current_liabilities, "Total current liabilities rose to $9.1 billion in 2021.")
