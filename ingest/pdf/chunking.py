"""Split a document's pages into chunks that remember every page and character they cover.

The pages are joined with a blank line, split with LangChain's RecursiveCharacterTextSplitter
(which prefers that blank line, so most chunks stay on one page), and each chunk is mapped back
to (page, character range) pieces. By construction ``chunk.text`` equals the pages' slices
joined with ``PAGE_JOIN``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from langchain_text_splitters import RecursiveCharacterTextSplitter

from ingest.ids import chunk_id_for
from ingest.pdf.context import ContextFinder
from ingest.pdf.sections import chunk_sections
from ingest.types import Chunk, Page, PageLocator

PAGE_JOIN = "\n\n"


def chunk_pages(doc_id: str, pages: Sequence[Page], chunk_size: int, chunk_overlap: int) -> list[Chunk]:
    """Chunks in reading order, each with one locator per page it touches, its context (the
    table title and column headers, or the section heading, from before it; see ingest.pdf.context)
    and its section paths (from its pages': ingest.pdf.sections)."""
    pages = [p for p in pages if p.text.strip()]  # blank pages would break text == slices
    text, starts = _join(pages)
    finder = ContextFinder(pages)
    by_index = {p.index: p for p in pages}
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=chunk_size,
        chunk_overlap=chunk_overlap,
        keep_separator=True,
        strip_whitespace=True,
        length_function=visible_length,
    )
    chunks: list[Chunk] = []
    cursor = 0
    for piece in splitter.split_text(text):
        start = text.find(piece, cursor)
        if start < 0:  # with a large overlap the splitter can start a chunk where the last one did
            start = text.find(piece, max(cursor - 1, 0))
        if start < 0:  # the splitter only ever returns stripped substrings, in order
            raise AssertionError(f"chunk not found in its document {doc_id}")
        cursor = start + 1
        locators = _locate(pages, starts, start, start + len(piece))
        if not locators:
            continue
        chunk_id = chunk_id_for(doc_id, locators, chunk_size, chunk_overlap)
        page = bisect_right(starts, start) - 1
        context = finder.at(page, start - starts[page], piece)
        sections = chunk_sections(by_index, locators)
        chunks.append(Chunk(chunk_id, doc_id, len(chunks), piece, tuple(locators), context, sections))
    return chunks


def visible_length(text: str) -> int:
    """Length with each line end counted once: pdfium's generated CR (a space here) does not count."""
    return len(text) - text.count(" \n")


def locator_text(pages: Sequence[Page], locators: Sequence[PageLocator]) -> str:
    """The text a chunk's locators point at (equals the chunk's text)."""
    by_index = {p.index: p for p in pages}
    return PAGE_JOIN.join(by_index[loc.page_index].text[loc.char_start : loc.char_end] for loc in locators)


def _join(pages: Sequence[Page]) -> tuple[str, list[int]]:
    starts, position = [], 0
    for page in pages:
        starts.append(position)
        position += len(page.text) + len(PAGE_JOIN)
    return PAGE_JOIN.join(p.text for p in pages), starts


def _locate(pages: Sequence[Page], starts: list[int], start: int, end: int) -> list[PageLocator]:
    locators = []
    first = bisect_right(starts, start) - 1
    for i in range(max(first, 0), len(pages)):
        page_start = starts[i]
        if page_start >= end:
            break
        lo = max(start, page_start) - page_start
        hi = min(end, page_start + len(pages[i].text)) - page_start
        if hi > lo:
            page = pages[i]
            confidence = page.ocr.confidence if page.ocr is not None else None
            locators.append(PageLocator(page.index, page.label, lo, hi, confidence))
    return locators
