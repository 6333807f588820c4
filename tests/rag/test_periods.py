"""The asked period picks the filing (issue 38): the periods and forms a question names, and which
of one company's filings they ask for, read from the covers' own words."""

from __future__ import annotations

import pytest

from rag.questions.periods import Period, read_periods
from rag.retrieval.filings.covers import Cover
from rag.retrieval.filings.periods import Filing, choose, filing_span, missing_line, year_end


@pytest.mark.parametrize(
    ("question", "periods", "form"),
    [
        ("Is AmWater capital-intensive? Use FY2019.", [Period(2019)], ""),  # in an instruction
        ("Does Coke look liquid at end-FY2022?", [Period(2022)], ""),
        ("How did rising rates show up in JPM's Q3 2022 numbers?", [Period(2022, 3)], ""),
        ("Which segment had the lowest net revenue in 2021 Q1?", [Period(2021, 1)], ""),
        ("Net income in the second quarter of 2021?", [Period(2021, 2)], ""),
        ("Free cash flow for the first half of 2022?", [Period(2022, 2)], ""),
        (
            "Risk in the second fiscal quarter of 2023 versus Q2 of FY2022?",
            [Period(2023, 2), Period(2022, 2)],
            "",
        ),
        ("What was Lockheed's 8-K dated May 25, 2023 about?", [Period(2023, month=5, day=25)], "8-K"),
        ("In Lockheed's May 2023 bond deal, which tranche is longest?", [Period(2023, month=5)], ""),
        ("Headcount at the start of 2022?", [Period(2021, month=12, day=31)], ""),
        (
            "How did margins move over 2017-2019?",
            [Period(2017), Period(2018), Period(2019)],
            "",
        ),
        ("Profitability from 2013 to 2015?", [Period(2013), Period(2014), Period(2015)], ""),
        ("Revenue for 2019 in its 2020 annual report?", [Period(2019), Period(2020)], "10-K"),
        ("What did the 3.25% notes due February 1, 2025 cost in 2015?", [Period(2015)], ""),
        ("Who holds the 2030 Notes?", [], ""),
        ("Q2 2023 tax, per its earnings release?", [Period(2023, 2)], "release"),
        ("In the first quarter 25 stores opened.", [], ""),  # no year after a quarter's ordinal
    ],
)
def test_a_question_names_its_periods_and_form(question: str, periods: list[Period], form: str) -> None:
    found = read_periods(question)
    assert (found.asked, found.form) == (tuple(periods), form)


def _filing(name: str, form: str, year: int, month: int = 0, day: int = 0, quarter: int = 0) -> Filing:
    return Filing(name, form, None, Cover(form, year, month, day, quarter))


def _company(*filings: Filing) -> list[Filing]:
    """The filings with their spans, for the company's own year end (as the document stage does)."""
    fy_end = year_end([f.cover for f in filings])
    return [Filing(f.doc_id, f.form, filing_span(f.cover, fy_end), f.cover) for f in filings]


def _chosen(filings: list[Filing], question: str) -> tuple[tuple[str, ...], Period | None]:
    choice = choose(filings, read_periods(question))
    assert choice is not None
    return choice.doc_ids, choice.missing


LOCKHEED = _company(
    _filing("lmt18", "10-K", 2018, 12, 31),
    _filing("lmt20", "10-K", 2020, 12, 31),
    _filing("lmt22", "10-K", 2022, 12, 31),
    _filing("lmt22q2", "10-Q", 2022, 6, 26),
    _filing("lmt23q1", "release", 2023, quarter=1),
    _filing("lmt8k", "8-K", 2023, 5, 25),
)


