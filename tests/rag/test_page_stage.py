"""The page stage on a small real filing-like library, on both backends (hashing embeddings, so the
dense side carries no meaning and the pages' headings and words must do the work)."""

from __future__ import annotations

import pytest

from ingest.types import LibraryReader
from rag.questions.read import read_question
from rag.retrieval import page_stage
from rag.retrieval.fusion import fuse
from rag.retrieval.page_stage import page_order
from rag.retrieval.retrieve import lexical_index, search_evidence
from tests.rag.conftest import OpenLibrary, make_pdf

PROSE = (
    "Our consolidated statements of cash flows reflect capital expenditures for new plants, and "
    "operating cash flow and capital expenditures are discussed with the board every quarter. "
)
PAGES = [
    "Acme Corp annual report. For the fiscal year ended December 31, 2021.",
    "Liquidity and Capital Resources\n" + PROSE * 3,
    "Capital Expenditures Outlook\n" + PROSE * 3,
    "Consolidated Statements of Cash Flows\n(in millions)\n2021 2020\nNet cash provided by operating "
    "activities 4,300 3,900\nPurchases of property and equipment (1,577) (1,602)\nDividends paid (800) (760)",
    "Consolidated Balance Sheets\n(in millions)\n2021 2020\nTotal current assets 15,000 14,500\n"
    "Total current liabilities 9,100 8,700",
    "Risk Factors\n" + PROSE * 3,
]
QUESTION = (
    "What is Acme's FY2021 capital expenditure amount? Respond to the question by assuming the "
    "perspective of an analyst who can only use the details shown within the cash flow statement."
)


@pytest.fixture
def filing_library(open_backend_library: OpenLibrary) -> LibraryReader:
    library = open_backend_library(chunk_size=300, chunk_overlap=40)
    library.add_pdf(make_pdf(PAGES, "Acme Corp annual report 2021"), "acme-2021.pdf")
    return library


def _pages(evidence) -> list[int]:
    return [loc.page_index for e in evidence for loc in e.locators]


def test_a_question_naming_a_statement_gets_that_statements_page_first(filing_library: LibraryReader) -> None:
    found = search_evidence(filing_library, read_question(QUESTION), k=2).evidence
    assert _pages(found)[:1] == [3]  # the cash flow statement, not the pages that talk about it


def test_a_defined_metric_gets_the_page_of_each_input(filing_library: LibraryReader) -> None:
    question = (
        "What is Acme's FY2021 operating cash flow ratio? Operating cash flow ratio is defined as: cash "
        "from operations / total current liabilities."
    )
    found = search_evidence(filing_library, read_question(question), k=3).evidence
    assert {3, 4} <= set(_pages(found))


def test_the_page_stage_puts_the_statement_first_where_the_chunk_rankings_put_the_prose(
    filing_library: LibraryReader,
) -> None:
    """The check that the first test is not passing by luck: fused by reciprocal rank, the dense and
    BM25 chunk rankings put a page that repeats "cash flows" and "capital expenditures" above the
    statement; the page stage (page_order) puts the statement's page first."""
    question = read_question(QUESTION)
    query = question.search.words
    vector = filing_library.embeddings.embed_query(query)
    index = lexical_index(filing_library)
    dense = [c for c, _ in filing_library.search_vector(vector, 20)]
    words = [c for c, _ in index.search(query, 20)]
    assert fuse([dense, words])[0][0].locators[0].page_index != 3
    stage = page_order(filing_library, index, question, query, vector, [dense[0].doc_id])
    assert stage.chunks[0].locators[0].page_index == 3


def test_a_chunk_from_a_statement_page_names_its_statement_in_its_context(
    filing_library: LibraryReader,
) -> None:
    from dataclasses import replace

    from rag.retrieval.page_stage import with_statement

    search_evidence(filing_library, read_question(QUESTION), k=2)  # the page stage reads the document's pages
    [row_chunk] = [c for c in filing_library.chunks() if "Dividends paid" in c.text]
    bare = replace(row_chunk, context="")  # as a chunk from the middle of a long page has it
    assert with_statement(bare).context.startswith("Consolidated Statements of Cash Flows")
    [prose] = [c for c in filing_library.chunks() if c.locators[0].page_index == 5][:1]
    assert with_statement(prose) == prose  # not a statement page: unchanged


def test_a_passage_that_ends_on_a_heading_is_known_and_a_table_row_is_not() -> None:
    from rag.retrieval.page_stage import ends_on_heading

    assert ends_on_heading("Our plants are in good condition.\nItem 3. Legal Proceedings.")
    assert not ends_on_heading("Our plants are in good condition.\nTotal current assets 15,000 14,500")
    assert not ends_on_heading("Our plants are in good condition, and\nthe warehouses too.")


def test_the_stage_reads_by_id_the_chunks_dense_search_did_not_return(
    filing_library: LibraryReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a long filing most chunks are beyond the dense pool: the stage reads them by id (the
    team library could not, and team mode failed on a 503-page 10-K: issue 40)."""
    monkeypatch.setattr(page_stage, "DENSE_POOL", 1)
    found = search_evidence(filing_library, read_question(QUESTION), k=2).evidence
    assert _pages(found)[:1] == [3]


def test_a_passage_that_ends_on_a_heading_comes_with_what_it_heads(open_backend_library: OpenLibrary) -> None:
    library = open_backend_library(chunk_size=300, chunk_overlap=40)
    filler = " ".join(f"Warehouse {n} stores {n * 10} pallets of grain." for n in range(1, 16))
    first = f"{filler}\nOur plants in Ohio and Texas are in good condition and fully used.\nItem 3. Legal Proceedings."
    library.add_pdf(
        make_pdf([first, "The company is not party to any material pending lawsuit."]), "acme.pdf"
    )
    # page 1's last chunk ends on the heading; what it heads is the next chunk, read by its id
    assert library.chunks()[-2].text.endswith("Item 3. Legal Proceedings.")
    asked = read_question("Are the plants in Ohio and Texas in good condition?")
    [passage] = search_evidence(library, asked, k=1).evidence
    assert passage.text.endswith(
        "Item 3. Legal Proceedings. The company is not party to any material pending lawsuit."
    )
    assert [loc.page_index for loc in passage.locators] == [0, 1]
