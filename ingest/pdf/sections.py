"""A document's sections: its headings from its own outline (PDF bookmarks) or, failing that, from
its layout (ingest.pdf.headings), and the section path every page and chunk lies in.

A section path joins the titles from the top level down with " > " ("PART I > Item 3. Legal
Proceedings"). An outline is the document's own word on its structure, so it is used whenever it
has MIN_OUTLINE entries that point at pages of the document (a file name or two is not one); each
entry starts where its title begins a line on its page, after the entry before it on that page, or
at the top of the next page (a heading that opens a page is often anchored at the foot of the one
before it); else where that entry before it starts, or at the page's top. It takes the numbering
the page prints before it ("4.2 Citation Evaluation" for a bookmark "Citation Evaluation"): a
question names it by that number.

A page records where each path in force on it begins (``Page.sections``), so a chunk's paths (the
one where it starts, then each that begins inside it) follow from the pages it touches, whenever
and from wherever it is chunked (a re-index chunks stored pages again).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from pypdf import PdfReader

from ingest.text import valid_text
from ingest.types import Heading, Page, PageLocator

log = logging.getLogger(__name__)

MIN_OUTLINE = 3
PATH_JOIN = " > "
TITLE_MAX_CHARS = 200  # of one title in a path: a bookmark can hold a paragraph
# A heading's numbering as printed before its title: "4.2", "A.1", "VII.", "Chapter 3", "Appendix E:".
_NUMBERING = (
    r"(?:(?:part|chapter|section|appendix|unit|article|item|note)[ \t]+)?"
    r"(?-i:\d{1,3}[A-Z]?(?:\.\d{1,3}){0,3}|[IVXLC]{1,6}|[A-Z](?:\.\d{1,3}){0,3})[.:)]?[ \t]+"
)


@dataclass(frozen=True)
class Sections:
    """A document's headings in reading order, and where they came from ("outline" or "layout")."""

    headings: tuple[Heading, ...]
    source: str

    def paths(self) -> list[str]:
        """Each heading's section path, in the headings' order."""
        out: list[str] = []
        stack: list[Heading] = []
        for heading in self.headings:
            while stack and stack[-1].level >= heading.level:
                stack.pop()
            stack.append(heading)
            out.append(PATH_JOIN.join(h.title for h in stack))
        return out


def choose(outline: Sequence[Heading], layout: Sequence[Heading]) -> Sections:
    """The outline's sections when it has MIN_OUTLINE entries, else the layout's."""
    if len(outline) >= MIN_OUTLINE:
        return Sections(tuple(outline), "outline")
    return Sections(tuple(layout), "layout")


def outline_headings(reader: PdfReader, pages: Sequence[Page]) -> list[Heading]:
    """The outline's entries that point at a page of the document, in reading order, each at the
    line on its page where its title begins after the entry before it there (else where that one
    begins, or at the page's top), with the numbering printed before it."""
    try:
        entries = list(_walk(reader, reader.outline, 1))
    except Exception as exc:  # a damaged outline only costs the outline
        log.warning("outline unreadable: %s", exc)
        return []
    texts = {p.index: p.text for p in pages}
    found: list[Heading] = []
    after: dict[int, int] = {}  # page index -> where the entry before on that page starts
    # Page by page, in the outline's order within a page: an entry is looked for below the one
    # before it, and one not found stays where that one starts (never above it).
    for level, title, index in sorted((e for e in entries if e[2] in texts), key=lambda e: e[2]):
        before = after.get(index)
        at = _title_at(texts[index], title, 0 if before is None else before + 1)
        if at is None and index + 1 in texts and index + 1 not in after:
            # A heading that opens a page is often anchored at the foot of the page before it.
            at = _title_at(texts[index + 1], title, 0)
            index = index if at is None else index + 1
        start, printed = at or (before or 0, title)
        after[index] = start
        found.append(Heading(level, printed, index, start))
    return found


def _walk(reader: PdfReader, items: list, level: int) -> Iterator[tuple[int, str, int]]:
    for item in items:
        if isinstance(item, list):
            yield from _walk(reader, item, level + 1)
            continue
        title = " ".join(valid_text(str(item.title or "")).split())[:TITLE_MAX_CHARS]
        try:
            index = reader.get_destination_page_number(item)
        except Exception:  # an entry pointing outside the file (an exhibit's own file name)
            continue
        if title and index is not None and index >= 0:
            yield level, title, index


def _title_at(text: str, title: str, after: int) -> tuple[int, str] | None:
    """Where the title begins a line of the page's text at or after ``after`` (its words, any
    spacing and case, after any numbering the page prints before them), and the title with that
    numbering; None when no line there begins with it. Its words may run together, as a text layer
    often prints them ("GOODWILLAND PURCHASED"), but two numbers never ("Note 1" is not "Note 13")."""
    words = re.findall(r"\w+", title)
    if not words:
        return None
    pattern = r"(?im)^[^\w\n]*(" + _NUMBERING + r")?" + re.escape(words[0])
    for before, word in pairwise(words):
        pattern += (r"\W+" if before[-1].isdigit() and word[0].isdigit() else r"\W*") + re.escape(word)
    found = re.compile(pattern + r"(?!\w)").search(text, after)
    if found is None:
        return None
    numbering = " ".join((found.group(1) or "").split())
    return found.start(), f"{numbering} {title}" if numbering else title


def with_sections(pages: Sequence[Page], sections: Sections) -> list[Page]:
    """The pages, each with where the paths in force on it begin (``Page.sections``)."""
    paths = sections.paths()
    by_page: dict[int, list[tuple[int, str]]] = {}
    for heading, path in zip(sections.headings, paths):
        by_page.setdefault(heading.page_index, []).append((heading.char_start, path))
    out, current = [], ""
    for page in sorted(pages, key=lambda p: p.index):
        found = [(0, current)] if current else []
        for start, path in by_page.get(page.index, []):
            found = [(s, p) for s, p in found if s < start] + [(start, path)]
        if found:
            current = found[-1][1]
        out.append(replace(page, sections=tuple(found)))
    return out


def chunk_sections(pages: dict[int, Page], locators: Sequence[PageLocator]) -> tuple[str, ...]:
    """A chunk's section paths (from its pages' ``sections``): where it starts, then each that
    begins inside it."""
    found: list[str] = []
    for n, loc in enumerate(locators):
        page = pages.get(loc.page_index)
        if page is None:
            continue
        for start, path in page.sections:
            inside = loc.char_start < start < loc.char_end
            at_start = n == 0 and start <= loc.char_start
            if at_start:
                found = [path]
            elif inside:
                found.append(path)
    return tuple(dict.fromkeys(found))
