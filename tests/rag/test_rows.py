"""Table rows in extracted text, and the offline answerer quoting them with the asked year's column."""

from __future__ import annotations

import pytest

from rag.passages.rows import context_years, quote_row
from rag.prompts import CLOSEST_PASSAGES
from rag.tables.lines import header_years, read_row
from tests.rag.test_extractive import ask, evidence


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Net income 537 917 722", ("Net income", ("537", "917", "722"))),
        ("Capital expenditures $ 1,577 $ 1,602", ("Capital expenditures", ("1,577", "1,602"))),
        ("Interest expense, net (42) (25) (49)", ("Interest expense, net", ("(42)", "(25)", "(49)"))),
        ("Restructuring charges - 109 -", ("Restructuring charges", ("-", "109", "-"))),
        ("Total 1,577", ("Total", ("1,577",))),
        ("Founded in 1987", None),  # a lone year is no amount
        ("Depreciation was $86 million, $71 million and $80 million in fiscal 2018, 2017 and 2016,", None),
        ("revenue rose to 1,577 2,000", None),  # a wrapped prose line
        ("See page 12", None),
    ],
)
def test_read_row(line: str, expected: tuple[str, tuple[str, ...]] | None) -> None:
    row = read_row(line)
    assert (None if row is None else (row.label, row.printed)) == expected


def test_header_years() -> None:
    assert header_years("2023 2022 2021") == (2023, 2022, 2021)
    assert header_years("Fiscal Years 2023 2022") == (2023, 2022)
    assert header_years("Revenue 2023 2,000") == () and header_years("In 2023") == ()
    assert context_years("Consolidated Statements of Cash Flows | 2023 2022 2021") == (2023, 2022, 2021)


def test_quote_row_names_the_column_only_when_header_and_cells_line_up() -> None:
    row = read_row("Capital expenditures 1,602 1,577 1,380")
    assert row is not None
    assert quote_row(row, (2023, 2022, 2021), (2022,)) == (
        "Capital expenditures: 1,577 in 2022 (columns 2023, 2022, 2021: 1,602 / 1,577 / 1,380)"
    )
    assert quote_row(row, (2023, 2022), (2022,)) == "Capital expenditures: 1,602 / 1,577 / 1,380"
    assert quote_row(row, (2023, 2022, 2021), ()) == (
        "Capital expenditures: 1,602 / 1,577 / 1,380 (columns 2023, 2022, 2021)"
    )


CASH_FLOWS = (
    "Consolidated Statements of Cash Flows (in millions)\n2023 2022 2021\n"
    "Net income 537 917 722\nDepreciation and amortization 201 176 160\n"
    "Purchases of property and equipment (249) (231) (198)\nOther income, net (11) (7) (10)\n"
)


def test_the_answerer_quotes_the_row_with_the_asked_years_column() -> None:
    cash = evidence("aaaa111", CASH_FLOWS, title="Acme Foods, Inc. Annual Report")
    assert ask("What was Acme Foods' net income in fiscal 2021?", cash) == (
        "Net income: 722 in 2021 (columns 2023, 2022, 2021: 537 / 917 / 722) [aaaa111]"
    )
    assert ask("Acme D&A FY2022?", cash).startswith("Depreciation and amortization: 176 in 2022")
    assert ask("What was capex for the fiscal year ended December 31, 2023?", cash).startswith(
        "Purchases of property and equipment: (249) in 2023"
    )


def test_the_column_header_can_come_from_the_context_line() -> None:
    rows = "Net income 537 917 722\nOther income, net (11) (7) (10)"
    cash = evidence("aaaa111", rows)
    cash = type(cash)(
        **{**cash.__dict__, "context": "Consolidated Statements of Cash Flows | 2023 2022 2021"}
    )
    assert ask("What was net income in fiscal 2022?", cash) == (
        "Net income: 917 in 2022 (columns 2023, 2022, 2021: 537 / 917 / 722) [aaaa111]"
    )


