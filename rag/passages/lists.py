"""Lists in a passage, so that the offline answerer quotes a list whole: the sentence that
introduces it (it ends with a colon, says "the following" or "as follows", or is followed by a
marked item) with its items (bullets, numbered or lettered items, steps, or a run of short lines
after a colon), up to LIST_CHARS; a numbered step is never a sentence of its own ("1.").

Two shapes are read: items on lines of their own (list_runs, on a passage's lines) and items run
into the text ("(1) ... (2) ...", "1) Coherence: ... 2) Consistency: ...": join_inline, on its
sentences).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# Where a list quoted as one unit stops taking items: about what a reader takes in at a glance
# (a dozen short items or five of a line each); measured in bench/README.md ("Lists, short lines
# and tables in any PDF").
LIST_CHARS = 700
# An item line with no marker, in a run of them after a colon, has at most these words and characters
# (rag.passages.units.HEADING_WORDS and HEADING_CHARS: the same short line a heading is).
ITEM_WORDS, ITEM_CHARS = 8, 60
# A marked item wraps onto at most these many short lines of its own (a slide's narrow column).
WRAPPED_LINES = 3

_BULLETS = (
    "\u2022\u00b7\u25cf\u25cb\u25e6\u25aa\u25a0\u25ba\u25b8\u2023\u2043\u2219\u27a2\u2713\u2714\uf0b7\uf0a7"
)
# A marker opening an item: a bullet, a dash, "1." "1)" "(1)" "a)" "(a)" "A." "(iv)", "Step 2".
_MARKER = re.compile(
    rf"^(?:(?P<bullet>[{_BULLETS}*]|[-\u2013\u2014](?=\s))"
    r"|(?P<number>\(?\d{1,2}[.)](?!\d))"
    r"|(?P<letter>\([a-zA-Z]\)|[a-zA-Z]\)|[A-Z]\.(?=\s+[A-Z]))"
    r"|(?P<roman>\((?:i|ii|iii|iv|v|vi|vii|viii|ix|x)\))"
    r"|(?P<step>step\s+\d{1,2}\b[.:]?))(?=\s|$)",
    re.IGNORECASE,
)
# A sentence that announces a list.
_ANNOUNCES = re.compile(r"\b(?:the\s+following|as\s+follows)\b", re.IGNORECASE)
# The first of an enumeration run into the text: "(1)", "1)", "(a)", "a)".
_FIRST_INLINE = re.compile(r"^\(?(?:1|a|i)\)\s", re.IGNORECASE)
_TERMINAL = ".!?;"
# A first item run into a sentence after its colon: "... four metrics: 1) Coherence: ...".
_INLINE_FIRST = re.compile(r":\s+\(?(?:1|a)\)\s")


def marker(line: str) -> str:
    """The kind of marker a line or sentence opens with ("bullet:•", "number", "letter", "roman",
    "step"), or "" when it opens with none."""
    found = _MARKER.match(line)
    if not found:
        return ""
    kind = found.lastgroup or ""
    return f"bullet:{found.group()[0]}" if kind == "bullet" else kind


def item(line: str) -> bool:
    """Whether a line opens a marked item: a marker and a word after it, or a marker alone (a
    step's number above its text); "(2) 319 254" is a table's footnoted row, no item."""
    found = _MARKER.match(line)
    return bool(found) and (only_marker(line) or any(ch.isalpha() for ch in line[found.end() :]))


def only_marker(text: str) -> bool:
    """Whether a line or sentence is a marker alone ("1.", "(b)", "•"): a step's number, never a quote."""
    found = _MARKER.match(text.strip())
    return bool(found) and not text.strip()[found.end() :].strip()


def _short(line: str) -> bool:
    return len(line) <= ITEM_CHARS and len(line.split()) <= ITEM_WORDS


def introduces(line: str, after: str) -> bool:
    """Whether a line ends a sentence that introduces a list: it ends with a colon, or says
    "the following" / "as follows" at its end, or it ends no sentence and the next line opens
    with a marker."""
    return bool(line) and (
        line.endswith(":")
        or (bool(_ANNOUNCES.search(line)) and line[-1] in ":.")
        or (item(after) and line[-1] not in _TERMINAL and not only_marker(line))
    )


def list_runs(lines: Sequence[str]) -> list[tuple[int, int]]:
    """The lists whose items are lines of their own, as (intro, end): the introducing line's index
    and the index after the last item's line. Items are lines opening with a marker, with the lines
    that continue them (after a marker alone, or after a line that wrapped unfinished), or, after a
    colon, short lines with no marker. A list stops at a line that is neither, at an item marked as
    its introducing line is (a sibling), at an empty line, and before it would pass LIST_CHARS."""
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(lines) - 1:
        line, after = lines[i], lines[i + 1]
        marked = item(after)
        if not (introduces(line, after) and (marked or (line.endswith(":") and _short(after)))):
            i += 1
            continue
        own, first, size, j, previous = marker(line), marker(after), len(line), i + 1, line
        while j < len(lines) and (text := lines[j]):
            kind = marker(text) if item(text) else ""
            if kind and own and kind == own:
                break
            if marked and not kind and not _continues(previous, text) and not _between(lines, j, first):
                break
            if not marked and (not _short(text) or text.endswith(":")):
                break  # a long line, or the next list's introducing line
            if size + len(text) + 1 > LIST_CHARS:
                break
            size, previous, j = size + len(text) + 1, text, j + 1
        if j > i + 1:
            runs.append((i, j))
        i = max(j, i + 1)
    return runs


def _continues(previous: str, line: str) -> bool:
    """Whether an unmarked line goes on with the marked item before it: after a marker alone
    ("2." then "Built-in antenna"), or after an unfinished line that wrapped or is continued in
    lower case."""
    if only_marker(previous):
        return True
    unfinished = previous[-1:] not in _TERMINAL
    return unfinished and (len(previous) > ITEM_CHARS or line[:1].islower())


def _between(lines: Sequence[str], j: int, first: str) -> bool:
    """Whether the unmarked short line j wraps the item above it: up to WRAPPED_LINES short
    unmarked lines from it, an item marked as the list's first opens ("• Computerized" /
    "Physician Order Entry" / "(CPOE)" / "• EMR")."""
    k = j
    while k < min(len(lines), j + WRAPPED_LINES) and lines[k] and not item(lines[k]) and _short(lines[k]):
        k += 1
    return bool(first) and k > j and k < len(lines) and item(lines[k]) and marker(lines[k]) == first


def join_inline(sentences: Sequence[str]) -> list[str]:
    """Sentences with a list run into the text joined into one: a sentence that ends with a colon,
    says "the following" / "as follows", holds a first item after a colon, or is followed by a
    first item ("(1) ...", "a) ...") takes the sentences after it that open with a marker (and
    those between two numbered items in sequence), up to LIST_CHARS; a sentence that is a marker
    alone ("1.") is joined to the one after it."""
    pieces = list(sentences)
    out: list[str] = []
    i = 0
    while i < len(pieces):
        sentence = pieces[i]
        nxt = pieces[i + 1] if i + 1 < len(pieces) else ""
        if nxt and only_marker(sentence):
            pieces[i + 1] = f"{sentence} {nxt}"
            i += 1
            continue
        intro = sentence.endswith(":") or _ANNOUNCES.search(sentence) or _FIRST_INLINE.match(nxt)
        if nxt and marker(nxt) and (intro or _INLINE_FIRST.search(sentence)):
            j = i + 1
            while j < len(pieces):
                take = 1 if marker(pieces[j]) else _to_next_item(pieces, j, sentence)
                added = " ".join(pieces[j : j + take])
                if not take or len(sentence) + len(added) >= LIST_CHARS:
                    break
                sentence, j = f"{sentence} {added}", j + take
            out.append(sentence)
            i = j
            continue
        out.append(sentence)
        i += 1
    return out


def _to_next_item(pieces: Sequence[str], j: int, so_far: str) -> int:
    """How many sentences from j up to and with the next numbered item, when the one within
    the next two sentences is numbered next after the last number so far ("2) ... . More. 3) ..."):
    the second item's further sentence; 0 when none is."""
    last = [_number(m.group()) for m in _NUMBERED.finditer(so_far)]
    if not last:
        return 0
    for k in (1, 2):
        if j + k < len(pieces) and _ordinal(pieces[j + k]) == last[-1] + 1:
            return k + 1
    return 0


# A numbered or lettered item's marker where an item run into the text opens: "(2)", "2)", "b)".
_NUMBERED = re.compile(r"(?:(?<=\s)|^)\(?(?:\d{1,2}|[a-z])\)(?=\s)")


def _ordinal(text: str) -> int | None:
    """The number an item's marker gives it (1 for "1)", "(a)", "a)"), or None."""
    found = _NUMBERED.match(text.strip())
    return _number(found.group()) if found else None


def _number(printed: str) -> int:
    key = printed.strip("()")
    return int(key) if key.isdigit() else ord(key) - ord("a") + 1
