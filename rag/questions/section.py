"""The section a question names, and what it asks of it: its subsections, its title, or what it says.

A question names a section the ways English names a part of a document:
- a division word and its number: "section 3", "chapter 4", "Part VII", "appendix E", "unit 14",
  "Item 7", "Note 13", "§ 3.2"; or a number of two or more parts before a capitalised word ("5.1
  Understanding imitation"). Words after the number that start with a capital, or a bracket after
  it or before it, are its title too ("section 4 (Teaching LLMs logical reasoning)", "System
  Architecture (section 3)", "chapter 3 Health management");
- capitalised words between "the" and a division word ("the Blood Pressure Management chapter";
  not "UCLA and USC part of"), or after one with "named", "titled", "called" ("the section titled
  Risk Factors");
- a title in quotes ("the 'What can I do to solve a problem?' page");
- when it asks for subsections, capitalised words after "under" ("subsections under Getting
  Started", "which sections are listed under OTHER PROGRAMMES").
A title in quotes or after "under" names only a heading of exactly its words (``exact``): quotes
and "under" also mark names that are no heading.

It asks for the subsections when it says subsection, sub-subsection or subheading, or a plural
division word, "topics" or "headings" ("What topics are in chapter 3"); for the
title when it names the section by number alone and asks its title, name or topic, or what it is
about ("What is part VII titled?", "What is unit 7 about?").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.text import tokenize

SUBSECTIONS = "subsections"
TITLE = "title"

# The words that name a part of a document, in the singular; a question's plural of one asks for
# parts (SUBSECTIONS).
DIVISIONS = "section chapter part appendix annex unit article item note lesson module clause schedule".split()
_DIVISION = r"(?:" + "|".join(DIVISIONS) + r")"
# A part's number: "3", "3.2", "1A", roman "VII" / "vii" (up to 399), a capital letter "E", "A.1".
_ROMAN = r"(?=[IVXLC])C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
_DESIGNATOR = (
    rf"(?:\d{{1,3}}[A-Za-z]?(?:\.\d{{1,3}}){{0,3}}|{_ROMAN}|{_ROMAN.lower()}|[A-Z](?:\.\d{{1,3}}){{0,3}})"
)
_NUMBERED = re.compile(
    rf"(?:\b(?i:{_DIVISION})|§)\s*({_DESIGNATOR})(?!\w|\.\d)",
)
_DOTTED = re.compile(r"(?<![\w.$,])(\d{1,2}(?:\.\d{1,2}){1,3})\.?\s+(?=[A-Z][a-z])")
# Words between capitalised ones of a title ("Leaders in Technology", "Getting Started with ...").
_JOINERS = frozenset("a an and as at by for from in of on or the to with & -".split())
_QUOTED = re.compile(
    r"(?<!\w)(?:'([^']+?)'|\"([^\"]+?)\"|\u2018([^\u2019]+?)\u2019|\u201c([^\u201d]+?)\u201d)(?!\w)"
)
_TOKEN = re.compile(r"[\w][\w'\u2019&.-]*|[^\w\s]")
_ASKS_SUBSECTIONS = re.compile(r"\bsub-?(?:sub-?)?(?:sections?|headings?|chapters?)\b", re.IGNORECASE)
_PLURALS = re.compile(
    r"\b(?:" + "|".join(w + "s" for w in DIVISIONS if w != "appendix") + r"|appendices|topics|headings)\b",
    re.IGNORECASE,
)
_ASKS_TITLE = re.compile(r"\b(?:title|titled|called|named|name|topic|heading)\b|\babout\W*$", re.IGNORECASE)
_NAMING = re.compile(r"\b(?:named|titled|entitled|called|headed)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Section:
    """The section a question names: its number as written ("4", "3.2", "VII"; "" for none), the
    division word before it ("chapter"; "" for none), its title's words as written ("" for none),
    whether only a heading of exactly those words is it (``exact``), and what is asked of it
    (SUBSECTIONS, TITLE, or "" for what it says)."""

    number: str = ""
    word: str = ""
    title: str = ""
    exact: bool = False
    asks: str = ""

    def names(self, heading: str) -> float:
        """How well a heading is this section: 0 when it is not, more the better (its number, then
        the share of words its title and the heading's share)."""
        word, number, rest = heading_numbering(heading)
        by_number = bool(self.number) and number == self.number.lower() and (not word or word == self.word)
        by_title = self._by_title(rest)
        if by_number and not self.word and not by_title:  # "1.5 A" is an amount, "5.1 Methods" a section
            return 0.0
        return (1.0 if by_number else 0.0) + by_title

    def _by_title(self, rest: str) -> float:
        asked, held = set(tokenize(self.title)), set(tokenize(rest))
        if not asked or not held:
            return 0.0
        if self.exact:
            return 1.0 if asked == held else 0.0
        if asked <= held or held <= asked:
            return len(asked & held) / len(asked | held)
        return 0.0


_HEADING_NUMBER = re.compile(
    rf"^\s*(?:((?i:{_DIVISION}))\s*)?({_DESIGNATOR})(?:[.:)\u2013\u2014-]+|\s+|$)\s*"
)


def heading_numbering(heading: str) -> tuple[str, str, str]:
    """A heading's division word and number (lower case; "" when it has none) and its title after
    them: "Chapter 3 Health" -> ("chapter", "3", "Health"), "4.2 Citation Evaluation" -> ("", "4.2",
    "Citation Evaluation"), "VII. The Standard of Review" -> ("", "vii", "The Standard of Review")."""
    found = _HEADING_NUMBER.match(heading)
    if found is None or (found.group(1) is None and not _numbering_alone(found.group(2), heading)):
        return "", "", heading
    return (found.group(1) or "").lower(), found.group(2).lower(), heading[found.end() :]


def _numbering_alone(number: str, heading: str) -> bool:
    """Whether a heading's first word is its number, not a word ("A Prompts" is appendix A;
    "I Introduction" part I; "A Guide to ..." is not numbered, nor "CIVIL ...")."""
    rest = heading.strip()[len(number) :]
    if number[:1].isdigit() or "." in number:
        return True
    return not rest[:1].isalpha() and (number.isupper() or len(number) == 1)


def read_section(text: str) -> Section | None:
    """The section the question names and what it asks of it (see the module docstring), or None."""
    asks_parts = bool(_ASKS_SUBSECTIONS.search(text) or _PLURALS.search(text))
    found = _numbered(text) or _titled(text) or _quoted(text)
    if found is None and asks_parts:
        found = _under(text)
    if found is None:
        return None
    number, word, title, exact = found
    if asks_parts:
        asks = SUBSECTIONS
    elif number and not title and _ASKS_TITLE.search(text):
        asks = TITLE
    else:
        asks = ""
    return Section(number, word, title, exact, asks)


def _numbered(text: str) -> tuple[str, str, str, bool] | None:
    """A division word and number ("section 4"), or a dotted number before a capital ("5.1
    Understanding"), with the title written beside it."""
    found = _NUMBERED.search(text)
    if found is not None:
        word = found.group(0)[: found.start(1) - found.start()].strip().lower()
        word = "section" if word == "§" else word
        title = _title_after(text[found.end() :]) or _title_before(text[: found.start()])
        return found.group(1), word, title, False
    dotted = _DOTTED.search(text)
    if dotted is not None:
        return dotted.group(1), "", _title_after(text[dotted.end() :]), False
    return None


def _titled(text: str) -> tuple[str, str, str, bool] | None:
    """Capitalised words before a division word ("the Security chapter"), or after one and a
    word of naming ("the section titled Risk Factors")."""
    for found in re.finditer(rf"\b(?i:{_DIVISION})\b", text):
        after = text[found.end() :]
        naming = _NAMING.match(after.lstrip())
        if naming is not None:
            rest = after.lstrip()[naming.end() :]
            quoted = _QUOTED.match(rest.lstrip())
            title = _quote_text(quoted) if quoted else _capitalised_run(rest)
            if title:
                return "", found.group(0).lower(), title, False
        before = text[: found.start()]
        title = _capitalised_run(before, backwards=True)
        if title and re.search(r"\bthe\s+$", before[: before.rstrip().rfind(title)], re.IGNORECASE):
            return "", found.group(0).lower(), title, False
    return None


def _quoted(text: str) -> tuple[str, str, str, bool] | None:
    found = _QUOTED.search(text)
    title = _quote_text(found) if found else ""
    return ("", "", title, True) if tokenize(title) else None


def _quote_text(found: re.Match[str]) -> str:
    return next(g for g in found.groups() if g is not None).strip()


def _under(text: str) -> tuple[str, str, str, bool] | None:
    found = re.search(r"\bunder\s+(?:the\s+)?", text, re.IGNORECASE)
    title = _capitalised_run(text[found.end() :]) if found else ""
    return ("", "", title, True) if title else None


def _title_after(rest: str) -> str:
    """The title written right after a section's number: in brackets, or from a capitalised word to
    the next punctuation ("Evaluation Metrics?", "Health management?")."""
    rest = rest.lstrip(" :.-\u2013\u2014")
    if rest.startswith("("):
        return rest[1:].split(")", 1)[0].strip()
    if not rest[:1].isupper():
        return ""
    return re.split(r"[?!,;:()]|\.(?:\s|$)", rest, maxsplit=1)[0].strip()


def _title_before(before: str) -> str:
    """The title written before a bracketed number: "System Architecture (" -> "System Architecture"."""
    before = before.rstrip()
    return _capitalised_run(before[:-1], backwards=True) if before.endswith("(") else ""


def _capitalised_run(text: str, backwards: bool = False) -> str:
    """The run of capitalised words (and the small words between them) at the start of text, or,
    backwards, at its end: "Getting Started with Alibaba Cloud?" -> "Getting Started with Alibaba
    Cloud". A run that is only the question's first word is none."""
    tokens = _TOKEN.findall(text)
    if backwards:
        tokens = tokens[::-1]
    run: list[str] = []
    for token in tokens:
        if not (token[:1].isupper() or token[:1].isdigit() or (run and token.lower() in _JOINERS)):
            break
        run.append(token)
    while run and (run[-1].lower() in _JOINERS):
        run.pop()
    if backwards:
        run = run[::-1]
        if len(run) == 1 and text.lstrip().startswith(run[0]):  # "What chapter": the first word
            return ""
    return " ".join(run)