def test_a_year_the_table_lacks_gets_the_closest_passages_not_a_made_up_number() -> None:
    text = ask("What was net income in fiscal 2019?", evidence("aaaa111", CASH_FLOWS))
    assert text.startswith(CLOSEST_PASSAGES) and "2019" not in text.removeprefix(CLOSEST_PASSAGES)
    assert "Net income: 537 / 917 / 722" in text


def test_period_words_are_read_as_the_period_not_as_words_to_find() -> None:
    from rag.questions.asked import read_concepts

    asked = read_concepts("What was total revenue for the fiscal year ended December 31, 2022?")
    assert asked.years == (2022,) and asked.numbers == frozenset()
    assert {t for c in asked.concepts for t in c} == {"total", "revenu"}


def test_a_row_repeated_in_two_statements_is_not_taken_for_a_running_header() -> None:
    income = evidence(
        "aaaa111",
        "Statements of Income\n2023 2022 2021\nOther income, net (11) (7) (10)\nNet income 537 917 722",
        page=12,
    )
    equity = evidence("bbbb222", "Statements of Equity\n2023 2022 2021\nNet income 537 917 722", page=14)
    assert ask("What was net income in fiscal 2021?", income, equity).startswith("Net income: 722 in 2021")


def test_units_carry_their_section_heading_and_table_title() -> None:
    from rag.passages.units import passage_units

    text = (
        "We lease our offices.\nLegal Proceedings\nThe Company was named as a defendant in a suit.\n"
        "Statements of Income (in millions)\n2023 2022\nNet income 537 917"
    )
    units = passage_units("aaaa111", text)
    assert [(u.text, u.title) for u in units] == [
        ("We lease our offices.", ""),
        ("The Company was named as a defendant in a suit.", "Legal Proceedings"),
        ("Net income 537 917", "Statements of Income (in millions)"),
    ]


def test_a_header_with_dates_names_its_years_and_a_sentence_with_two_dates_does_not() -> None:
    assert header_years("Year Ended December 31, 2017 2016 2015") == (2017, 2016, 2015)
    assert header_years("November 27, 2015 November 28, 2014") == (2015, 2014)
    assert (
        header_years("On December 9, 2021, the Board declared a dividend payable on March 1, 2022 to holders")
        == ()
    )


def test_a_row_with_dot_leaders_is_a_row() -> None:
    row = read_row("Trade payables.............................. $ 93,307 $ 68,377")
    assert row is not None and row.label == "Trade payables" and row.printed == ("93,307", "68,377")


def test_a_roll_forward_row_that_opens_with_a_year_is_a_row_and_a_header_is_not() -> None:
    row = read_row("2021 restructuring charges 120 32 95 247")
    assert row is not None and row.label == "2021 restructuring charges" and row.printed[-1] == "247"
    assert read_row("2021 2020 2019") is None


def test_a_sentence_run_over_a_tables_lines_is_marked_and_a_sentence_of_years_is_not() -> None:
    from rag.passages.units import passage_units

    # Wrapped labels ("per share) ...", "and amortization ...") keep these lines from parsing as
    # rows, so they run together as one "sentence" until a full stop.
    text = (
        "In millions 2018 2017 2016 $ % $ %\n"
        "operating income 4,021 9,538 10,386 (5,517) (57.8)% (848) (8.2)%\n"
        "per share) (596) 6,623 5,319 (7,219) (109.0)% 1,304 24.5 %\n"
        "See accompanying notes.\n"
        "Total demand creation expense was $4,060 million, $3,850 million and $3,114 million for the\n"
        "years ended May 31, 2023, 2022\n"
        "and 2021, respectively."
    )
    units = passage_units("aaaa111", text)
    tabular = [u.text for u in units if u.tabular]
    assert len(tabular) == 1 and tabular[0].startswith("operating income 4,021"), units
    assert any(u.text.startswith("Total demand creation") and not u.tabular for u in units), units
