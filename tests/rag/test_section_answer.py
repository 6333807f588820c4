"""The offline answer to a question about a document's structure (rag.offline.sections): the
subsection titles of the section it names, each cited where it begins, or its title, from the
evidence's section paths; on evidence made here, in the order retrieval gives it (not the
document's)."""

from __future__ import annotations

from ingest.types import PageLocator
from rag.offline.sections import section_answer
from rag.questions.read import read_question
from rag.types import Evidence

METHOD = "2 Method"


def _piece(short_id: str, page: int, start: int, *sections: str, doc: str = "d") -> Evidence:
    return Evidence(
        short_id,
        short_id * 8,
        doc,
        "A paper",
        "paper.pdf",
        f"text of {short_id}",
        0.5,
        (PageLocator(page, str(page + 1), start, start + 300),),
        sections=sections,
    )


# Retrieval's order: where the section begins, then where each subsection begins, then the rest.
EVIDENCE = [
    _piece("s2", 1, 900, "1 Introduction", METHOD, f"{METHOD} > 2.1 Data"),
    _piece("s23", 2, 400, f"{METHOD} > 2.2 Model", f"{METHOD} > 2.3 Training [beta]"),
    _piece("s22", 2, 0, f"{METHOD} > 2.1 Data", f"{METHOD} > 2.2 Model"),
    _piece("s22b", 2, 200, f"{METHOD} > 2.2 Model"),
    _piece("s3", 3, 0, "3 Results"),
]


def test_the_subsections_are_listed_in_the_documents_order_each_cited_where_it_begins() -> None:
    answer = section_answer(read_question("Which subsections does section 2 have?"), EVIDENCE)
    assert answer == (
        "2 Method has 3 subsections: 2.1 Data [s2]; 2.2 Model [s22]; 2.3 Training (beta) [s23]."
    )


def test_a_section_named_by_its_title_or_with_its_number_and_title() -> None:
    for question in (
        "What topics does the Method chapter contain?",
        "What subsections are in section 2 Method?",
    ):
        answer = section_answer(read_question(question), EVIDENCE)
        assert answer is not None and answer.startswith("2 Method has 3 subsections"), question


def test_a_title_asked_by_number_is_cited_where_the_section_begins() -> None:
    assert section_answer(read_question("What is the title of section 3?"), EVIDENCE) == "3 Results [s3]"
    assert section_answer(read_question("What is section 2 called?"), EVIDENCE) == "2 Method [s2]"


def test_nothing_to_say_leaves_the_question_to_the_quotes() -> None:
    assert section_answer(read_question("What does section 2 say about pumps?"), EVIDENCE) is None  # its text
    assert (
        section_answer(read_question("Which subsections does section 3 have?"), EVIDENCE) is None
    )  # none held
    assert (
        section_answer(read_question("Which subsections does section 7 have?"), EVIDENCE) is None
    )  # not held
    assert section_answer(read_question("What was Acme's revenue?"), EVIDENCE) is None
    assert section_answer(read_question("Which subsections does section 2 have?"), []) is None


def test_the_first_document_of_the_evidence_names_first() -> None:
    other = _piece("o2", 0, 0, "2 Background", "2 Background > 2.1 History", doc="other")
    answer = section_answer(read_question("Which subsections does section 2 have?"), [other, *EVIDENCE])
    assert answer == "2 Background has 1 subsection: 2.1 History [o2]."
