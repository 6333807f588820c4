"""Short lines as the answer (rag.values, rag.offline.lines, rag.retrieval.values): a value read by
its shape on a cover page's or a letterhead's lines answers a question asking for that kind."""

from __future__ import annotations

import pytest

from ingest.types import Chunk, PageLocator
from rag.questions.terms import read_value
from rag.retrieval.values import with_value_chunks
from rag.values import values_in
from tests.rag.test_extractive import ask, evidence

COVER = evidence(
    "aaaa111",
    "ANNUAL REPORT 2019\n"
    "City Water Authority\n"
    "Prepared by\n"
    "Janet A. Wright\n"
    "Director of Planning\n"
    "Email: jwright@citywater.org\n"
    "\n"
    "The authority supplies water to the city. Its pipes run under every street of the old town.",
    title="Annual report",
)


@pytest.mark.parametrize(
    ("kind", "line", "found"),
    [
        ("email", "Contact: jwright@citywater.org", ["jwright@citywater.org"]),
        ("email", "{yubo, axsun}@ntu.edu.sg", ["{yubo, axsun}@ntu.edu.sg"]),
        ("phone", "Tel: (202) 512-1800", ["(202) 512-1800"]),
        ("phone", "Call 1-800-222-1222 any time", ["1-800-222-1222"]),
        ("phone", "Revenue rose 12 percent in 2019", []),
        ("phone", "2006 2007 2008 2009 2010", []),
        ("date", "Issued March 3, 2019", ["March 3, 2019"]),
        ("year", "ANNUAL REPORT 2019", ["2019"]),
        ("code", "Case 1:17-cv-04660-LMM Document 12", ["1:17-cv-04660-LMM"]),
        ("code", "Zone RB-1", []),
        ("name", "Janet A. Wright", ["Janet A. Wright"]),
        ("name", "MARTIN COWEN", ["MARTIN COWEN"]),
        ("name", "Department of Energy", []),
        ("organisation", "Department of Energy", ["Department of Energy"]),
        ("role", "Director of Planning", ["Director of Planning"]),
        ("url", "See www.energy.gov/reports", ["www.energy.gov/reports"]),
        ("unknown", "anything", []),
    ],
)
def test_a_value_is_read_by_its_shape(kind: str, line: str, found: list[str]) -> None:
    assert values_in(kind, line) == found


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What is the e-mail address of the author?", "email"),
        ("What is the fax number of the office?", "fax"),
        ("Who signed the letter?", "name"),
        ("Which university is the first author affiliated with?", "organisation"),
        ("In what year was the survey run?", "year"),
        ("What is the docket number of the case?", "code"),
        ("How much revenue did the company report?", ""),
        ("How many steps did the author divide the method into?", ""),
        ("What share of seniors own a cell phone?", ""),
        ("What was the 8-K dated May 25, 2023 about?", ""),
    ],
)
def test_a_question_names_the_kind_of_value_it_asks_for(question: str, kind: str) -> None:
    assert read_value(question)[0] == kind


def test_a_short_line_holding_the_asked_kind_is_quoted_with_its_label() -> None:
    answer = ask("What is Janet Wright's email address?", COVER)
    assert "jwright@citywater.org" in answer and "Janet A. Wright" in answer
    assert answer.endswith("[aaaa111]")
    assert "pipes" not in answer


def test_a_role_and_a_year_on_a_cover_are_answers() -> None:
    assert ask("What is Janet Wright's role?", COVER) == "Janet A. Wright Director of Planning [aaaa111]"
    assert ask("In what year was the annual report published?", COVER) == "ANNUAL REPORT 2019 [aaaa111]"


def test_a_sentence_answers_a_question_that_asks_for_no_kind_of_value() -> None:
    answer = ask("What does the authority supply?", COVER)
    assert "The authority supplies water to the city. [aaaa111]" in answer
    assert "closest passages" not in answer


def test_no_line_answers_when_the_question_s_words_are_not_beside_a_value() -> None:
    answer = ask("What is the email address of the harbour master?", COVER)
    assert "jwright@citywater.org" not in answer


def test_a_line_continuing_a_sentence_is_no_value_s_line() -> None:
    page = evidence(
        "bbbb222",
        "The commission heard the motion on the evidence before it and\n"
        "issued a Final Disposition Opinion on May 13, 2011.\n",
    )
    answer = ask("What is the name of the commissioner who heard the motion?", page)
    assert not answer.startswith("issued")


def test_a_heading_of_the_question_s_own_words_is_no_name() -> None:
    page = evidence(
        "cccc333",
        "Report of Independent Registered Public Accounting Firm\n"
        "Critical Audit Matters\n"
        "The critical audit matters below arose from the audit of the statements.\n",
    )
    assert "Critical Audit Matters" not in ask("Who audits the statements?", page)


def _chunk(n: int) -> Chunk:
    return Chunk(f"c{n}", "d", n, f"text {n}", (PageLocator(0, "1", 0, 6),))


def test_value_chunks_come_second_once() -> None:
    fused = [(_chunk(0), 0.9), (_chunk(1), 0.8), (_chunk(2), 0.7)]
    ranked = with_value_chunks(fused, [_chunk(2)])
    assert [c.chunk_id for c, _ in ranked] == ["c0", "c2", "c1"]
    assert with_value_chunks(fused, []) == fused


def test_a_signature_under_prose_is_no_answer_to_who() -> None:
    page = evidence(
        "dddd444",
        "The officer is responsible for the company's internal control over financial\n"
        "reporting and its disclosure controls.\n"
        "/s/ Jesus Malave\n",
    )
    assert "Malave" not in ask("Who is the company's auditor?", page)
