"""The cited passage: which stretch of a footnote's chunk text its citing (or matched) sentence
repeats, for the side panel to emphasise (pure, no Streamlit)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from rag.text import citing_sentence, groups_within, strip_markers
from rag.types import Answer, Evidence, Footnote


def cited_passage(answer: Answer, footnote: Footnote, min_chars: int = 24) -> tuple[int, int] | None:
    """The stretch of the footnote's chunk text that a citing (or matched) sentence repeats, as
    offsets into the chunk text, if any (a computed figure's operand: its cell's row, cell_passage).
    Whitespace differences (PDF line breaks) do not matter."""
    if footnote.evidence.cell is not None:
        return cell_passage(footnote.evidence)
    chunk, where = _flatten(footnote.evidence.text)
    groups = answer.marker_groups
    best: tuple[int, int] | None = None
    sentences = [_sentence_before(answer.text, span.group_start, groups) for span in footnote.spans]
    sentences += [
        strip_markers(answer.text[m.start : m.end], groups_within(groups, m.start, m.end))
        for m in footnote.matches
    ]
    for raw in sentences:
        sentence = " ".join(raw.split())
        if not sentence:
            continue
        matcher = difflib.SequenceMatcher(None, chunk, sentence, autojunk=False)
        match = matcher.find_longest_match(0, len(chunk), 0, len(sentence))
        big_enough = match.size >= min(min_chars, len(sentence)) and match.size > 0
        if big_enough and (best is None or match.size > best[1] - best[0]):
            best = (match.a, match.a + match.size)
    return (where[best[0]], where[best[1] - 1] + 1) if best else None


def cell_passage(evidence: Evidence) -> tuple[int, int] | None:
    """The row of a computed figure's cell in its chunk text, from its label to its number (the
    panel emphasises it as it emphasises a cited passage), when the text holds them in that order."""
    cell = evidence.cell
    if cell is None:
        return None
    start = evidence.text.find(cell.label)
    if start < 0:  # a label on two lines: its last line
        start = evidence.text.find(cell.label.split()[-1])
    end = evidence.text.find(cell.printed, max(start, 0))
    return (start, end + len(cell.printed)) if start >= 0 and end >= 0 else None


def _flatten(text: str) -> tuple[str, list[int]]:
    """Text with whitespace runs collapsed to one space, and each kept character's original offset."""
    out: list[str] = []
    where: list[int] = []
    for match in re.finditer(r"\S+", text):
        if out:
            out.append(" ")
            where.append(match.start() - 1)
        out.append(match.group(0))
        where.extend(range(match.start(), match.end()))
    return "".join(out), where


def _sentence_before(text: str, end: int, groups: Sequence[tuple[int, int]]) -> str:
    """The answer sentence holding the citation marker at end (rag.text.citing_sentence), markers removed."""
    start, stop = citing_sentence(text, end, groups)
    return strip_markers(text[start:stop], groups_within(groups, start, stop))


def split_passage(text: str, passage: tuple[int, int] | None) -> tuple[str, str, str]:
    """Text before, inside and after the passage (all in the first when there is none)."""
    if passage is None:
        return text, "", ""
    start, end = passage
    return text[:start], text[start:end], text[end:]
