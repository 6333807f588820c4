"""The section a question names, and what it asks of it (rag.questions.section), from one table of
questions; how a heading's numbering is read, and which headings a named section is."""

from __future__ import annotations

import pytest

from rag.questions.read import read_question
from rag.questions.section import SUBSECTIONS, TITLE, Section, heading_numbering, read_section

S, T = SUBSECTIONS, TITLE


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a division word and its number, with the title written beside it or none
        ("Which subsections does section 3 have?", Section("3", "section", "", False, S)),
        ("What is the title of chapter 4?", Section("4", "chapter", "", False, T)),
        ("What is part VII of the report called?", Section("VII", "part", "", False, T)),
        ("What is unit 2 of the syllabus about?", Section("2", "unit", "", False, T)),
        ("What does Item 7 say about liquidity?", Section("7", "item", "", False, "")),
        ("What does § 3.2 require?", Section("3.2", "section", "", False, "")),
        (
            "What subsections make up chapter 2 Pumps and valves?",
            Section("2", "chapter", "Pumps and valves", False, S),
        ),
        (
            "Which methods does section 5 (Our Approach) cover, by subsection?",
            Section("5", "section", "Our Approach", False, S),
        ),
        ("What topics are under Results (section 6)?", Section("6", "section", "Results", False, S)),
        ("List the parts of Appendix B (Extra Tables).", Section("B", "appendix", "Extra Tables", False, S)),
        ("what are the sub-subsections of 4.2 Training data", Section("4.2", "", "Training data", False, S)),
        # capitalised words between "the" and a division word, or after one and a naming word
        (
            "What topics does the Getting Started chapter contain?",
            Section("", "chapter", "Getting Started", False, S),
        ),
        (
            "What does the section titled Risk Factors say about fog?",
            Section("", "section", "Risk Factors", False, ""),
        ),
        ("What is the first step of the Charging section?", Section("", "section", "Charging", False, "")),
        # a title in quotes, and capitalised words after "under" when parts are asked: exact names
        ("On the 'Before You Begin' page, what comes first?", Section("", "", "Before You Begin", True, "")),
        (
            "What subsections are under Getting Started with the Pump?",
            Section("", "", "Getting Started with the Pump", True, S),
        ),
        (
            "which sections are listed under OTHER TOPICS in the contents?",
            Section("", "", "OTHER TOPICS", True, S),
        ),
        # no section named
        ("What was Acme's revenue in 2023?", None),
        ("Which parts does the report need to have?", None),
        ("Under the credit agreement, what is the maximum leverage?", None),
        ("What conference are both UCLA and USC part of?", None),
        ("What if the adaptor supplies less than 1.5 A?", None),
        ("How many units were sold in 2022?", None),
        ("Which note JPM gave the FDIC carries the terms?", None),
        ("What was Hanson's defence?", None),
    ],
)
def test_the_section_a_question_names(question: str, expected: Section | None) -> None:
    assert read_section(question) == expected


def test_the_question_read_once_carries_it() -> None:
    assert read_question("Which subsections does chapter 5 have?").section == Section(
        "5", "chapter", "", False, S
    )
    assert read_question("What was Acme's revenue?").section is None


@pytest.mark.parametrize(
    ("heading", "numbering"),
    [
        ("4.2 Citation Evaluation", ("", "4.2", "Citation Evaluation")),
        ("Chapter 3 Health management", ("chapter", "3", "Health management")),
        ("UNIT 7: Designing Structures", ("unit", "7", "Designing Structures")),
        ("VII. The Standard of Review", ("", "vii", "The Standard of Review")),
        ("E Auxiliary Experiments", ("", "e", "Auxiliary Experiments")),
        ("Item 1A. Risk Factors", ("item", "1a", "Risk Factors")),
        ("Customers", ("", "", "Customers")),
        ("CIVIL ACTIONS", ("", "", "CIVIL ACTIONS")),
        ("Introduction", ("", "", "Introduction")),
    ],
)
def test_a_headings_numbering(heading: str, numbering: tuple[str, str, str]) -> None:
    assert heading_numbering(heading) == numbering


@pytest.mark.parametrize(
    ("question", "heading", "named"),
    [
        ("Which subsections does section 3 have?", "3 System Architecture", True),
        ("Which subsections does section 3 have?", "3.1 Claim Verifier", False),  # a subsection of it
        ("Which subsections does section 3 have?", "Item 3. Legal Proceedings", False),  # another word's 3
        ("What is part VII of the opinion titled?", "VII. The Standard of Review", True),
        ("What subsections make up chapter 5 Security?", "Security", True),  # a bookmark without its number
        ("What topics are in chapter 3 Health management?", "4 Health data", False),
        ("What if the adaptor supplies 1.5 Amps?", "1.5 Charging", False),  # a number alone names no heading
        (
            "On the 'What can I do to solve a problem?' page, what first?",
            "What can I do to solve a problem?",
            True,
        ),
        (
            "On the 'How to solve it' page, what first?",
            "What can I do to solve a problem?",
            False,
        ),  # exact only
    ],
)
def test_which_headings_a_named_section_is(question: str, heading: str, named: bool) -> None:
    section = read_section(question)
    assert section is not None and (section.names(heading) > 0) is named


def test_its_number_and_title_name_a_heading_better_than_either() -> None:
    section = read_section("What subsections are in section 4 Evaluation Metrics?")
    assert section is not None
    both, number, title = (
        section.names(h) for h in ("4 Evaluation Metrics", "4 Results", "Evaluation Metrics")
    )
    assert both > number > 0 and both > title > 0
