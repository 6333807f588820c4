"""Chunks keep their pages: every chunk's text is exactly the page slices its locators name."""

from __future__ import annotations

import itertools

from hypothesis import example, given, settings
from hypothesis import strategies as st

from ingest.ids import chunk_id_for
from ingest.pdf.chunking import PAGE_JOIN, chunk_pages, locator_text, visible_length
from ingest.pdf.reader import read_pdf
from ingest.types import Page
from tests.ingest.pdfs import long_pages, make_pdf


def _pages(texts: list[str]) -> list[Page]:
    return [Page(index=i, label=f"p{i + 1}", text=t) for i, t in enumerate(texts)]


def _assert_exact(pages: list[Page], chunks: list) -> None:
    by_index = {p.index: p for p in pages}
    for ordinal, chunk in enumerate(chunks):
        assert chunk.ordinal == ordinal
        assert chunk.text == locator_text(pages, chunk.locators)
        for loc in chunk.locators:
            page = by_index[loc.page_index]
            assert loc.page_label == page.label and 0 <= loc.char_start < loc.char_end <= len(page.text)
        indexes = [loc.page_index for loc in chunk.locators]
        assert indexes == sorted(set(indexes))


def test_chunks_of_a_real_pdf_map_back_to_page_text() -> None:
    doc = read_pdf(make_pdf(long_pages(5, repeat=6)), "log.pdf")
    chunks = chunk_pages("d" * 64, doc.pages, 400, 150)
    _assert_exact(doc.pages, chunks)
    assert {c.first.page_index for c in chunks} == {0, 1, 2, 3, 4}
    assert all(visible_length(c.text) <= 400 for c in chunks)
    # Overlap: neighbouring chunks on one page share text.
    same_page = [(a, b) for a, b in itertools.pairwise(chunks) if a.last.page_index == b.first.page_index]
    assert any(a.last.char_end > b.first.char_start for a, b in same_page)


def test_a_chunk_across_a_page_break_records_both_pages() -> None:
    pages = _pages(["short end of page one.", "start of page two, also short."])
    (chunk,) = chunk_pages("d" * 64, pages, 1000, 0)
    assert [(loc.page_index, loc.char_start, loc.char_end) for loc in chunk.locators] == [
        (0, 0, len(pages[0].text)),
        (1, 0, len(pages[1].text)),
    ]
    assert chunk.text == pages[0].text + PAGE_JOIN + pages[1].text


def test_blank_pages_are_skipped_but_indexes_kept() -> None:
    pages = _pages(["alpha words here.", "", "   \n ", "omega words there."])
    (chunk,) = chunk_pages("d" * 64, pages, 1000, 0)
    assert [loc.page_index for loc in chunk.locators] == [0, 3]
    assert [loc.page_label for loc in chunk.locators] == ["p1", "p4"]
    _assert_exact(pages, [chunk])


def test_ids_are_stable_and_depend_on_settings() -> None:
    pages = _pages(long_pages(3, repeat=4))
    first, again = chunk_pages("a" * 64, pages, 500, 50), chunk_pages("a" * 64, pages, 500, 50)
    assert [c.chunk_id for c in first] == [c.chunk_id for c in again]
    assert first[0].chunk_id == chunk_id_for("a" * 64, first[0].locators, 500, 50)
    other = chunk_pages("a" * 64, pages, 500, 60)
    assert not {c.chunk_id for c in first} & {c.chunk_id for c in other}
    assert len({c.chunk_id for c in first}) == len(first)


_text = st.text(alphabet=st.sampled_from([*list("abc de\n\n.,"), "\xad", "é"]), max_size=400)


@settings(max_examples=60, deadline=None)
@given(texts=st.lists(_text, min_size=1, max_size=5), size=st.integers(20, 300), overlap=st.integers(0, 19))
# Found by the explorer: the second chunk began where the first did ('aaaa...' twice).
@example(texts=["  \n\naaaa", "aa", "aa", "aaa"], size=20, overlap=14)
def test_any_pages_chunk_exactly(texts: list[str], size: int, overlap: int) -> None:
    pages = _pages(texts)
    chunks = chunk_pages("e" * 64, pages, size, overlap)
    _assert_exact(pages, chunks)
    covered = "".join(c.text for c in chunks)
    for page in pages:  # every word of every page lands in some chunk
        for word in page.text.split():
            assert word in covered


def test_a_line_end_counts_once() -> None:
    # pdfium gives "\r\n" at line ends; the reader keeps it as " \n" (1:1 with char indexes).
    assert visible_length("one \ntwo") == len("one\ntwo") == 7
