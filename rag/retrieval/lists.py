"""Lists of documents among a question's candidates. An exhibit index ("10.14 Amended and Restated
... Plan (incorporated by reference to ...)") or a numbered contents page names documents and
sections; it says nothing about them, yet a question's words match their titles (a segments or
auditor question finds "Consent of Ernst & Young" and the incentive plans). Such chunks go after
the others, so they are evidence only when nothing else is. Entry numbers are Regulation S-K's
exhibit numbers (Item 601) and a contents page's section numbers, no data set's words."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ingest.types import Chunk

__all__ = ["LIST_ENTRIES", "is_list", "lists_last"]

# A line that opens with an entry number and a title: "10.14 ...", "4.2(a) ...", "101.INS ...",
# "*10.4(22) ...", "**32.1 ..." (a dotted number; the marks say which entries are management
# contracts or not filed). A bare "23" is not one: a sentence or a table row can open with it.
_MARKS = "[*\u2020\u2021+#]{0,2}"
_ENTRY = re.compile(
    rf"^\s*{_MARKS}\d{{1,3}}\.(?:\d{{1,3}}[a-z]?(?:\([a-z0-9]{{1,3}}\))?|[A-Z]{{3}}){_MARKS}\s+\S"
)
# Lines opening with an entry number that make a chunk a list: an exhibit index prints a dozen or
# more a page, text under numbered headings one or two a chunk. The one value tried; read off
# filings-dev's answers quoting exhibit lists (fd-064, fa-162), checked on its structure set
# (bench/README.md, 2026-12-04).
LIST_ENTRIES = 3


def is_list(text: str) -> bool:
    """Whether a chunk's text is a list of documents: LIST_ENTRIES lines opening with an entry number."""
    return sum(bool(_ENTRY.match(line)) for line in text.splitlines()) >= LIST_ENTRIES


def lists_last(ranked: Sequence[tuple[Chunk, float]]) -> list[tuple[Chunk, float]]:
    """The ranking with its lists of documents moved after the rest, each part in its order."""
    marks = [is_list(chunk.text) for chunk, _ in ranked]
    return [r for r, m in zip(ranked, marks) if not m] + [r for r, m in zip(ranked, marks) if m]
