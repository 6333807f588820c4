"""A hyphen at a line's end, read as the document writes the word elsewhere.

pdfium marks every hyphen that ends a line alike (ingest.pdf.page_text makes it a soft hyphen, so
"recog-/nition" is read, searched and embedded as "recognition"). But a compound broken at its own
hyphen ("long-/term", "question-/answering") is then read as "longterm": search for "long-term debt"
misses it and a quote prints a word nobody wrote. A document tells the two apart itself: a compound
it prints with a hyphen inside a line ("long-term") keeps its hyphen where a line breaks it, unless
the document also prints the joined word ("longterm"). Every other line-end hyphen stays soft.
One character for one, so no character index moves (the page's highlights depend on them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from ingest.text import SOFT_HYPHEN

# A run of words joined by hyphens inside a line: "long-term", "weak-to-strong".
_COMPOUND = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")
_WORD = re.compile(r"[A-Za-z]+")
# Two words a line-end hyphen joins: "long\u00adterm" (a surrogate pair's mark follows no such letter).
_BROKEN = re.compile(rf"([A-Za-z]+){SOFT_HYPHEN}([A-Za-z]+)")


def compound_hyphens(texts: Sequence[str]) -> list[str]:
    """The pages' texts with each line-end hyphen the document writes as a compound's made a hyphen
    again (see the module docstring); texts without one are returned as they are."""
    if not any(SOFT_HYPHEN in t for t in texts):
        return list(texts)
    pairs: set[tuple[str, str]] = set()
    for text in texts:
        for run in _COMPOUND.finditer(text):
            parts = run.group().lower().split("-")
            pairs.update(pairwise(parts))
    if not pairs:
        return list(texts)
    words = {w.lower() for text in texts for w in _WORD.findall(text)}

    def kept(found: re.Match[str]) -> str:
        first, second = found.group(1), found.group(2)
        compound = (first.lower(), second.lower()) in pairs and (first + second).lower() not in words
        return f"{first}{'-' if compound else SOFT_HYPHEN}{second}"

    return [_BROKEN.sub(kept, t) if SOFT_HYPHEN in t else t for t in texts]
