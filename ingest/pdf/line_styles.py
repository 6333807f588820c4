"""The type of each line of a page, read while the page's text is read (ingest.pdf.page_text, in
the page pool's helpers too), so that a document's headings (ingest.pdf.headings) cost no second
pass over the file: per line, the size, weight, slant and typeface of its first letter, whether
its middle and last letters share them, and where it sits.

Sizes are as drawn: the font's size scaled by the character's matrix (some PDFs set 416-point type
and scale it down by a fiftieth, by a different factor on each page). Bold and italic are read
from the font's name and its descriptor's flags (pdfium's weight is 0 or nonsense in many filings).
"""

from __future__ import annotations

import ctypes
import re
import zlib
from typing import Any

import pypdfium2.raw as pdfium_c

LONG_LINE = 160  # characters: a longer line is running text, and only its first letter is asked
BOLD_BIT, ITALIC_BIT, UNIFORM_BIT = 1, 2, 4
_BOLD = re.compile(r"bold|black|heavy|demi|bx\d|[-,]b$", re.IGNORECASE)
_ITALIC = re.compile(r"italic|oblique|[-,]it?$", re.IGNORECASE)
_FORCE_BOLD, _ITALIC_FLAG = 1 << 18, 1 << 6  # PDF font descriptor flags
_LETTER = re.compile(r"[^\W\d_]")
_FONT_BUFFER = 96


class _Fonts:
    """The type of the characters looked at, each font's name and flags read into (bold, italic) once."""

    def __init__(self) -> None:
        self.buffer = ctypes.create_string_buffer(_FONT_BUFFER)
        self.flags = ctypes.c_int(0)
        self.known: dict[tuple[bytes, int], tuple[int, int]] = {}
        self.matrix = pdfium_c.FS_MATRIX()

    def style(self, textpage: Any, index: int) -> tuple[float, int, int]:
        """(size as drawn, rounded to a half point; bold and italic bits; typeface) of one character."""
        size = pdfium_c.FPDFText_GetFontSize(textpage, index)
        if pdfium_c.FPDFText_GetMatrix(textpage, index, self.matrix):
            m = self.matrix
            size *= abs(m.a * m.d - m.b * m.c) ** 0.5
        pdfium_c.FPDFText_GetFontInfo(textpage, index, self.buffer, _FONT_BUFFER, ctypes.byref(self.flags))
        key = (self.buffer.value, self.flags.value)
        found = self.known.get(key)
        if found is None:
            name = key[0].decode("latin-1").split("+")[-1]
            bold = bool(_BOLD.search(name)) or bool(key[1] & _FORCE_BOLD)
            italic = bool(_ITALIC.search(name)) or bool(key[1] & _ITALIC_FLAG)
            bits = (BOLD_BIT if bold else 0) | (ITALIC_BIT if italic else 0)
            found = self.known[key] = (bits, zlib.crc32(name.encode()) & 0xFFFF)
        return round(size * 2) / 2, found[0], found[1]


def line_rows(textpage: Any, text: str) -> list[list[float]]:
    """[start, size, bits, letters, top, right, font] for each line of a page's text that holds
    letters: the style of its first letter (a long line's) or of all of its first, middle and last
    letters (the uniform bit says they agree), then the top of its first letter and the right edge
    of its last (0 for a long line). Plain numbers, so the page pool's helpers send them as JSON."""
    fonts, rows, pos = _Fonts(), [], 0
    for raw in text.split("\n"):
        first = _LETTER.search(raw)
        if first is not None:
            letters = (pos + first.start(), pos + _middle_letter(raw, first.start()), pos + _last_letter(raw))
            start = pos + len(raw) - len(raw.lstrip())
            size, bits, font = fonts.style(textpage, letters[0])
            top = right = 0.0
            short = len(raw.strip()) <= LONG_LINE and _could_head(raw)
            if short and fonts.style(textpage, letters[1]) == (size, bits, font) == fonts.style(
                textpage, letters[2]
            ):
                bits |= UNIFORM_BIT
                top, right = _box(textpage, letters[0])[3], _box(textpage, letters[2])[1]
            rows.append([start, size, bits, sum(map(str.isalpha, raw)), top, right, font])
        pos += len(raw) + 1
    return rows


def _last_letter(raw: str) -> int:
    for at in range(len(raw) - 1, -1, -1):
        if raw[at].isalpha():
            return at
    return 0  # not reached: the caller found a letter


def _middle_letter(raw: str, first: int) -> int:
    found = _LETTER.search(raw, (first + len(raw)) // 2)
    return found.start() if found is not None else first


def _box(textpage: Any, index: int) -> tuple[float, float, float, float]:
    """(left, right, bottom, top) of one character, to a tenth of a point."""
    box = [ctypes.c_double() for _ in range(4)]
    pdfium_c.FPDFText_GetCharBox(textpage, index, *box)
    return tuple(round(v.value, 1) for v in box)  # type: ignore[return-value]


def _could_head(raw: str) -> bool:
    """Whether a line's words could be (part of) a heading: cheap, before its type is asked."""
    line = raw.strip()
    return "$" not in line and "%" not in line and not line.endswith(":")
