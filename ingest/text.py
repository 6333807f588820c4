"""Valid text from whatever a PDF holds, and the one form search and embeddings compare.

Every string the reader takes from a PDF (a page's text layer, OCR, the outline, the title) is made
valid Unicode before anything stores, embeds or searches it. pdfium hands a character above U+FFFF
(a mathematical italic x, U+1D465, as LaTeX papers print variables) as two character indexes, one per
UTF-16 surrogate; Python keeps those as two lone surrogates, which SQLite and tokenizers refuse.

- ``valid_in_place``: for page text, whose character indexes are pdfium's (highlighting depends on
  it): a surrogate pair becomes its character followed by a soft hyphen (invisible, and dropped
  wherever a hyphenated word is joined, as ingest already marks line-end hyphens), so the length
  stays the same; a lone surrogate becomes U+FFFD.
- ``valid_text``: for any other string (titles, outline entries): pairs joined, lone surrogates
  replaced, control characters but newline and tab made spaces.
- ``search_form``: what lexical search and the embedding model see of a text: compatibility
  normalisation (NFKC), so a question typed "x" finds the math italic x (U+1D465), "fi" finds the ligature U+FB01 and a
  full-width digit its digit. The panel shows the text as printed.
"""

from __future__ import annotations

import re
import unicodedata

SOFT_HYPHEN = "\u00ad"
REPLACEMENT = "\ufffd"
_PAIR = re.compile("([\ud800-\udbff])([\udc00-\udfff])")
_LONE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _joined(pair: re.Match[str]) -> str:
    high, low = (ord(c) for c in pair.groups())
    return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))


def valid_in_place(text: str) -> str:
    """``text`` as valid Unicode of the same length: each surrogate pair its character and a soft
    hyphen, each lone surrogate U+FFFD (for text whose character indexes must not move)."""
    if not _LONE.search(text):
        return text
    text = _PAIR.sub(lambda m: _joined(m) + SOFT_HYPHEN, text)
    return _LONE.sub(REPLACEMENT, text)


def valid_text(text: str) -> str:
    """``text`` as valid Unicode: surrogate pairs joined, lone surrogates U+FFFD, control
    characters (but newline and tab) spaces."""
    if _LONE.search(text):
        text = _LONE.sub(REPLACEMENT, _PAIR.sub(_joined, text))
    return _CONTROL.sub(" ", text)


def search_form(text: str) -> str:
    """What search and embeddings compare: NFKC (compatibility) normalisation of valid text."""
    return unicodedata.normalize("NFKC", text)


def first_invalid(texts: list[str]) -> int | None:
    """The index of the first text that is not valid Unicode (it cannot be encoded), or None."""
    for n, text in enumerate(texts):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return n
    return None
