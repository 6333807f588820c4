"""Citations against an answer's evidence table: which id a marker names (case-blind), the
footnotes they make, and where a trailing list of sources begins (see rag.citations.grammar' table)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from rag.types import CitationSpan, Evidence, Footnote, Resolution

_MASK = "\x01"
_HEADING = r"(?:#+\s*)?[*_]*(?:sources?|references?|citations?|source ids?)[*_]*\s*:?[*_]*"
_BULLET = r"(?:[-*\u2022+]|\d+[.)])?"
_HEADING_LINE = re.compile(rf"(?i)\s*{_HEADING}\s*")
_MARKERS_ONLY = re.compile(rf"\s*{_BULLET}[\s{_MASK},;]*")
_HEADED_LINE = re.compile(rf"(?i)\s*{_HEADING}[\s{_MASK},;]*")
_ITEM_LINE = re.compile(rf"\s*{_BULLET}\s*{_MASK}.*")


def canonical_id(cid: str, table: Mapping[str, Evidence]) -> str | None:
    """The table's id that cid names, exactly or in another case (short ids are hex), or None."""
    if cid in table:
        return cid
    folded = cid.lower()
    if folded in table:
        return folded
    matches = [key for key in table if key.lower() == folded]
    return matches[0] if len(matches) == 1 else None


def resolve(
    spans: Iterable[CitationSpan], evidence: Mapping[str, Evidence] | Iterable[Evidence]
) -> Resolution:
    """Map cited ids onto the answer's evidence: footnotes numbered by first appearance with all
    their spans (ids as the table spells them); ids not in the table come back unresolved and
    never become footnotes."""
    table = evidence if isinstance(evidence, Mapping) else {e.short_id: e for e in evidence}
    order: list[str] = []
    by_id: dict[str, list[CitationSpan]] = {}
    unresolved: list[str] = []
    unresolved_spans: list[CitationSpan] = []
    for span in spans:
        sid = canonical_id(span.id, table)
        if sid is not None:
            if sid not in by_id:
                order.append(sid)
                by_id[sid] = []
            by_id[sid].append(span if sid == span.id else replace(span, id=sid))
        else:
            unresolved_spans.append(span)
            if span.id not in unresolved:
                unresolved.append(span.id)
    footnotes = tuple(
        Footnote(number=n, short_id=sid, evidence=table[sid], spans=tuple(by_id[sid]))
        for n, sid in enumerate(order, start=1)
    )
    return Resolution(footnotes, tuple(unresolved), tuple(unresolved_spans))


def _masked_lines(text: str, groups: Sequence[tuple[int, int]]) -> list[tuple[int, str]]:
    chars = list(text)
    for start, end in groups:
        chars[start:end] = _MASK * (end - start)
    masked, lines, at = "".join(chars), [], 0
    for line in masked.split("\n"):
        lines.append((at, line))
        at += len(line) + 1
    return lines


def source_list_start(text: str, groups: Sequence[tuple[int, int]]) -> int | None:
    """Where a list of sources at the end of an answer begins, or None. Such a list is the last
    block of lines, each starting with a marker (after an optional bullet), under a heading line
    (`Sources:`, `References`, ...) or after a blank line when its lines hold only markers; a
    heading may also carry the markers itself (`Sources: [abc1234], [def5678]`). Its markers
    cite the answer as a whole, no sentence, and text must come before it."""
    if not groups:
        return None
    lines = _masked_lines(text, groups)
    while lines and not lines[-1][1].strip():
        lines.pop()
    block: list[tuple[int, str]] = []
    while lines and _ITEM_LINE.fullmatch(lines[-1][1]):
        block.insert(0, lines.pop())
    start: int | None = None
    head = lines[-1][1] if lines else None
    if head is not None and (
        (block and _HEADING_LINE.fullmatch(head)) or (_MASK in head and _HEADED_LINE.fullmatch(head))
    ):
        start = lines.pop()[0]
    elif (
        block and head is not None and not head.strip() and all(_MARKERS_ONLY.fullmatch(x) for _a, x in block)
    ):
        start = block[0][0]
    if start is None or not any(ch.isalnum() for _at, line in lines for ch in line):
        return None
    return start
