"""What a chunk's reader needs that is not in its text: the table title and column header line
(for rows of a table), or the section heading (for prose), found earlier on the page or on the
previous page when a table continues without repeating its header.

The rules are about layout, not about one data set:
- a *header line* holds at least two period labels (years 1900-2099, or Q1-Q4) and no more other
  numbers than period labels ("December 31, 2023  December 31, 2022" passes, a row of amounts
  does not), and is not a line of prose;
- a *units line* says "(in millions...)", "in thousands" or "in billions";
- a *title line* is short, starts with a capital, is mostly letters, has no "$" or "%", does not
  end like a sentence or a row group (".", ",", ";", ":") or with a lowercase word, has no
  lowercase word longer than four letters outside parentheses (titles capitalise all but "of",
  "and", "the", "from", ...), no sentence ends inside it, and it stands alone
  (the line above does not stop mid-sentence, the line below does not go on in lowercase);
- a line repeated on many pages (running headers and footers, digits ignored) is never a title;
- a line of prose has six or more words, most of them lowercase;
- a chunk is *tabular* when its first row-like line (ending in a number) comes before any prose;
  its context is then the title above the nearest header line plus the units and the header;
  otherwise its context is the nearest title line above it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ingest.pdf.tables import PERIOD
from ingest.text import search_form
from ingest.types import Page

CONTEXT_MAX_CHARS = 240  # a title and a header line; longer means the detection went wrong
TITLE_MAX_CHARS = 100
REPEATED_PAGE_SHARE = 0.3  # a line on 30% of the pages (and 3 or more) is a running header/footer
_NUMBER = re.compile(r"\d[\d,.]*")
_UNITS = re.compile(r"\bin (?:millions|thousands|billions)\b", re.IGNORECASE)
_ROW_END = re.compile(r"(?:\d\)?%?|[—–-])\s*$")  # noqa: RUF001 (em and en dash end table rows)
_WORD = re.compile(r"[A-Za-z][A-Za-z'&-]*")


@dataclass(frozen=True)
class _Mark:
    """A title, units or header line at a character position of a page."""

    pos: int
    kind: str  # "title", "units" or "header"
    text: str


def _is_header(line: str) -> bool:
    periods = PERIOD.findall(line)
    others = len(_NUMBER.findall(line)) - sum(p[0] != "Q" for p in periods)
    return len(set(periods)) >= 2 and others <= len(periods) and len(line) <= 200 and not _is_prose(line)


def _is_title(line: str) -> bool:
    if not (3 <= len(line) <= TITLE_MAX_CHARS) or not line[0].isupper() or line[-1] in ".,;:":
        return False
    last = _WORD.findall(line.split()[-1])
    if "$" in line or "%" in line or line.count('"') % 2 or (last and last[-1][0].islower()):
        return False  # an amount, a broken quotation, or a line that wraps mid-sentence
    if any(len(part.split()) > 2 for part in line.split(". ")[:-1]):
        return False  # a sentence ends inside it (but "Item 7. Title" and "Note 3. Title" pass)
    letters = sum(c.isalpha() for c in line)
    if letters < 0.7 * sum(not c.isspace() for c in line):
        return False
    words = _WORD.findall(re.sub(r"\([^)]*\)", " ", line))
    return any(w[0].isupper() for w in words) and not any(w[0].islower() and len(w) > 4 for w in words)


def _lines(text: str) -> list[tuple[int, str]]:
    """(start, stripped line) for each non-blank line of a page."""
    out, pos = [], 0
    for raw in text.splitlines(keepends=True):
        line = raw.strip()
        if line:
            out.append((pos + raw.index(line[0]), line))
        pos += len(raw)
    return out


def _key(line: str) -> str:
    return re.sub(r"\d+", "#", line.lower())


def _repeated(pages: Sequence[Page]) -> set[str]:
    """Line keys found on so many pages that they are running headers or footers."""
    counts = Counter(k for p in pages for k in {_key(line) for _, line in _lines(p.text)})
    least = max(3, REPEATED_PAGE_SHARE * len(pages))
    return {k for k, n in counts.items() if n >= least}


def _stands_alone(before: str | None, after: str | None) -> bool:
    """Whether a line is not the middle of a wrapped sentence: the line above does not stop
    mid-sentence (a lowercase letter or a comma) and the line below does not go on in lowercase."""
    if (before is not None and before[-1:].islower()) or (before or "").endswith(","):
        return False
    return after is None or not after[:1].islower()


def _marks(text: str, repeated: set[str]) -> list[_Mark]:
    marks = []
    lines = _lines(text)
    for i, (pos, line) in enumerate(lines):
        if _is_header(line):
            marks.append(_Mark(pos, "header", line))
        elif _UNITS.search(line) and len(line) <= TITLE_MAX_CHARS:
            marks.append(_Mark(pos, "units", line))
        elif (
            _is_title(line)
            and _key(line) not in repeated
            and _stands_alone(lines[i - 1][1] if i else None, lines[i + 1][1] if i + 1 < len(lines) else None)
        ):
            marks.append(_Mark(pos, "title", line))
    return marks


def _is_prose(line: str) -> bool:
    """A line of running text: six or more words, most of them lowercase (not a units line)."""
    words = _WORD.findall(line)
    if len(words) < 6 or _UNITS.search(line):
        return False
    return sum(w[0].islower() for w in words) >= 0.5 * len(words)


def _first_row(lines: list[tuple[int, str]]) -> int | None:
    """Offset of the first row-like line, when it comes before any prose."""
    for pos, line in lines:
        if _ROW_END.search(line) and not _is_header(line) and not _is_prose(line):
            return pos
        if _is_prose(line):
            return None
    return None


def _table_context(marks: list[_Mark]) -> str:
    """'title | units header | subheading' around the last header line."""
    at = max(i for i, m in enumerate(marks) if m.kind == "header")
    title = next((m.text for m in reversed(marks[:at]) if m.kind == "title"), "")
    units = next((m.text for m in reversed(marks[:at]) if m.kind == "units"), "")
    below = next((m.text for m in reversed(marks[at:]) if m.kind == "title"), "")
    header = " ".join(part for part in (units, marks[at].text) if part)
    return " | ".join(part for part in (title, header, below) if part)


class ContextFinder:
    """Finds the context of any position in a document's pages (marks computed once per page)."""

    def __init__(self, pages: Sequence[Page]) -> None:
        self._repeated = _repeated(pages)
        self._marks = [_marks(p.text, self._repeated) for p in pages]

    def at(self, page: int, pos: int, text: str) -> str:
        """The context of text starting at character pos of the page-th page (of those given)."""
        lines = [(p, line) for p, line in _lines(text) if _key(line) not in self._repeated]
        row = _first_row(lines)
        cutoff = pos + (row if row is not None else 0)
        marks = (self._marks[page - 1] if page > 0 else []) + [m for m in self._marks[page] if m.pos < cutoff]
        if row is not None and any(m.kind == "header" for m in marks):
            return _table_context(marks)[:CONTEXT_MAX_CHARS]
        if lines and _is_title(lines[0][1]):
            return ""  # a chunk that opens with its own heading needs no other
        titles = [m.text for m in marks if m.kind == "title"]
        return titles[-1][:CONTEXT_MAX_CHARS] if titles else ""


def indexed_text(context: str, text: str) -> str:
    """What search sees of a chunk: its context line, then its text, in their search form
    (ingest.text.search_form: a math italic x, U+1D465, is embedded as "x")."""
    return search_form(f"{context}\n{text}" if context else text)
