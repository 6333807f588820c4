"""A PDF whose text layer holds math italic letters (characters above U+FFFF, as LaTeX papers print
variables) is added end to end with the real local model, and a question typed in plain letters
finds its passage; the passage is shown and highlighted as printed."""

from __future__ import annotations

from pathlib import Path

from ingest.embeddings import LOCAL_NAME, LocalEmbeddings
from ingest.local.library import Library
from ingest.pdf.chunking import locator_text
from rag.questions.read import read_question
from rag.retrieval.lexical import LexicalIndex
from rag.retrieval.retrieve import search_evidence
from tests.ingest.pdfs import make_math_pdf

# q and k printed as math italic letters everywhere in the file: every word holding them reaches
# pdfium as surrogate pairs (the "quench" and "kiln" of the text), which could not be stored or embedded before.
MATH = {"q": "\U0001d45e", "k": "\U0001d458"}
PAGES = [
    "The lighthouse keeper logged the weather every four hours during the autumn storms.",
    "Let q be the quench rate of the kiln. The quench rate of the kiln equals 42 kelvin per second "
    "when the glaze is fired at full heat.",
    "Honeybees dance to tell the hive where the clover grows, and the colony follows the scouts.",
    "The railway timetable lists the first train at six in the morning and the last at midnight.",
]


def test_a_pdf_with_math_letters_is_added_and_found_by_plain_letters(tmp_path: Path) -> None:
    library = Library.open(
        tmp_path, LocalEmbeddings(), embedding_name=LOCAL_NAME, chunk_size=200, chunk_overlap=20
    )
    result = library.add_pdf(make_math_pdf(PAGES, MATH), "kiln-paper.pdf")
    assert result.status == "ok" and result.warnings == ()
    pages = library.pages(result.doc.doc_id)
    # Stored as printed (the soft hyphen holds the pair's second index: invisible, never searched).
    assert "\U0001d45e\u00aduench rate" in pages[1].text
    for chunk in library.chunks():
        assert chunk.text == locator_text(pages, chunk.locators)  # highlights stay on their characters

    evidence = search_evidence(library, read_question("How quickly does a kiln quench?"), k=3).evidence
    assert 1 in {loc.page_index for loc in evidence[0].locators}
    assert "42 \U0001d458\u00adelvin" in evidence[0].text
    # Words alone find it too: BM25 reads the math q of "quench" as q (its search form), not by meaning.
    (best, _), *_ = LexicalIndex.for_library(library).search("kiln quench", 1)
    assert 1 in {loc.page_index for loc in best.locators}
