"""A page range cut from a PDF keeps those pages, in order, with their text."""

from __future__ import annotations

import io

import pypdf
import pytest

from ingest.pdf.excerpt import excerpt_pages
from tests.rag.conftest import make_pdf

PAGES = ["page one alpha", "page two beta", "page three gamma", "page four delta"]


def _texts(pdf: bytes) -> list[str]:
    return [p.extract_text().strip() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


@pytest.mark.parametrize(
    ("first", "last", "expected"),
    [
        (1, 2, PAGES[1:3]),
        (3, 3, PAGES[3:]),
        (0, 0, PAGES[:1]),
        (2, 99, PAGES[2:]),
        (7, 9, PAGES[3:]),
        (2, 1, PAGES[2:3]),
    ],
)
def test_excerpt_holds_the_asked_pages(first: int, last: int, expected: list[str]) -> None:
    assert _texts(excerpt_pages(make_pdf(PAGES), first, last)) == expected


def test_not_a_pdf_raises() -> None:
    with pytest.raises(Exception):  # noqa: B017 - pypdfium2's own error type, its message names the cause
        excerpt_pages(b"not a pdf", 0, 0)
