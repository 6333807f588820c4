"""The section a question names comes first (rag.retrieval.sections), on both backends: a paper
made here with bookmarks that leave out the printed numbering (as LaTeX papers' do), hashing
embeddings, and other sections that repeat the question's words."""

from __future__ import annotations

import re

import pytest

from ingest.types import LibraryReader
from rag.offline.extractive import ExtractiveAnswerer
from rag.questions.read import read_question
from rag.retrieval import sections
from rag.retrieval.retrieve import Retrieval, search_evidence
from tests.ingest.pdfs import make_report
from tests.rag.conftest import OpenLibrary

ECHO = (
    "As section 2 and its subsections explain, and as the subsections of section 3 repeat, the layers "
    "of the model and the title of each section matter. "
)
PAPER = [
    [
        ("title", "1 Introduction"),
        ("text", ECHO * 3),
        ("title", "2 Method"),
        ("text", "We describe how the pumps were studied. "),
        ("heading", "2.1 Data"),
        ("text", "Pressure readings came from forty pumping stations over three winters. " * 2),
    ],
    [
        ("heading", "2.2 Model"),
        ("text", "A small network with two layers predicts each pump's failure from its readings. " * 2),
        ("heading", "2.3 Training"),
        ("text", "Training took six hours on one machine, with early stopping. " * 2),
    ],
    [("title", "3 Results"), ("text", "Failures were predicted a week ahead in most stations. " * 3)],
    [("title", "4 Discussion"), ("text", ECHO * 3)],
]
UNNUMBERED = {text: text.split(" ", 1)[1] for page in PAPER for kind, text in page if kind != "text"}
SUBSECTIONS = ["2 Method > 2.1 Data", "2 Method > 2.2 Model", "2 Method > 2.3 Training"]


@pytest.fixture
def paper(open_backend_library: OpenLibrary) -> LibraryReader:
    library = open_backend_library(chunk_size=300, chunk_overlap=40)
    library.add_pdf(make_report(PAPER, outline=True, bookmarks=UNNUMBERED), "paper.pdf")
    return library


def _retrieve(library: LibraryReader, question: str, k: int = 2) -> Retrieval:
    return search_evidence(library, read_question(question), k=k)


def test_a_sections_subsections_each_reach_the_evidence_where_they_begin(paper: LibraryReader) -> None:
    found = _retrieve(paper, "Which subsections does section 2 have?")
    assert found.section == "2 Method"
    assert "2 Method" in found.evidence[0].text  # where it begins first
    held = {path for e in found.evidence for path in e.sections}
    assert set(SUBSECTIONS) <= held  # beyond k = 2: one where each begins
    for path in SUBSECTIONS:
        title = path.split(" > ")[-1]
        assert any(title in e.text and path in e.sections for e in found.evidence), title


def test_the_offline_answer_lists_them_each_cited_where_it_begins(paper: LibraryReader) -> None:
    question = read_question("What subsections make up section 2?")
    evidence = search_evidence(paper, question, k=2).evidence
    answer = "".join(ExtractiveAnswerer().answer(question, evidence))
    by_id = {e.short_id: e for e in evidence}
    cited = re.findall(r"(\d\.\d \w+) \[(\w+)\]", answer)
    assert answer.startswith("2 Method has 3 subsections") and [t for t, _ in cited] == [
        "2.1 Data",
        "2.2 Model",
        "2.3 Training",
    ]
    for (title, short_id), path in zip(cited, SUBSECTIONS):
        assert path in by_id[short_id].sections and title in by_id[short_id].text


def test_a_title_asked_by_number_comes_with_its_heading(paper: LibraryReader) -> None:
    found = _retrieve(paper, "What is the title of section 3?")
    assert found.section == "3 Results" and "3 Results" in found.evidence[0].text


def test_what_a_named_section_says_comes_from_it(paper: LibraryReader) -> None:
    found = _retrieve(paper, "What does the section titled Model say about the layers?", k=1)
    assert found.section == "2 Method > 2.2 Model"
    assert "2 Method > 2.2 Model" in found.evidence[0].sections and "two layers" in found.evidence[0].text


def test_without_a_named_section_the_words_decide(paper: LibraryReader) -> None:
    found = _retrieve(paper, "What do the subsections of the sections explain?")
    assert found.section == "" and "As section 2" in found.evidence[0].text


def test_a_section_is_every_prefix_of_a_path_and_holds_each_chunk_once() -> None:
    known = sections.document_sections(
        {"a": ("PART I > Item 1. Business",), "b": ("PART I > Item 1. Business", "PART I > Item 3. Legal")}
    )
    assert known.paths == ["PART I", "PART I > Item 1. Business", "PART I > Item 3. Legal"]
    assert known.titles == ["PART I", "Item 1. Business", "Item 3. Legal"]
    assert known.members == [["a", "b"], ["a", "b"], ["b"]]
