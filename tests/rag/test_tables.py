"""rag.tables.lines: one line of a table read as a row (label, cells, each value exact) or as a
column header (a period per column, with its span and end when the header prints them)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from rag.tables.lines import (
    Period,
    header_years,
    parse_amount,
    read_header,
    read_row,
    table_line,
)

Q = Period  # short in the table below


@pytest.mark.parametrize(
    ("line", "columns"),
    [
        ("2023 2022 2021", (Q(2023), Q(2022), Q(2021))),
        ("Fiscal 2023 Fiscal 2022", (Q(2023, months=12), Q(2022, months=12))),
        ("Fiscal Years 2023 2022", (Q(2023, months=12), Q(2022, months=12))),
        (
            "Year Ended December 31, 2023 2022",
            (Q(2023, months=12, end=date(2023, 12, 31)), Q(2022, months=12, end=date(2022, 12, 31))),
        ),
        (
            "Three months ended October 31, 2022 2021",
            (Q(2022, months=3, end=date(2022, 10, 31)), Q(2021, months=3, end=date(2021, 10, 31))),
        ),
        ("Six Months Ended June 30, 2023", (Q(2023, months=6, end=date(2023, 6, 30)),)),
        (
            "Three Months Ended September 30, 2022 2021 Nine Months Ended September 30, 2022 2021",
            (
                Q(2022, months=3, end=date(2022, 9, 30)),
                Q(2021, months=3, end=date(2021, 9, 30)),
                Q(2022, months=9, end=date(2022, 9, 30)),
                Q(2021, months=9, end=date(2021, 9, 30)),
            ),
        ),
        ("Q3 2022 Q3 2021", (Q(2022, 3, 3), Q(2021, 3, 3))),
        ("Third Quarter 2022 2021", (Q(2022, 3, 3), Q(2021, 3, 3))),
        ("1Q22 4Q21", (Q(2022, 1, 3, coded=True), Q(2021, 4, 3, coded=True))),
        # a balance sheet's columns are dates: an end, no span
        (
            "December 31, 2023 December 31, 2022",
            (Q(2023, end=date(2023, 12, 31)), Q(2022, end=date(2022, 12, 31))),
        ),
        # a day the year does not have is no end
        (
            "Year Ended February 29, 2024 2023",
            (Q(2024, months=12, end=date(2024, 2, 29)), Q(2023, months=12)),
        ),
        ("Three Months Ended Nine Months Ended", ()),  # a header's line without years
        ("(In millions, except per share amounts) 2023 2022", (Q(2023), Q(2022))),
    ],
)
def test_a_header_line_names_each_columns_period(line: str, columns: tuple[Period, ...]) -> None:
    read = read_header(line)
    assert read is not None and read.columns == columns


@pytest.mark.parametrize(
    "line",
    [
        "Revenue 2023 2,000",  # another number: a row
        "On December 9, 2021, the Board declared a dividend payable on March 1, 2022 to holders",
        "Chase's 2021 Form 10-K for additional information",
    ],
)
def test_a_line_of_prose_or_a_row_is_no_header(line: str) -> None:
    assert read_header(line) is None


def test_comparison_columns_are_more_columns_and_a_repeat_is_said() -> None:
    read = read_header("2016 2015 $ Change % Change")
    assert (
        read is not None and [p.year for p in read.columns] == [2016, 2015] and read.more and read.comparison
    )
    again = read_header("2022 2021 Reported 2022 2021")
    assert again is not None and again.again
    spans = read_header("Three Months Ended Six Months Ended")
    assert spans is not None and spans.spans == ("3m", "6m")


@pytest.mark.parametrize(
    ("line", "label", "cells"),
    [
        ("Net income 537 917 722", "Net income", (("537", 537), ("917", 917), ("722", 722))),
        ("Capital expenditures $ 1,577 $ 1,602", "Capital expenditures", (("1,577", 1577), ("1,602", 1602))),
        (
            "Interest expense, net ( 1,177 ) (42)",
            "Interest expense, net",
            (("( 1,177 )", -1177), ("(42)", -42)),
        ),
        (
            "Restructuring charges - 109 \u2014",
            "Restructuring charges",
            (("-", None), ("109", 109), ("\u2014", None)),
        ),
        (
            "Effective tax rate 21.5% (3.2)%",
            "Effective tax rate",
            (("21.5%", Decimal("21.5")), ("(3.2)%", Decimal("-3.2"))),
        ),
        (
            "Effective tax rate 40.1 % 65.0 % (2.1)%",
            "Effective tax rate",
            (("40.1 %", Decimal("40.1")), ("65.0 %", Decimal("65.0")), ("(2.1)%", Decimal("-2.1"))),
        ),
        ("Trade payables........ $ 93,307", "Trade payables", (("93,307", 93307),)),
        (
            "CASH FLOWS FROM OPERATING ACTIVITIES Net income 537 917",
            "Net income",
            (("537", 537), ("917", 917)),
        ),
        ("2021 restructuring charges 120 32", "2021 restructuring charges", (("120", 120), ("32", 32))),
    ],
)
def test_a_row_is_its_label_and_its_cells_read_exactly(line: str, label: str, cells: tuple) -> None:
    row = read_row(line)
    assert row is not None and row.label == label
    assert tuple((c.text, c.value) for c in row.cells) == cells
    assert all(line[c.start : c.end] == c.text for c in row.cells)


@pytest.mark.parametrize(
    "line",
    [
        "Founded in 1987",
        "See page 12",
        "revenue rose to 1,577 2,000",
        "2021 2020 2019",
        "December 31 2023 2022",
    ],
)
def test_a_line_that_is_no_row(line: str) -> None:
    assert read_row(line) is None


@pytest.mark.parametrize(
    ("line", "label", "cells"),
    [
        # a paper's scores: a deviation glued to its score, or spaced in a row that glues another
        (
            "InstructGPT + Rerank (L) 60.6(2.1) 62.6 (2.7) 63.3(\u2212)",
            "InstructGPT + Rerank (L)",
            (
                ("60.6(2.1)", Decimal("60.6")),
                ("62.6 (2.7)", Decimal("62.6")),
                ("63.3(\u2212)", Decimal("63.3")),
            ),
        ),
        (
            "BERT-base 71.3\u00b11.4 68.2\u2020 n/a",
            "BERT-base",
            (("71.3\u00b11.4", Decimal("71.3")), ("68.2\u2020", Decimal("68.2")), ("n/a", None)),
        ),
        (
            "Alpaca-7B 4.10 4.46 \u2013 3.76",
            "Alpaca-7B",
            (
                ("4.10", Decimal("4.10")),
                ("4.46", Decimal("4.46")),
                ("\u2013", None),
                ("3.76", Decimal("3.76")),
            ),
        ),
        ("TACREV 9.1% 0.5%", "TACREV", (("9.1%", Decimal("9.1")), ("0.5%", Decimal("0.5")))),
    ],
)
def test_a_papers_row_reads_its_scores(line: str, label: str, cells: tuple) -> None:
    row = read_row(line)
    assert row is not None and row.label == label
    assert tuple((c.text, c.value) for c in row.cells) == cells
    assert all(line[c.start : c.end] == c.text for c in row.cells)


def test_a_filings_negative_after_an_amount_stays_its_own_cell() -> None:
    row = read_row("Other income, net 10.5 (2.3)")
    assert row is not None and [c.value for c in row.cells] == [Decimal("10.5"), Decimal("-2.3")]


@pytest.mark.parametrize(
    ("line", "years"),
    [
        ("2023 2022 2021", (2023, 2022, 2021)),
        ("Consolidated Statements of Cash Flows 2023 2022", (2023, 2022)),
        ("November 27, 2015 November 28, 2014", (2015, 2014)),
        ("In 2023", ()),
        ("Revenue 2023 2,000", ()),
        ("On December 9, 2021, the Board declared a dividend payable on March 1, 2022 to holders", ()),
    ],
)
def test_header_years(line: str, years: tuple[int, ...]) -> None:
    assert header_years(line) == years


def test_a_header_run_into_the_first_row_is_read_with_it() -> None:
    row = read_row("For the Years Ended December 31, 2021 2020 Operating revenues $ 3,930 $ 3,721")
    assert row is not None and row.label == "Operating revenues"
    assert row.header is not None and [p.year for p in row.header.columns] == [2021, 2020]


def test_a_cells_value_is_exact() -> None:
    assert parse_amount("( 1,177 )") == Decimal(-1177)
    assert parse_amount("4.450%") == Decimal("4.450")
    assert parse_amount("$ 2,306,072") == Decimal(2306072)
    assert parse_amount("\u2014") is None and parse_amount("12 (a)") is None


def test_a_tables_line_no_row_reads_still_ends_in_cells() -> None:
    assert table_line("Operating income 4,021 9,538 10,386 (5,517) (57.8)% (848) (8.2)%")
    assert not table_line("years ended May 31, 2023, 2022")
    assert table_line("+ Ensemble (S) + Rerank (L) 61.3(1.9) 63.2(0.9) 63.7(1.8)")
