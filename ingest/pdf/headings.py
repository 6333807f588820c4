"""A document's headings read from its layout, for a PDF without an outline (bookmarks).

A heading is a line set apart from the running text by its type, not by its words:
- a page's body style is the style (font size, bold, italic, typeface) most of the running text's
  letters are in on the pages around it: a report's main part and its exhibits are often set in
  different sizes, and its tables in another than its prose; a line is in a
  *heading style* when its first, middle and last letters share one style that is larger than
  its page's body (by HEADING_SIZE_STEP points or more), or bold where the body is not and not
  smaller than it; on the pages of a body style where no line is, another typeface than the
  body's at its size marks headings (fonts whose names say nothing, "CIDFont+F2");
- a heading is short (at most HEADING_MAX_CHARS a line), mostly letters, holds no "$" or "%",
  does not end like a table row or a contents line (a number that is not a year) or like a label
  that runs into what follows (":"), and starts with a capital or a number;
- consecutive heading-style lines of one style are one heading when they sit at one height (the
  text layer broke a line at a wide gap) or the first was wrapped: the next line's first word would
  not have fitted after it (its right edge plus that word reaches the page's widest line); more
  than HEADING_MAX_LINES of them are a bold paragraph;
- a line that recurs on many pages (digits ignored) is a running header or footer, never a
  heading, and a title that repeats the heading just before it (a section's running title) is
  that same section.
Levels come from the part or chapter word a title starts with, then its numbering's depth ("Item
3." and "4." one deep, "Note 13" and "4.2" two, "4.2.1" three, none below them all), then the size
of its type, then bold and upright before not (``rank_key``): numbering before size, because a
chart's legend or a cover's banner is often set larger than the headings that structure a report.

The lines' type is read while a page's text is read (ingest.pdf.line_styles).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ingest.pdf.context import REPEATED_PAGE_SHARE  # a line on 30% of the pages runs on every page
from ingest.pdf.line_styles import BOLD_BIT, ITALIC_BIT, LONG_LINE, UNIFORM_BIT
from ingest.types import Heading, Page

HEADING_MAX_CHARS = LONG_LINE  # one line of a heading; a merged heading at most HEADING_MAX_LINES of them
HEADING_MAX_LINES = 3
HEADING_SIZE_STEP = 0.9  # points above the body size that make a line's type larger
SIZE_TOLERANCE = 0.6  # points: a bold line this much smaller than the body is still not smaller
BODY_PAGES = 5  # pages each side whose running text sets a page's body style
UNNUMBERED = 4  # the depth of a title without numbering: below every numbered one
_ROW_END = re.compile(r"(?<![\w.])(\d[\d,.]*)\)?\s*$")
_YEAR = re.compile(r"(?:19|20)\d\d")
_WORD = re.compile(r"[A-Za-z][A-Za-z'&-]*")
_PART = re.compile(r"(?:part|book|chapter|kapitel|teil)\s+(?:[ivxlc]+|\d+|[a-z])\b", re.IGNORECASE)
_ITEM = re.compile(r"(?:item|section|article)\s+\d+[a-z]?\b", re.IGNORECASE)
_NOTE = re.compile(r"note\s+\d+", re.IGNORECASE)
_DECIMAL = re.compile(r"(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+\S")


@dataclass(frozen=True)
class Style:
    """A run of type: size in points (rounded to a half), bold, italic."""

    size: float
    bold: bool
    italic: bool
    font: int = 0  # which typeface (a checksum of its name, without a subset's prefix)


@dataclass(frozen=True)
class Line:
    """One line of a page as laid out: where it starts in the page text, its text, the style of
    its letters (None when they are not all in one), how many letters it holds, its height."""

    page: int
    start: int
    text: str
    style: Style | None
    letters: int
    top: float
    right: float = 0.0  # the right edge of its last letter
    extent: float = 0.0  # the right edge of the page's widest line


def page_lines(page: Page, rows: Sequence[Sequence[float]]) -> list[Line]:
    """A page's laid-out lines from its text and its ``line_rows``."""
    out = []
    extent = max((row[5] for row in rows), default=0.0)
    for start, size, bits, letters, top, right, font in rows:
        start = int(start)
        end = page.text.find("\n", start)
        text = page.text[start : end if end >= 0 else len(page.text)].strip()
        style = Style(size, bool(int(bits) & BOLD_BIT), bool(int(bits) & ITALIC_BIT), int(font))
        uniform = len(text) > HEADING_MAX_CHARS or bool(int(bits) & UNIFORM_BIT)
        out.append(
            Line(page.index, start, text, style if uniform else None, int(letters), top, right, extent)
        )
    return out


def headings_from(lines: Sequence[Line], page_count: int) -> list[Heading]:
    """The headings among a document's laid-out lines, with their levels (module docstring)."""
    bodies = _body_styles(lines)
    if not bodies:
        return []
    running = _running(lines, page_count)
    lines = [line for line in lines if line.page in bodies]
    marked = {bodies[line.page] for line in lines if _heading_style(line, bodies[line.page])}
    found: list[list[Line]] = []
    for line in lines:
        body = bodies[line.page]
        if not _heading_style(line, body, body not in marked) or _key(line.text) in running:
            continue
        last = found[-1][-1] if found else None
        if last is not None and _continues(last, line):
            found[-1].append(line)
        else:
            found.append([line])
    kept: list[tuple[str, Line]] = []
    for group in found:
        title = " ".join(" ".join(x.text.split()) for x in group)
        repeated = bool(kept) and _key(kept[-1][0]) == _key(title)
        if len(group) <= HEADING_MAX_LINES and _is_heading_text(title) and not repeated:
            kept.append((title, group[0]))
    keys = [rank_key(title, first.style or bodies[first.page]) for title, first in kept]
    level = {key: n for n, key in enumerate(sorted(set(keys)), start=1)}
    return [Heading(level[key], title, first.page, first.start) for (title, first), key in zip(kept, keys)]


