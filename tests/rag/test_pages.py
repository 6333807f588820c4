"""rag.retrieval.pages: what each page of a document is, read from its layout."""

from __future__ import annotations

from rag.retrieval.pages import DocumentPages, page_facts

STATEMENT = """Table of Contents
Consolidated Statement of Cash Flows
Acme Corp. and Subsidiaries
(in millions)
2021 2020 2019
Net income $ 7,679 $ 7,175 $ 7,353
Capital spending (4,625) (4,240) (4,232)
61"""
MDNA = """Table of Contents
Liquidity and Capital Resources
Our consolidated statements of cash flows show that capital spending rose in 2021 as we invested
in new plants, and we expect it to stay near this level in the years to come.
62"""
BALANCE = """Table of Contents
ACME CORP.
CONSOLIDATED
BALANCE
SHEETS
December 31,
2021 2020
Total current liabilities 9,100 8,700
63"""


def test_a_statement_page_is_known_by_its_heading_and_prose_is_not() -> None:
    facts = page_facts([STATEMENT, MDNA, BALANCE, "Table of Contents\nNotes\n64"])
    assert [f.statement for f in facts] == ["cash_flows", "", "balance", ""]
    # the running header ("Table of Contents" on every page) is not part of any heading
    assert facts[0].heading.startswith("Consolidated Statement of Cash Flows")
    assert facts[1].heading == "Liquidity and Capital Resources"
    assert facts[0].years == (2021, 2020, 2019) and facts[2].years == (2021, 2020)


def word_a_line(title: str, *rows: str) -> str:
    """A page whose text layer sets each word of its heading on a line of its own."""
    return "\n".join([*title.split(), "(In thousands)", "2018 2017", *rows])


def test_a_heading_set_one_word_a_line_is_read_whole() -> None:
    # nine lines of one word are one title, and "OF" or "AND", on many pages, are its words, not a footer
    pages = [
        word_a_line("ACME RESORTS INTERNATIONAL AND SUBSIDIARIES CONSOLIDATED BALANCE SHEETS", "Cash 5 4"),
        word_a_line(
            "ACME RESORTS INTERNATIONAL AND SUBSIDIARIES CONSOLIDATED STATEMENTS OF OPERATIONS", "Casino 9 8"
        ),
        word_a_line(
            "ACME RESORTS INTERNATIONAL AND SUBSIDIARIES CONSOLIDATED STATEMENTS OF CASH FLOWS", "Net 3 2"
        ),
        "Notes\nOF\nAND\nThe company operates resorts in many places and reports them in segments.",
    ]
    facts = page_facts(pages)
    assert [f.statement for f in facts] == ["balance", "income", "cash_flows", ""]
    assert "STATEMENTS OF OPERATIONS" in facts[1].heading


def test_a_documents_pages_read_one_at_a_time_give_what_reading_them_all_gives() -> None:
    texts = [STATEMENT, MDNA, BALANCE, "Table of Contents\nNotes\n64"]
    pages = DocumentPages(texts, {"c1": 0, "c2": 2})
    assert pages.fact(2) == page_facts(texts)[2]  # the first one asked: the running header still known
    assert len(pages) == 4 and pages.facts == tuple(page_facts(texts))
    assert pages.next_chunk("c1") == "c2" and pages.next_chunk("c2") is None
