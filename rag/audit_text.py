"""Text helpers for the citation audit: sentences of an answer, content words, emphasis, escaping.

A sentence ends at `.`, `!` or `?` (or their full-width forms) followed by white space or the end,
and at every line break (list items, paragraphs). Citation markers written after the full stop
(`... boils at 100 C. [abc1234]`) belong to the sentence before them, and a piece that holds
nothing but markers joins the sentence before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rag.citations import citation_spans

_MASK = "\x01"
_TERMINAL = re.compile(r"[.!?\u3002\uff01\uff1f]+[\"'\u201d\u2019)]*")
_CJK_TERMINAL = "\u3002\uff01\uff1f"
_WORD = re.compile(r"\w+")
_ABBREVIATIONS = frozenset(
    "e.g i.e etc fig figs no nos vs al p pp cf inc ltd co st vol ch sec eq approx ca"
    .split()
)
_TITLES = frozenset("dr mr mrs ms prof".split())
STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers him his how i if in into is it its itself just
    me more most my no nor not of off on once only or other our ours out over own same she should
    so some such than that the their theirs them then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you
    your yours may might must shall per via""".split()
)
# Markdown that Streamlit's renderer (CommonMark, GFM, math, colour and emoji directives) treats
# specially; a backslash before any ASCII punctuation is a valid CommonMark escape.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=\"'^&])")
_REPORT_SPECIAL = re.compile(r"([\\`*_\[\]<>|~$])")
_LINE_START = re.compile(r"^(\s*)([#>+\-=]|\d+[.)])", re.MULTILINE)


def marker_groups(text: str) -> list[tuple[int, int]]:
    """The distinct bracket ranges [start, end) of every citation marker in text."""
    return sorted({(s.group_start, s.group_end) for s in citation_spans(text)})


def _mask(text: str, groups: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in groups:
        chars[start:end] = _MASK * (end - start)
    return "".join(chars)


def _is_abbreviation(masked: str, punct_start: int, after: int) -> bool:
    """A full stop that does not end a sentence: after an initial, a title or another known
    abbreviation (unless a capital follows it, as in `etc. The`), or before a lower-case word.
    A full stop followed by citation markers always ends one."""
    tail = masked[punct_start:after]
    if _MASK in tail or tail.rstrip(" \t\"'\u201d\u2019)") != ".":
        return False
    word = re.search(r"[\w.]*$", masked[:punct_start]).group(0).lower()
    nxt = masked[after:].lstrip()[:1]
    if (len(word) == 1 and word.isalpha()) or word in _TITLES:
        return True
    if word in _ABBREVIATIONS:
        return not nxt.isupper()
    return nxt.islower()


def _boundaries(masked: str) -> list[int]:
    cuts = {m.end() for m in re.finditer("\n", masked)}
    for match in _TERMINAL.finditer(masked):
        end = match.end()
        while True:  # absorb markers written after the full stop
            j = end
            while j < len(masked) and masked[j] in " \t":
                j += 1
            if j < len(masked) and masked[j] == _MASK:
                while j < len(masked) and masked[j] == _MASK:
                    j += 1
                end = j
                continue
            break
        cjk = match.group(0)[0] in _CJK_TERMINAL
        if (end == len(masked) or masked[end].isspace() or cjk) and not _is_abbreviation(
            masked, match.start(), end
        ):
            cuts.add(end)
    return sorted(cuts | {len(masked)})


def has_content(piece: str) -> bool:
    """True when a piece of text (markers already masked out) holds a letter or digit."""
    return any(ch.isalnum() for ch in piece.replace(_MASK, ""))


def sentence_spans(text: str, groups: Sequence[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """The sentences of an answer as [start, end) ranges, stripped of surrounding white space."""
    if not text:
        return []
    masked = _mask(text, marker_groups(text) if groups is None else groups)
    spans: list[tuple[int, int]] = []
    start = 0
    for cut in _boundaries(masked):
        piece = masked[start:cut]
        lead = len(piece) - len(piece.lstrip())
        a, b = start + lead, start + len(piece.rstrip())
        if a < b:
            if spans and not has_content(masked[a:b]):
                spans[-1] = (spans[-1][0], b)  # markers alone on a line: they cite the line before
            else:
                spans.append((a, b))
        start = cut
    return spans


def strip_markers(text: str) -> str:
    """Text without its citation markers, white space collapsed (for showing a sentence)."""
    out, last = [], 0
    for start, end in marker_groups(text):
        out.append(text[last:start])
        last = end
    out.append(text[last:])
    joined = re.sub(r"\s+", " ", "".join(out)).strip()
    return re.sub(r"\s+([.,;:!?])", r"\1", joined)


def stem(word: str) -> str:
    """A crude English suffix stripper, enough to match `boils` with `boiling`."""
    w = word.lower()
    if w.isdigit() or len(w) <= 3:
        return w
    for suffix, repl, min_len in (("ies", "y", 5), ("sses", "ss", 5), ("ing", "", 6), ("ed", "", 5),
                                  ("es", "", 5), ("s", "", 4)):
        if w.endswith(suffix) and len(w) >= min_len and not (suffix == "s" and w.endswith("ss")):
            return w[: len(w) - len(suffix)] + repl
    return w


def content_words(text: str) -> list[str]:
    """Stemmed words that carry meaning: no stop words, no single letters (digits stay)."""
    words = (w.lower() for w in _WORD.findall(text))
    return [stem(w) for w in words if w not in STOPWORDS and (len(w) > 1 or w.isdigit())]


def emphasis_segments(text: str, stems: Iterable[str]) -> list[tuple[str, bool]]:
    """text cut into (piece, emphasised) runs; a word is emphasised when its stem is in stems."""
    wanted = set(stems)
    out: list[tuple[str, bool]] = []
    last = 0
    for match in _WORD.finditer(text):
        word = match.group(0).lower()
        if word in STOPWORDS or stem(word) not in wanted:
            continue
        if match.start() > last:
            out.append((text[last : match.start()], False))
        out.append((match.group(0), True))
        last = match.end()
    if last < len(text):
        out.append((text[last:], False))
    return out


def escape_markdown(text: str) -> str:
    """Untrusted text made inert for st.markdown: every markdown-significant character escaped."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def escape_report(text: str) -> str:
    """Untrusted text made inert in a Markdown report while staying readable as plain text."""
    escaped = _REPORT_SPECIAL.sub(r"\\\1", text)
    return _LINE_START.sub(_escape_line_start, escaped)


def _escape_line_start(match: re.Match[str]) -> str:
    lead, mark = match.group(1), match.group(2)
    return lead + mark[:-1] + "\\" + mark[-1] if mark[0].isdigit() else lead + "\\" + mark
