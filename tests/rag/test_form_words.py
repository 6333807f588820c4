"""The form of filing a question names ("per its 10-K") names the document to read, like a company's
name, and is not searched for in it: the pages that print "Annual Report on Form 10-K" most (the
officers' certifications, the cover) would otherwise outrank the page that answers, on either backend."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rag.questions.periods import read_periods
from rag.questions.read import read_question
from rag.retrieval.lexical import without_written
from tests.rag.conftest import OpenLibrary, acme_report, first_evidence

CERTIFICATION = (
    "Exhibit 31.1 Certification. I have reviewed this Annual Report on Form 10-K of Acme Corporation. "
    "Based on my knowledge, this Annual Report on Form 10-K does not contain any untrue statement of a "
    "material fact. The financial statements included in this Annual Report on Form 10-K fairly present "
    "in all material respects the financial condition of Acme Corporation."
)
LEGAL = (
    "Item 3. Legal Proceedings. Acme Corporation is a defendant in a patent lawsuit brought by Beta "
    "Inc. in Delaware; we do not expect the litigation to have a material adverse effect."
)


def test_a_question_names_its_form_in_these_words() -> None:
    assert read_periods("Any litigation, per its FY2022 10-K?").form_words == "10-K annual report form"
    assert read_periods("What did the Q2 earnings release say?").form_words == "release"
    assert read_periods("Does Acme face any litigation?").form_words == ""


def test_the_page_that_answers_comes_before_the_pages_that_print_the_form(
    open_backend_library: OpenLibrary,
) -> None:
    library = acme_report(open_backend_library(), [CERTIFICATION, LEGAL])
    question = read_question("Does Acme face any material litigation, per its FY2022 10-K?")
    assert "patent lawsuit" in first_evidence(library, question)
    # Read as naming no form, the same question keeps "10-K annual report form" (its shorthand
    # spelled out) in the search, and the certification that prints them three times comes first.
    unnamed = replace(question, periods=replace(question.periods, form=""))
    assert "patent lawsuit" not in first_evidence(library, unnamed)


def test_the_form_leaves_the_search_as_written_not_every_word_of_its_stem() -> None:
    text = "What are Acme's reportable segments in its FY2022 10-K? annual report form 10-k"
    assert (
        without_written(text, "10-K annual report form")
        == "What are Acme's reportable segments in its FY2022"
    )
    assert without_written("per its 10K annual report", "10-K annual report form") == "per its"
    assert without_written("10-K", "10-K annual report form") == "10-K"  # nothing left: the text itself


def test_a_word_that_shares_the_forms_stem_is_still_searched(
    open_backend_library: OpenLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "reportable" stems to "report", as "annual report" does: the form names the document, but
    # "reportable" is what the question asks for, and the page stage must still search for it.
    from rag.retrieval import retrieve

    searched: list[str] = []
    page_order = retrieve.page_order

    def spy(library, index, question, query, *args, **kwargs):  # type: ignore[no-untyped-def]
        searched.append(query)
        return page_order(library, index, question, query, *args, **kwargs)

    monkeypatch.setattr(retrieve, "page_order", spy)
    question = read_question("What are Acme's reportable segments in its FY2022 10-K?")
    found = first_evidence(acme_report(open_backend_library(), [LEGAL]), question)
    assert found and searched
    assert all("reportable" in query and "10-K" not in query and "annual" not in query for query in searched)
