"""Issue 38 through search_evidence on both backends: among a company's annual reports the asked
year's is searched alone (the answer says so when the library has none of that year), and a
judgement question gets the statement rows its concept is read from."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ingest.types import LibraryReader
from rag.answering.answer import stream_answer
from rag.answering.events import Done
from rag.offline.extractive import ExtractiveAnswerer
from rag.questions.read import read_question
from rag.retrieval.retrieve import search_evidence
from tests.rag.conftest import OpenLibrary, make_pdf

PROSE = "Our plants ran well and the board reviewed every large project against its budget. " * 4
# Words of a capital-intensity question, on pages that hold none of the rows it needs.
CAPITAL = (
    "The capital committee met in March, June and October; an intensive review of each plan followed. " * 3
)


def _report(company: str, ein: str, year: int, capex: int, extra: Sequence[str] = ()) -> list[str]:
    return [
        f"FORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\nFor the fiscal year ended December 31, "
        f"{year}\nCommission file number 1-{ein[-4:]}\n{company}\n(Exact name of registrant as specified in "
        f"its charter)\nDelaware {ein}",
        "Management's Discussion and Analysis\n" + PROSE,
        *extra,
        f"Consolidated Statements of Cash Flows\n(in millions)\n{year} {year - 1}\nNet cash provided by "
        f"operating activities 4,{year % 100}0 3,900\nPurchases of property and equipment ({capex}) (1,602)",
        f"Consolidated Balance Sheets\n(in millions)\n{year} {year - 1}\nProperty, plant and equipment, net "
        f"9,{year % 100}0 8,700\nTotal assets 31,000 29,500",
        f"Consolidated Statements of Income\n(in millions)\n{year} {year - 1}\nNet sales 20,{year % 100}0 "
        "19,100\nOperating income 2,400 2,300",
    ]


def _library(
    open_backend_library: OpenLibrary, extra: Sequence[str] = ()
) -> tuple[LibraryReader, dict[str, str]]:
    """Acme's three annual reports (with extra pages) and three other companies' of 2020."""
    library = open_backend_library(chunk_size=300, chunk_overlap=40)
    ids = {}
    for year, capex in ((2019, 1111), (2020, 2222), (2021, 3333)):
        pdf = make_pdf(_report("ACME WIDGETS CORPORATION", "12-3456789", year, capex, extra), f"Acme {year}")
        ids[f"acme{year}"] = library.add_pdf(pdf, f"ACMEWIDGETS_{year}_10K.pdf").doc.doc_id
    for n, name in enumerate(["BELLHAVEN FOODS INC.", "CORRIGAN STEEL CO.", "DUNMORE TEXTILES INC."]):
        pdf = make_pdf(_report(name, f"9{n}-000000{n}", 2020, 500 + n), name)
        ids[name] = library.add_pdf(pdf, f"{name.split()[0]}_2020_10K.pdf").doc.doc_id
    return library, ids


@pytest.fixture
def filings(open_backend_library: OpenLibrary) -> tuple[LibraryReader, dict[str, str]]:
    return _library(open_backend_library)


def test_the_asked_year_searches_that_years_filing_alone(filings) -> None:
    library, ids = filings
    found = search_evidence(library, read_question("What were Acme's capital expenditures in FY2020?"), k=4)
    assert found.picked == (ids["acme2020"],) and {e.doc_id for e in found.evidence} == {ids["acme2020"]}
    assert any("2222" in e.text for e in found.evidence) and found.period_note == ""


def test_a_year_the_library_lacks_is_said_in_the_answer(filings) -> None:
    library, ids = filings
    question = read_question("What were Acme's capital expenditures in FY2018?")
    found = search_evidence(library, question, k=4)
    assert found.picked == (ids["acme2019"],)  # its statements show FY2018 beside FY2019
    assert found.period_note.startswith(
        "The library holds no filing for FY2018; this draws on ACMEWIDGETS_2019"
    )
    events = stream_answer(question, found, chat_model=ExtractiveAnswerer(), provider_label="t")
    answer = next(e.answer for e in events if isinstance(e, Done))
    assert answer.text.endswith(found.period_note)


def test_a_judgement_question_gets_its_concepts_rows_past_pages_of_its_words(
    open_backend_library: OpenLibrary,
) -> None:
    committees = [f"Committees ({part})\n" + CAPITAL for part in ("spring", "summer", "autumn")]
    library, _ = _library(open_backend_library, committees)
    found = search_evidence(library, read_question("Is Acme capital-intensive? Use FY2021."), k=4)
    rows = [line for e in found.evidence for line in e.text.splitlines()]
    assert any(r.startswith("Purchases of property and equipment (3333)") for r in rows)
    assert any(r.startswith("Property, plant and equipment, net") for r in rows)


def test_a_judgement_answer_quotes_the_rows_and_leaves_the_judgement_to_the_reader(filings) -> None:
    library, _ = filings
    question = read_question("Is Acme capital-intensive? Use FY2021.")
    found = search_evidence(library, question, k=6)
    events = stream_answer(question, found, chat_model=ExtractiveAnswerer(), provider_label="t")
    answer = next(e.answer for e in events if isinstance(e, Done))
    # the figures first (rag.judgement.figures), then the rows, the judgement left to the reader
    assert answer.text.startswith("Capex as a % of revenue, FY2021 = capex 3,333 [")
    assert "= 16.5% (cells in millions" in answer.text
    assert "\n\nThe documents state no judgement of capital intensity" in answer.text
    assert "(3333) / (1,602) (columns 2021, 2020)" in answer.text and answer.footnotes
