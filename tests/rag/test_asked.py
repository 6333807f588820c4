"""A question's concepts and its verb of telling (rag.questions.asked), parts of the one reading."""

from __future__ import annotations

from rag.questions.asked import read_concepts, without_framing
from rag.text import tokenize


def _terms(question: str) -> set[str]:
    return {t for c in read_concepts(question).concepts for t in c}


def test_the_verb_of_telling_in_a_yes_no_question_is_not_a_word_to_find() -> None:
    assert "report" not in _terms("Has the company reported any material legal proceedings?")
    assert {"materi", "legal", "proceed"} <= _terms(
        "Has the company reported any material legal proceedings?"
    )
    question = "Has Acme reported any recalls?"
    assert set(tokenize(without_framing(question))) == set(tokenize("Has Acme any recalls"))


def test_report_as_a_noun_or_outside_a_yes_no_question_stays() -> None:
    assert "report" in _terms("What did the annual report say about revenue?")
    assert "report" in _terms("How many deaths were reported in 1918?")
    assert (
        without_framing("How many deaths were reported in 1918?") == "How many deaths were reported in 1918?"
    )


def test_a_yes_no_question_naming_a_year_does_not_ask_for_an_amount() -> None:
    from rag.questions.asked import read_concepts

    assert not read_concepts("Has Acme reported any material legal proceedings in FY2022?").amount
    assert read_concepts("What were Acme's dividends in FY2022?").amount
