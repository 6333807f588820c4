"""Pages as a unit between the document and the chunk: what each page of a document is (its
heading, the financial statement it holds, the years of its table columns), and a ranking of a
document's pages for a question.

A page's *heading* is read from layout alone: its first lines, before the first line of prose, of
table rows or of column years, without the running headers and footers (lines on many pages). A
statement page says what it is there ("Consolidated Statements of Cash Flows", "(in millions)"),
however its title is spelled or spaced; rag.questions.request.statements_in reads which statement.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ingest.types import LibraryReader
from rag.questions.request import statements_in
from rag.tables.lines import header_years, read_row
from rag.text import STOPWORDS

HEADING_MAX_LINES = 8  # a title, the company, "(in millions)", a date line: more is a page's body
# (a line of one word is not counted: some text layers set a heading's words one a line, and a
# function word alone on its line is one of them, however many pages repeat it)
HEADING_MAX_CHARS = 240
REPEATED_PAGE_SHARE = 0.3  # as ingest.pdf.context: a line on 30% of the pages (3 or more) runs on every page
_WORD = re.compile(r"[A-Za-z][A-Za-z'&-]*")


@dataclass(frozen=True)
class PageFacts:
    """What a page is: its heading, the statement it holds (a rag.questions.request.STATEMENTS kind or ""),
    and whether it carries a table with year columns."""

    page_index: int
    heading: str
    statement: str
    years: tuple[int, ...]


def _key(line: str) -> str:
    return re.sub(r"\d+", "#", line.lower())


def _is_prose(line: str) -> bool:
    words = _WORD.findall(line)
    return len(words) >= 6 and sum(w[0].islower() for w in words) >= 0.5 * len(words)


def repeated_lines(texts: Sequence[str]) -> set[str]:
    """Line keys (digits ignored) found on so many pages that they are running headers or footers."""
    counts = Counter(k for t in texts for k in {_key(x.strip()) for x in t.splitlines() if x.strip()})
    least = max(3, REPEATED_PAGE_SHARE * len(texts))
    return {k for k, n in counts.items() if n >= least}


def heading(text: str, repeated: set[str]) -> tuple[str, tuple[int, ...]]:
    """The page's heading lines (joined) and the years of its first column header line."""
    lines: list[str] = []
    years: tuple[int, ...] = ()
    counted = 0
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if not line or line.isdigit() or (_key(line) in repeated and line.lower() not in STOPWORDS):
            continue  # a running header or footer; but "of" on its own line is a title's word
        found = header_years(line)
        if found or read_row(line) is not None or _is_prose(line) or counted >= HEADING_MAX_LINES:
            years = found or _years_below(text)
            break
        lines.append(line)
        counted += " " in line
    return " ".join(lines)[:HEADING_MAX_CHARS], years


def _years_below(text: str) -> tuple[int, ...]:
    for raw in text.splitlines()[:40]:
        found = header_years(" ".join(raw.split()))
        if found:
            return found
    return ()


def page_facts(texts: Sequence[str]) -> list[PageFacts]:
    """The facts of each page of one document (its page texts in order)."""
    repeated = repeated_lines(texts)
    return [_facts_of(i, text, repeated) for i, text in enumerate(texts)]


def _facts_of(index: int, text: str, repeated: set[str]) -> PageFacts:
    head, years = heading(text, repeated)
    kinds = statements_in(head)
    return PageFacts(index, head, kinds[0] if kinds else "", years)


class DocumentPages:
    """A document's page facts, each page's read from its text when first asked (a question about
    a new 549-page filing needs a handful of them, not 0.4 s of headings), and the page each of
    its chunks starts on (by chunk id, in the chunks' order)."""

    def __init__(self, texts: Sequence[str], chunk_pages: dict[str, int]) -> None:
        self.texts = tuple(texts)
        self.chunk_pages = chunk_pages
        self._repeated: set[str] | None = None
        self._read: dict[int, PageFacts] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.texts)

    def fact(self, page_index: int) -> PageFacts:
        """The facts of one page (as page_facts gives them)."""
        found = self._read.get(page_index)
        if found is None:
            with self._lock:
                if self._repeated is None:
                    self._repeated = repeated_lines(self.texts)
                found = _facts_of(page_index, self.texts[page_index], self._repeated)
                self._read[page_index] = found
        return found

    @property
    def facts(self) -> tuple[PageFacts, ...]:
        """Every page's facts, in page order."""
        return tuple(self.fact(i) for i in range(len(self.texts)))

    def next_chunk(self, chunk_id: str) -> str | None:
        """The id of the chunk after this one in the document, or None."""
        ids = list(self.chunk_pages)
        try:
            at = ids.index(chunk_id)
        except ValueError:
            return None
        return ids[at + 1] if at + 1 < len(ids) else None


class FactsCache:
    """Page facts and chunk pages per document, kept for the library generation they were read in."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._facts: dict[str, DocumentPages] = {}
        self._generation: Any = None
        self._owner: Any = None

    def peek(self, doc_id: str) -> DocumentPages | None:
        """The document's facts if they were read for the current owner's generation, else None."""
        with self._lock:
            return self._facts.get(doc_id)

    def get(self, library: LibraryReader, doc_id: str) -> DocumentPages:
        """The document's page facts and chunk pages, read once per library generation."""
        generation = library.generation
        with self._lock:
            if self._owner is not library or self._generation != generation:
                self._facts, self._owner, self._generation = {}, library, generation
            found = self._facts.get(doc_id)
        if found is None:
            chunk_pages = library.chunk_pages(doc_id)
            found = DocumentPages([p.text for p in library.pages(doc_id)], chunk_pages)
            with self._lock:
                self._facts[doc_id] = found
        return found
