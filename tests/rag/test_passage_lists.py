"""Lists in a passage (rag.passages.lists): the sentence that introduces a list is one unit with its
items, so the offline answerer quotes the list whole; a step's number is never a unit alone."""

from __future__ import annotations

from rag.passages.lists import LIST_CHARS, join_inline, list_runs
from rag.passages.units import contents_entries, passage_units
from tests.rag.test_extractive import ask, evidence


def texts(text: str) -> list[str]:
    return [u.text for u in passage_units("aaaa111", text)]


def test_a_colon_and_its_bullets_are_one_unit() -> None:
    text = (
        "To correctly manage blood pressure, measure it at the same time every day.\n"
        "• Blood pressure fluctuates in the following situations:\n"
        "· Within 1 hour after meal\n"
        "· After drinking alcohol and caffeine\n"
        "· After exercise\n"
        "• Measurement results can be affected by blood stasis.\n"
    )
    assert texts(text) == [
        "To correctly manage blood pressure, measure it at the same time every day.",
        "• Blood pressure fluctuates in the following situations: · Within 1 hour after meal "
        "· After drinking alcohol and caffeine · After exercise",
        "• Measurement results can be affected by blood stasis.",
    ]


def test_short_lines_after_a_colon_are_items_not_headings() -> None:
    text = (
        "Immerse yourself in campus life.\n"
        "HALLS & RESIDENCES:\n"
        "Eusoff Hall\n"
        "Kent Ridge Hall\n"
        "Raffles Hall\n"
        "RESIDENTIAL PROGRAMMES:\n"
        "Tembusu College\n"
        "Ridge View Residential College\n"
    )
    assert texts(text) == [
        "Immerse yourself in campus life.",
        "HALLS & RESIDENCES: Eusoff Hall Kent Ridge Hall Raffles Hall",
        "RESIDENTIAL PROGRAMMES: Tembusu College Ridge View Residential College",
    ]


def test_lettered_items_and_their_wrapped_lines_stay_with_the_introduction() -> None:
    text = (
        "METHODS OF EVALUATION:\n"
        "A. Analytical projects\n"
        "B. Objective exams and quizzes - a multiple choice part, a problem solving part and a short\n"
        "answer part\n"
        "C. Written reports\n"
        "Course Materials\n"
        "The main text is free online.\n"
    )
    units = texts(text)
    assert units[0] == (
        "METHODS OF EVALUATION: A. Analytical projects B. Objective exams and quizzes - a multiple "
        "choice part, a problem solving part and a short answer part C. Written reports"
    )
    assert "Course Materials" not in units[0]


def test_items_run_into_the_text_join_the_sentence_that_introduces_them() -> None:
    sentences = [
        "We adopt five supervised methods to evaluate SLMs.",
        "(1) Vanilla fine-tuning for all tasks, (2) FSLS for NER, and (3) UIE for all tasks.",
        "See their details in Appendix B.",
    ]
    assert join_inline(sentences) == [
        "We adopt five supervised methods to evaluate SLMs. (1) Vanilla fine-tuning for all tasks, "
        "(2) FSLS for NER, and (3) UIE for all tasks.",
        "See their details in Appendix B.",
    ]
    numbered = [
        "We use the following four metrics: 1) Coherence: whether it is well organised.",
        "2) Relevance: whether it supports the question.",
        "Each piece of knowledge is needed.",
        "3) Fluency: whether it is well written.",
        "Hence we ask human readers.",
    ]
    assert join_inline(numbered) == [" ".join(numbered[:4]), numbered[4]]


def test_a_bullet_wrapped_onto_a_line_of_its_own_stays_in_the_list() -> None:
    text = (
        "Applications in use:\n"
        "• Patient registration\n"
        "• Computerized\n"
        "Physician Order Entry\n"
        "(CPOE)\n"
        "• Pharmacy systems\n"
        "• Lab systems\n"
    )
    assert texts(text) == [
        "Applications in use: • Patient registration • Computerized Physician Order Entry (CPOE) "
        "• Pharmacy systems • Lab systems"
    ]


def test_a_step_number_is_never_a_unit_alone() -> None:
    units = texts(
        "To remove the trim piece:\n1.\nPull the lower edge towards you.\n2.\nLift it off the clips.\n"
    )
    assert units == [
        "To remove the trim piece: 1. Pull the lower edge towards you. 2. Lift it off the clips."
    ]
    assert all(u.strip() not in {"1.", "2."} for u in texts("Steps. 1. Pull the edge. 2. Lift it."))


def test_a_list_stops_before_it_outgrows_what_a_reader_takes_in() -> None:
    lines = ["The package holds the following:"] + [
        f"• Part number {n} of the kit, wrapped" for n in range(60)
    ]
    (intro, end), *_ = list_runs(lines)
    assert intro == 0
    assert 2 < end < len(lines)
    assert sum(len(x) + 1 for x in lines[:end]) <= LIST_CHARS + 1


def test_short_lines_naming_a_tables_columns_are_no_list() -> None:
    text = (
        "The benefit obligation for all plans combined:\n"
        "Pension Benefits Other Benefits\n"
        "2020 2019 2020 2019\n"
        "Service cost 1,234 1,100 56 54\n"
    )
    (row,) = passage_units("aaaa111", text)  # the unfinished lines above are the table's title
    assert row.row is not None and row.columns == (2020, 2019, 2020, 2019)
    assert row.title == "The benefit obligation for all plans combined: Pension Benefits Other Benefits"


def test_the_answer_quotes_the_list_whole() -> None:
    text = (
        "Checking the package contents. After opening the package, check that all items are included.\n"
        "The package holds the following items:\n"
        "• Wireless headset\n"
        "• USB Type-C cable\n"
        "• Headphone cable\n"
        "• Carrying case\n"
        "• Plug adaptor for in-flight use\n"
    )
    answer = ask("Which items does the package hold?", evidence("aaaa111", text))
    assert "Carrying case" in answer and "Plug adaptor for in-flight use" in answer
    assert answer.endswith("[aaaa111]")


def test_a_contents_page_is_one_unit_never_quoted_as_a_sentence() -> None:
    text = (
        "Business 3\nRisk Factors 53\nProperties 65\nMarket for Our Common Stock 66\n"
        "The auditor is Ernst & Young LLP, who audited the statements.\n"
    )
    units = passage_units("aaaa111", text)
    assert [(u.text, u.tabular) for u in units] == [
        ("Business 3 Risk Factors 53 Properties 65 Market for Our Common Stock 66", True),
        ("The auditor is Ernst & Young LLP, who audited the statements.", False),
    ]
    answer = ask("Who is the auditor?", evidence("aaaa111", text))
    assert "Risk Factors" not in answer


def test_lines_ending_in_numbers_that_go_back_are_no_contents() -> None:
    def entries(lines: list[str]) -> list[str]:
        return [lines[i] for i in contents_entries(lines)]

    assert entries(["Revenue rose to 53", "Costs fell to 12", "Staff grew to 40"]) == []
    assert entries(["Preface xi", "Methods 4", "Results 19", "Outlook 27"]) == [
        "Preface xi",
        "Methods 4",
        "Results 19",
        "Outlook 27",
    ]
