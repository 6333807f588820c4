"""Library search: BM25 ranking, exact phrases, pages of matches, passages, one hit per match."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.local.library import Library
from rag.retrieval.library_search import parse_query, phrase_pattern, search_library, snippet
from rag.retrieval.retrieve import lexical_index
from tests.rag.conftest import make_pdf, open_hash_library


def _search(library: Library, query: str, **options) -> list:
    return search_library(library, query, lexical_index(library), **options)


def _matched(hit) -> str:
    return hit.evidence.text[hit.match[0] : hit.match[1]]


@pytest.mark.parametrize(
    ("raw", "phrases"),
    [
        ('compost "heap must be" turned', ("heap must be",)),
        ("\u201cby compression\u201d alone", ("by compression",)),
        ('"a"  "b c"', ("a", "b c")),
        ('unclosed "quote here', ()),
        ('""', ()),
    ],
)
def test_parse_query(raw: str, phrases: tuple[str, ...]) -> None:
    assert parse_query(raw).phrases == phrases


def test_phrase_pattern_spans_line_breaks_and_soft_hyphens() -> None:
    pattern = phrase_pattern("Compost heap must")
    assert pattern.search("a compost\nheap  must be") is not None
    assert pattern.search("a com\u00adpost heap must") is not None
    assert pattern.search("composts heap must") is None  # whole words only


def test_words_rank_by_bm25_and_name_document_and_page(hash_library: Library) -> None:
    hits = _search(hash_library, "diesel spark plug")
    assert hits and hits[0].evidence.title == "Engines primer" and hits[0].page_label == "2"
    assert _matched(hits[0]).lower() in {"diesel", "spark", "plug"}
    assert all(h.evidence.score > 0 for h in hits)
    assert [h.evidence.score for h in hits] == sorted((h.evidence.score for h in hits), reverse=True)


def test_quoted_phrase_keeps_only_exact_matches(hash_library: Library) -> None:
    assert _search(hash_library, '"turned every two weeks"')
    assert all(
        "turned every two weeks" in " ".join(h.evidence.text.split())
        for h in _search(hash_library, '"turned every two weeks"')
    )
    assert _search(hash_library, '"weeks two every turned"') == []  # same words, other order
    [hit] = _search(hash_library, '"it keeps seedlings"')
    assert _matched(hit) == "It keeps seedlings" and hit.page_label == "3" and hit.page_index == 2


def test_phrase_of_stopwords_is_found_by_scanning(hash_library: Library) -> None:
    hits = _search(hash_library, '"during the"')  # no content words: BM25 cannot rank it
    assert hits and all(_matched(h).lower() == "during the" for h in hits)


def test_doc_filter_limit_and_empty_query(hash_library: Library) -> None:
    garden = next(d.doc_id for d in hash_library.documents() if d.title == "Garden guide")
    assert {h.evidence.doc_id for h in _search(hash_library, "the", doc_ids=[garden])} <= {garden}
    assert {h.evidence.doc_id for h in _search(hash_library, "engines compost", doc_ids=[garden])} == {garden}
    assert len(_search(hash_library, "compost tomato engine coal", limit=1)) == 1
    assert _search(hash_library, "  ") == [] and _search(hash_library, '"') == []


def test_match_on_a_later_page_of_a_chunk_names_that_page(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path / "lib", chunk_size=2000, chunk_overlap=0)
    pages = ["Alpha text on the first page.", "Zebra crossing on the second page."]
    library.add_pdf(make_pdf(pages), "z.pdf")
    [chunk] = library.chunks()
    assert len(chunk.locators) == 2  # one chunk over both pages
    [hit] = _search(library, '"zebra crossing"')
    assert (hit.page_index, hit.page_label) == (1, "2")
    page = library.pages(hit.evidence.doc_id)[1].text
    assert page.startswith("Zebra crossing")


def test_overlapping_chunks_list_a_match_once(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path / "lib", chunk_size=100, chunk_overlap=60)
    text = (
        " ".join(f"Word{i} filler." for i in range(12))
        + " The quartz lantern glows. "
        + " ".join(f"After{i} filler." for i in range(12))
    )
    library.add_pdf(make_pdf([text]), "q.pdf")
    assert sum("quartz lantern" in c.text for c in library.chunks()) >= 2  # the overlap repeats it
    assert len(_search(library, '"quartz lantern"')) == 1


def test_snippet_is_plain_and_centred() -> None:
    text = "x " * 200 + "needle\nin the\u00adhay " + "y " * 200
    start = text.index("needle")
    out = snippet(text, (start, start + 6), width=60)
    assert out.startswith("\u2026") and out.endswith("\u2026") and "needle in thehay" in out
    assert "\n" not in out and len(out) <= 62


def test_candidates_grow_until_a_phrase_is_found(
    hash_library: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rag.retrieval import library_search

    monkeypatch.setattr(library_search, "FIRST_CANDIDATES", 1)
    query = '"cold nights" compost heap turned kitchen scraps'  # the compost chunk ranks first
    assert "cold nights" not in _search(hash_library, "compost heap turned kitchen scraps")[0].evidence.text
    [hit] = _search(hash_library, query)
    assert _matched(hit) == "cold nights" and hit.page_label == "3"
