"""Text helpers for the citation audit: emphasis and escaping; sentences, content words and
stems come from rag.text (the same rules the side panel and the answer metrics use)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rag.text import STOPWORDS, has_content, marker_groups, sentence_spans, stem, strip_markers
from rag.text import tokenize as content_words

__all__ = [
    "content_words",
    "emphasis_segments",
    "escape_markdown",
    "escape_report",
    "has_content",
    "marker_groups",
    "sentence_spans",
    "strip_markers",
]
_WORD = re.compile(r"\w+")
# Markdown that Streamlit's renderer (CommonMark, GFM, math, colour and emoji directives) treats
# specially; a backslash before any ASCII punctuation is a valid CommonMark escape.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=\"'^&])")
_REPORT_SPECIAL = re.compile(r"([\\`*_\[\]<>|~$])")
_LINE_START = re.compile(r"^(\s*)([#>+\-=]|\d+[.)])", re.MULTILINE)


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
