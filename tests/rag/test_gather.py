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
