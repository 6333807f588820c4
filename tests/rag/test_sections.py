"""A question's topic reaches the section that treats it (rag.retrieval.sections), on both backends:
hashing embeddings, so the section titles' words must do the work."""

from __future__ import annotations

import pytest

from ingest.types import LibraryReader
from rag.questions.read import read_question
from rag.retrieval import page_stage, sections
from rag.retrieval.retrieve import search_evidence
from tests.ingest.pdfs import make_report
from tests.rag.conftest import OpenLibrary

HEADER = ("header", "Acme Corp 2023 Annual Report")
BUSINESS = (
    "Acme designs and sells industrial pumps and valves to water utilities and chemical plants "
    "through distributors in North America and Europe. "
)
RISKS = (
    "Lawsuits, claims and legal proceedings could harm our business. Legal proceedings are costly, "
    "and the outcome of any legal proceedings is uncertain. "
)
COMPLAINT = (
    "In May 2022 three former distributors filed a complaint in the District Court for Delaware "
    "against the Company, alleging breach of contract and seeking damages of $40 million. "
)
DEFENCE = (
    "The Company believes the claims are without merit and intends to defend itself vigorously. "
    "Trial is scheduled for the second half of 2024. "
)
# The risk factors repeat the question's words; the legal proceedings say them only in their title.
REPORT = [
    [HEADER, ("title", "PART I"), ("heading", "Item 1. Business"), ("text", BUSINESS * 4)],
    [HEADER, ("heading", "Item 1A. Risk Factors"), ("text", RISKS * 4)],
    [HEADER, ("text", BUSINESS * 2), ("heading", "Item 3. Legal Proceedings"), ("text", COMPLAINT * 2)],
    [
        HEADER,
        ("text", DEFENCE * 3),
        ("heading", "Item 4. Mine Safety Disclosures"),
        ("text", "Not applicable."),
    ],
    [HEADER, ("title", "PART II"), ("heading", "Item 7. Management's Discussion"), ("text", BUSINESS * 4)],
]
QUESTION = "Assume you are an equity analyst. What legal proceedings does Acme face?"


@pytest.fixture
def report_library(open_backend_library: OpenLibrary) -> LibraryReader:
    library = open_backend_library(chunk_size=300, chunk_overlap=40)
    library.add_pdf(make_report(REPORT), "acme-2023.pdf")
    return library


def _texts(library: LibraryReader, sections_on: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr(page_stage, "SECTIONS", sections_on)
    return [e.text for e in search_evidence(library, read_question(QUESTION), k=2).evidence]


def test_a_legal_proceedings_question_reaches_that_sections_pages(
    report_library: LibraryReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = _texts(report_library, True, monkeypatch)
    assert "complaint" in found[0], found


def test_without_the_section_ranking_the_risk_factors_that_repeat_the_words_win(
    report_library: LibraryReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = _texts(report_library, False, monkeypatch)
    assert found and all("could harm our business" in text for text in found), found


def test_a_section_is_every_prefix_of_a_path_and_holds_each_chunk_once() -> None:
    known = sections.document_sections(
        {"a": ("PART I > Item 1. Business",), "b": ("PART I > Item 1. Business", "PART I > Item 3. Legal")}
    )
    assert known.paths == ["PART I", "PART I > Item 1. Business", "PART I > Item 3. Legal"]
    assert known.titles == ["PART I", "Item 1. Business", "Item 3. Legal"]
    assert known.members == [["a", "b"], ["a", "b"], ["b"]]


def test_no_title_related_to_the_question_lifts_nothing(report_library: LibraryReader) -> None:
    doc_id = report_library.documents()[0].doc_id
    assert sections.chunk_scores(report_library, "weather fog lighthouse", None, doc_id) == {}
    # "proceedings" alone does not hold every word of "Legal Proceedings": not the question's topic
    assert sections.chunk_scores(report_library, "proceedings", None, doc_id) == {}
    lifted = sections.chunk_scores(report_library, "any material legal proceedings", None, doc_id)
    legal = {
        c for c, paths in report_library.chunk_sections(doc_id).items() if any("Item 3" in p for p in paths)
    }
    assert legal and set(lifted) == legal
