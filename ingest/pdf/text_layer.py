"""Whether a page's text layer can be used as it is, or the page must be read by OCR instead.

A text layer is unusable when it is empty or when it is mojibake: text extracted without error
from fonts whose character maps are missing or wrong (NOTES.md: some CID-font PDFs). Mojibake
shows in four measured ways (``bench/text_layer.py`` measures them on every page of the
corpus and on the same PDFs with their fonts' maps broken; bench/README.md has the figures):
- hardly anything but blanks: glyph numbers read as control codes (``ingest.pdf.reader`` turns
  those into spaces);
- few readable characters: private-use code points, U+FFFD;
- few letters and digits (dot leaders such as "....." not counted): glyph numbers mapped into
  ASCII punctuation;
- words whose case changes in the middle ("àÄÅÆ"): glyph numbers mapped into accented capitals.
Mojibake into another script's letters (CJK ideographs for Latin text) is not caught: nothing in
the characters alone tells it from real text in that script.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

from ingest.text import SOFT_HYPHEN

MIN_CHARS_TO_JUDGE = 40  # fewer visible characters than this: too little to call mojibake
# The thresholds sit between the lowest real page and the highest broken one (bench/README.md,
# "Text layer: usable or mojibake"): real pages of squad-dev, filings-dev and sample-files
# against the same PDFs with broken font maps.
MIN_VISIBLE_SHARE = 0.2
MIN_READABLE_SHARE = 0.6
MIN_ALNUM_SHARE = 0.45
MAX_ODD_CASE_SHARE = 0.2
_LEADER = re.compile(r"([^\w\s])\1{2,}")  # a run of three or more of one punctuation mark
# Words: runs between blanks, hyphens, dashes, slashes, apostrophes and full stops ("Wimm-Bill-Dann"
# is three words), of which only the letters count (a multiplication sign inside mojibake does not
# split it).
_SPLIT = re.compile(r"[\s\-\u2010-\u2014/'\u2019.]+")


@dataclass(frozen=True)
class TextLayerScore:
    """What the judgement is made of: visible characters and four shares."""

    visible: int
    dense: float  # visible characters among all (blanks and line breaks included)
    readable: float  # letters, digits, punctuation and symbols (not U+FFFD, private use or controls)
    alnum: float  # letters and digits
    odd_case: float  # share of words of three letters or more whose case changes inside the word


def score(text: str) -> TextLayerScore:
    """The features of one page's text."""
    # Counted per distinct character (a page has thousands of characters, a hundred distinct):
    # the same sums as per character, without a Python step for each one.
    counts = [(c, k) for c, k in Counter(text).items() if not c.isspace() and c != SOFT_HYPHEN]
    if not counts:
        return TextLayerScore(0, 0.0, 0.0, 0.0, 0.0)
    classes = [(c, k, unicodedata.category(c)[0]) for c, k in counts]
    readable = sum(k for c, k, cls in classes if cls in "LNPS" and c != "\ufffd")
    alnum = sum(k for _, k, cls in classes if cls in "LN")
    leaders = sum(len(m.group(0)) for m in _LEADER.finditer(text))
    words = [w for w in map(_letters, _SPLIT.split(text)) if len(w) >= 3]
    odd = sum(1 for w in words if _odd_case(w))
    n = sum(k for _, k in counts)
    return TextLayerScore(
        n,
        n / len(text),
        readable / n,
        alnum / max(1, n - leaders),
        odd / len(words) if words else 0.0,
    )


def usable(text: str) -> bool:
    """False for an empty page and for mojibake (see the module docstring); short text passes."""
    found = score(text)
    if found.visible == 0:
        return False
    if len(text) >= MIN_CHARS_TO_JUDGE and found.dense < MIN_VISIBLE_SHARE:
        return False
    if found.visible < MIN_CHARS_TO_JUDGE:
        return True
    return (
        found.readable >= MIN_READABLE_SHARE
        and found.alnum >= MIN_ALNUM_SHARE
        and found.odd_case <= MAX_ODD_CASE_SHARE
    )


def _letters(token: str) -> str:
    """The token's letters (most tokens are all letters: returned as they are)."""
    return token if token.isalpha() else "".join(filter(str.isalpha, token))


def _odd_case(word: str) -> bool:
    """Neither all lower, all upper, nor one capital then lower case ("Word"), nor camel case with
    a single inner capital ("iPhone", "McDonald")."""
    if word.islower() or word.isupper() or (word[0].isupper() and word[1:].islower()):
        return False
    changes = sum(1 for a, b in pairwise(word) if a.islower() and b.isupper())
    return changes > 1 or (changes == 1 and word[-1].isupper())