def rank_key(title: str, style: Style) -> tuple[int, int, float, bool, bool]:
    """What orders headings into levels, smaller first (see the module docstring)."""
    return (0 if _PART.match(title) else 1, _depth(title), -style.size, not style.bold, style.italic)


def _depth(title: str) -> int:
    if _ITEM.match(title):
        return 1
    if _NOTE.match(title):
        return 2
    found = _DECIMAL.match(title)
    return len(found.group(1).split(".")) if found else UNNUMBERED


def _body_styles(lines: Sequence[Line]) -> dict[int, Style]:
    """Each page's body style: the style most of the running text's letters (lines of prose) are
    in on the pages around it (BODY_PAGES each side), else most of their letters."""
    prose: dict[int, Counter[Style]] = {}
    anywhere: dict[int, Counter[Style]] = {}
    for line in lines:
        if line.style is not None:
            anywhere.setdefault(line.page, Counter())[line.style] += line.letters
            if _is_prose(line.text):
                prose.setdefault(line.page, Counter())[line.style] += line.letters
    out = {}
    for page in {line.page for line in lines}:
        around = range(page - BODY_PAGES, page + BODY_PAGES + 1)
        counts: Counter[Style] = Counter()
        for near in around:
            counts.update(prose.get(near, {}))
        if not counts:
            for near in around:
                counts.update(anywhere.get(near, {}))
        if counts:
            out[page] = counts.most_common(1)[0][0]
    return out


def _is_prose(text: str) -> bool:
    """A line of running text: six or more words, most of them lowercase (as ingest.pdf.context)."""
    words = _WORD.findall(text)
    return len(words) >= 6 and sum(w[0].islower() for w in words) >= 0.5 * len(words)


def _heading_style(line: Line, body: Style, by_font: bool = False) -> bool:
    style = line.style
    if style is None or len(line.text) > HEADING_MAX_CHARS or not line.top:
        return False
    if style.size >= body.size + HEADING_SIZE_STEP:
        return True
    if by_font:
        return style.font != body.font and not style.italic and abs(style.size - body.size) <= SIZE_TOLERANCE
    return style.bold and not body.bold and style.size >= body.size - SIZE_TOLERANCE


def _continues(last: Line, line: Line) -> bool:
    """Whether line goes on the heading last ends: same page and style, just below, and last was
    wrapped (line's first word, at about half an em a letter, would not have fitted after it)."""
    if line.page != last.page or line.style != last.style or line.style is None:
        return False
    gap = last.top - line.top
    if abs(gap) <= 0.2 * line.style.size:
        return True  # the same line, which the text layer broke at a wide gap ("ITEM", "3. LEGAL")
    word = len(line.text.split()[0]) if line.text.split() else 0
    return 0 < gap <= 2.0 * line.style.size and last.right + 0.5 * line.style.size * (word + 1) >= last.extent


def _is_heading_text(title: str) -> bool:
    letters = sum(c.isalpha() for c in title)
    if letters < 3 or letters < 0.5 * sum(not c.isspace() for c in title) or title.endswith(":"):
        return False
    if "$" in title or "%" in title or len(title) > HEADING_MAX_LINES * HEADING_MAX_CHARS:
        return False
    end = _ROW_END.search(title)
    if end and not _YEAR.fullmatch(end.group(1)) and not _numbering_only(title):
        return False  # a table row or a contents line ends in a number
    first = next(c for c in title if c.isalnum())
    return first.isupper() or first.isdigit()


def without_numbering(title: str) -> str:
    """A title without the numbering that leads it ("Item 3. Legal Proceedings" -> "Legal
    Proceedings", "Note 13 - Segments" -> "Segments", "PART II" -> "")."""
    for pattern in (_PART, _ITEM, _NOTE):
        found = pattern.match(title)
        if found:
            return title[found.end() :].lstrip(" .:-\u2013\u2014")
    found = _DECIMAL.match(title)
    return title[found.end(1) :].lstrip(" .") if found else title


def _numbering_only(title: str) -> bool:
    """ "Note 13", "PART 2": a numbering word and its number, the title on a line of its own."""
    words = title.split()
    return len(words) == 2 and words[0][:1].isupper() and words[0].isalpha()


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def _running(lines: Sequence[Line], page_count: int) -> set[str]:
    """Keys of lines (digits ignored) found on many pages."""
    pages_of: dict[str, set[int]] = {}
    for line in lines:
        if len(line.text) <= HEADING_MAX_CHARS:
            pages_of.setdefault(_key(line.text), set()).add(line.page)
    least = max(3, REPEATED_PAGE_SHARE * page_count)
    return {key for key, pages in pages_of.items() if len(pages) >= least}
