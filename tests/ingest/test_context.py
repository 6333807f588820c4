"""A chunk carries its table title and column headers (or its section heading) as context, kept
out of its text and locators."""

from __future__ import annotations

from ingest.pdf.chunking import chunk_pages, locator_text
from ingest.pdf.context import indexed_text
from ingest.pdf.reader import read_pdf
from ingest.types import Page
from tests.ingest.pdfs import make_pdf

RUNNING = "Northwind Traders | Annual Report | Fiscal 2023"
ROWS = [
    f"{label} {1000 + 7 * i:,} {900 + 5 * i:,} ({80 + i})"
    for i, label in enumerate(
        [
            "Net income",
            "Depreciation and amortization",
            "Stock-based compensation",
            "Deferred income taxes",
            "Accounts receivable",
            "Inventories",
            "Accounts payable",
            "Other operating items",
            "Purchases of property and equipment",
            "Acquisitions, net of cash acquired",
            "Proceeds from sales",
            "Repayments of long-term debt",
            "Dividends paid",
            "Repurchases of common stock",
        ]
    )
]
PROSE = (
    "We believe that our cash and the credit facility will be sufficient to fund our operations "
    "for at least the next twelve months, and we expect capital spending to be similar next year."
)


def _statement_pdf() -> bytes:
    """Three pages: prose under a heading, a statement with its header, its continuation without."""
    return make_pdf(
        [
            "\n".join([RUNNING, "Liquidity and Capital Resources", PROSE, PROSE, PROSE]),
            "\n".join(
                [
                    RUNNING,
                    "Consolidated Statements of Cash Flows",
                    "(in millions)",
                    "Year Ended December 31,",
                    "2023 2022 2021",
                    *ROWS[:7],
                ]
            ),
            "\n".join([RUNNING, *ROWS[7:]]),
        ]
    )


def test_rows_carry_the_table_title_and_year_header_even_on_the_next_page() -> None:
    doc = read_pdf(_statement_pdf(), "northwind.pdf")
    chunks = chunk_pages("d" * 64, doc.pages, 250, 40)
    rows = [c for c in chunks if "Dividends paid" in c.text or "Inventories" in c.text]
    assert {c.first.page_index for c in rows} == {1, 2}
    for chunk in rows:
        assert chunk.context == "Consolidated Statements of Cash Flows | (in millions) 2023 2022 2021"
        assert chunk.text == locator_text(doc.pages, chunk.locators)  # the context is not in the text
    continued = next(c for c in rows if c.first.page_index == 2)
    assert "2023 2022 2021" not in continued.text


def test_prose_carries_its_heading_and_running_headers_are_not_titles() -> None:
    doc = read_pdf(_statement_pdf(), "northwind.pdf")
    prose = [c for c in chunk_pages("d" * 64, doc.pages, 250, 40) if c.first.page_index == 0]
    assert len(prose) > 1
    assert prose[0].context == ""  # it opens with its heading (after the running header)
    assert {c.context for c in prose[1:]} == {"Liquidity and Capital Resources"}


def test_a_row_of_amounts_is_not_a_header_and_a_sentence_is_not_a_title() -> None:
    pages = [
        Page(
            0,
            "1",
            "\n".join(
                [
                    "Revenue 2,019 1,876 1,702",
                    "Cost of sales 1,204 1,150 1,020",
                    "Revenue in our Test and Measurement segment increased 22.8% to $1,369 Million",
                    "Gross profit 815 726 682",
                ]
            ),
        )
    ]
    (chunk,) = chunk_pages("d" * 64, pages, 1000, 0)
    assert chunk.context == ""


def test_a_sentence_naming_two_years_is_not_a_column_header() -> None:
    pages = [
        Page(0, "1", "Revenue grew in every one of our regions from 2022 to 2023 as we had planned"),
        Page(1, "2", "Net income 537 917 722\nDepreciation and amortization 198 176 142"),
    ]
    rows = chunk_pages("d" * 64, pages, 80, 0)[-1]
    assert rows.first.page_index == 1 and rows.context == ""


def test_indexed_text_puts_the_context_line_first() -> None:
    assert indexed_text("Balance Sheets | 2023 2022", "Cash 10 9") == "Balance Sheets | 2023 2022\nCash 10 9"
    assert indexed_text("", "Cash 10 9") == "Cash 10 9"