@pytest.mark.parametrize(
    ("question", "chosen", "missing"),
    [
        ("FY2020 capex?", ("lmt20",), None),
        ("Operating profit for 2019 in its 2020 annual report?", ("lmt20",), None),  # a prior column
        ("Revenue CAGR from FY2020 to FY2022?", ("lmt22",), None),  # FY2022's statements show FY2020
        ("Effective tax rate over 2016-2022?", ("lmt22", "lmt20", "lmt18"), None),  # longer than one shows
        ("Free cash flow for the first half of 2022?", ("lmt22q2",), None),
        ("Deliveries in Q1 2023?", ("lmt23q1",), None),
        ("What was Lockheed's 8-K dated May 25, 2023 about?", ("lmt8k",), None),
        ("The May 2023 bond deal's coupons?", ("lmt8k",), None),
        ("What did it agree in December 2020?", ("lmt20",), None),
        ("Employees as of December 31, 2022?", ("lmt22",), None),
        ("Net sales in 2023?", ("lmt22",), Period(2023)),  # no annual report of 2023: the nearest
        ("Capex in FY2017?", ("lmt18",), Period(2017)),  # FY2018's shows FY2017 beside it
    ],
)
def test_the_asked_period_picks_the_filing(question: str, chosen: tuple[str, ...], missing) -> None:
    assert _chosen(LOCKHEED, question) == (chosen, missing)


def test_a_fiscal_year_is_named_by_the_year_its_cover_ends_in() -> None:
    walmart = _company(_filing("wmt17", "10-K", 2017, 1, 31), _filing("wmt18", "10-K", 2018, 1, 31))
    assert _chosen(walmart, "FY2018 capex?") == (("wmt18",), None)
    adobe = _company(
        _filing("adbe15", "10-K", 2015, 11, 27),
        _filing("adbe16", "10-K", 2016, 12, 2),  # a 52-53 week year: ends in November, December 2
        _filing("adbe17", "10-K", 2017, 12, 1),
    )
    assert _chosen(adobe, "FY2016 revenue?") == (("adbe16",), None)
    assert _chosen(adobe, "Total assets as of December 2, 2016?") == (("adbe16",), None)
    amd = _company(_filing("amd15", "10-K", 2016, 1, 2), _filing("amd16", "10-K", 2016, 12, 31))
    assert _chosen(amd, "FY2015 revenue?") == (("amd15",), None)  # a year ended January 2, 2016


def test_a_quarter_is_the_companys_fiscal_quarter() -> None:
    nike = _company(
        _filing("nke23", "10-K", 2023, 5, 31),
        _filing("nke24q1", "10-Q", 2023, 8, 31),  # fiscal 2024's first quarter
        _filing("nke23q3", "10-Q", 2023, 2, 28),
    )
    assert _chosen(nike, "Q1 FY2024 revenue?") == (("nke24q1",), None)
    assert _chosen(nike, "Q3 FY2023 revenue?") == (("nke23q3",), None)


def test_a_quarter_the_library_lacks_comes_from_the_same_quarter_a_year_later() -> None:
    jpm = _company(_filing("q1", "10-Q", 2021, 3, 31), _filing("q2", "10-Q", 2022, 6, 30))
    assert _chosen(jpm, "Net income in the second quarter of 2021?") == (("q2",), Period(2021, 2))


def test_no_period_and_no_form_chooses_nothing_a_form_alone_its_filings() -> None:
    assert choose(LOCKHEED, read_periods("Who are Lockheed's customers?")) is None
    choice = choose(LOCKHEED, read_periods("What did Lockheed's latest 8-K say?"))
    assert choice is not None and choice.doc_ids == ("lmt8k",)


def test_without_fallback_only_a_filing_of_the_period_itself_is_chosen() -> None:
    assert choose(LOCKHEED, read_periods("Net sales in 2023?"), fallback=False) is None


def test_the_answer_line_names_the_filing_used_and_the_period_asked() -> None:
    line = missing_line(Period(2018), [("ADOBE_2017_10K.pdf", Cover("10-K", 2017, 12, 1))])
    assert line == (
        "The library holds no filing for FY2018; this draws on ADOBE_2017_10K.pdf "
        "(fiscal year ended December 1, 2017)."
    )
