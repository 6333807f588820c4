"""Lists of documents (rag.retrieval.lists): an exhibit index is told from text by its entry lines,
and retrieval, on either backend, puts it after the passages that say something."""

from __future__ import annotations

from rag.questions.read import read_question
from rag.retrieval.lists import is_list, lists_last
from rag.retrieval.retrieve import lexical_index
from tests.rag.conftest import OpenLibrary, acme_report, first_evidence
from tests.rag.test_retrieve import chunk

# An exhibit index as pypdf reads Lockheed Martin's, shortened: dotted exhibit numbers, a title each.
EXHIBITS = (
    "10.1 Revolving Credit Agreement among Acme Corporation and Beta Bank, as administrative agent\n"
    "(incorporated by reference to Exhibit 10.1 to the Current Report on Form 8-K).\n"
    "10.2 Credit Agreement Amendment No. 1 among Acme Corporation and Beta Bank.\n"
    "21 Subsidiaries of Acme Corporation.\n"
    "23.1 Consent of Gamma LLP, Independent Registered Public Accounting Firm.\n"
    "31.1 Certification of the Chief Executive Officer.\n"
    "101.INS Inline XBRL Instance Document."
)
CREDIT = (
    "Liquidity. Our facility with Beta Bank provides $1.5 billion of revolving credit that expires in "
    "2027; no borrowings were outstanding under it at year end."
)


def test_an_exhibit_index_is_a_list_and_text_under_numbered_headings_is_not() -> None:
    assert is_list(EXHIBITS)
    marked = "*10.4(22) Second Amendment to the Plan.\n**32.1 Certification.\n†10.5 Form of Award."
    assert is_list(marked)
    assert not is_list("2.1 Background\nThe plant opened in 1990.\n2.2 Outlook\nSales should grow.")
    # a cover's notes ("1.100% Notes Due 2036") and a table's year rows open with no entry number
    notes = "1.100% Notes Due 2036 KO36 New York Stock Exchange\n" * 4
    rows = "2022 1,278 1,766\n2021 1,522 1,444\n2020 1,766 1,484\n"
    assert not is_list(notes) and not is_list(rows)


def test_lists_go_last_each_part_in_its_order() -> None:
    texts = ["a", EXHIBITS, "b", EXHIBITS + " ", "c"]
    ranked = [(chunk(str(i), text), 0.9 - i / 10) for i, text in enumerate(texts)]
    assert [c.chunk_id[0] for c, _ in lists_last(ranked)] == ["0", "2", "4", "1", "3"]


def test_retrieval_puts_an_exhibit_index_after_the_passage_that_answers(
    open_backend_library: OpenLibrary,
) -> None:
    library = acme_report(open_backend_library(), [EXHIBITS, CREDIT])
    question = read_question("What does the revolving credit agreement amendment with Beta Bank provide?")
    assert "provides $1.5 billion of revolving credit" in first_evidence(library, question)
    # The index names the agreement more often than the passage does: by words and by meaning
    # alike it outranks the passage, which comes first only because lists go last.
    query = question.search.words
    by_words = lexical_index(library).search(query, 5)
    by_meaning = library.search_vector(library.embeddings.embed_query(query), 5)
    assert all(is_list(ranking[0][0].text) for ranking in (by_words, by_meaning))
