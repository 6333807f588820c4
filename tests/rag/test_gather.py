"""A figure's operand rows that retrieval missed are searched for, each on its own, in the
documents the question names (rag.compute.gather), on a real library."""

from __future__ import annotations

from pathlib import Path

from rag.compute.gather import gather
from rag.questions.read import read_question
from rag.retrieval.retrieve import search_evidence
from tests.rag.conftest import make_pdf, open_hash_library

PAGES = [
    "Management discussion. Our liquidity remained strong through the year, and we paid our "
    "suppliers on time. The board reviewed the current ratio each quarter.",
    "Consolidated Balance Sheets\n(in millions)  2023  2022\nCash and cash equivalents  410  380\n"
    "Total current assets  1,250  1,100\nProperty and equipment, net  2,900  2,750",
    "Consolidated Balance Sheets (continued)\n(in millions)  2023  2022\nAccounts payable  300  280\n"
    "Total current liabilities  500  520\nLong-term debt  1,800  1,900",
]


def test_an_operand_row_retrieval_missed_is_gathered(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path, chunk_size=300, chunk_overlap=0)
    library.add_pdf(make_pdf(PAGES, title="Harbour Tools annual report"), "harbour.pdf")
    question = read_question("What was the current ratio in FY2023?")
    assert question.figure is not None and question.figure.year == 2023
    first = search_evidence(library, question, k=1)
    gathered = gather(library, question, first)
    pages = {loc.page_index for e in gathered.evidence for loc in e.locators}
    assert {1, 2} <= pages and len(gathered.evidence) > len(first.evidence)
    assert any("Total current liabilities" in e.text for e in gathered.evidence)


SEGMENTS = [
    "Net revenues by segment\n(in millions)  2023  2022\nEast\nCasino revenue  300  250\nRooms  90  80\n"
    "West\nCasino revenue  200  150\nRooms  60  50",
    "Management discussion. East casino revenue increased 20% in 2023, and West casino revenue "
    "increased 33%; casino revenue grew with table games volume across both segments.",
    "Casino revenue by segment was driven by slots win; casino revenue in the East segment reached a "
    "record, and casino revenue in the West segment recovered.",
    "Casino revenue in 2023: the East segment's casino revenue rose on baccarat, and the West "
    "segment's casino revenue on slots; casino revenue is net of incentives.",
    "We recognise casino revenue as the net win; casino revenue in 2023 and casino revenue in 2022 "
    "are shown by segment.",
    "Consolidated Statements of Operations\n(in millions)  2023  2022\nRevenues\nCasino  500  400\n"
    "Rooms  150  130\n650  530\nExpenses\nCasino  280  240\nRooms  70  60",
]


def test_rows_that_tie_are_searched_for_again_on_the_statements(tmp_path: Path) -> None:
    """Each segment's "Casino revenue" row ties on the line item: the whole's row is searched for on
    the primary statements' pages, where "Casino" is printed under "Revenues"."""
    library = open_hash_library(tmp_path, chunk_size=300, chunk_overlap=0)
    library.add_pdf(make_pdf(SEGMENTS, title="Harbour Resorts annual report"), "harbour.pdf")
    question = read_question("What was Harbour's casino revenue in FY2023? USD millions.")
    first = search_evidence(library, question, k=1)
    assert all(loc.page_index != 5 for e in first.evidence for loc in e.locators)
    gathered = gather(library, question, first)
    assert any(loc.page_index == 5 for e in gathered.evidence for loc in e.locators)
