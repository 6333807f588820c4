"""A long PDF read by the helper processes (ingest.pdf.page_pool) gives what reading it in one process
gives: the same pages, labels, text, warnings and unlocked copy; progress in page order; and a
helper that is busy or dies leaves the file read in the asking process."""

from __future__ import annotations

import re

import pytest

from ingest.pdf import page_pool
from ingest.pdf.reader import read_pdf
from tests.ingest.pdfs import long_pages, make_pdf, rewrite

PAGES = page_pool.PARALLEL_MIN_PAGES + 13
LONG_PDF = rewrite(make_pdf([*long_pages(PAGES - 3, repeat=2), "", "Last page.", ""]), roman_front_pages=3)

pytestmark = pytest.mark.skipif(
    page_pool.helpers() < 2, reason="one core: long files are read in one process"
)


def _in_one_process(data: bytes, **kwargs):
    limit = page_pool.PARALLEL_MIN_PAGES
    page_pool.PARALLEL_MIN_PAGES = 10**9
    try:
        return read_pdf(data, "long.pdf", **kwargs)
    finally:
        page_pool.PARALLEL_MIN_PAGES = limit


def test_helpers_read_what_one_process_reads() -> None:
    seen: list[tuple[int, int]] = []
    pooled = read_pdf(LONG_PDF, "long.pdf", progress=lambda done, total: seen.append((done, total)))
    assert page_pool._helpers, "the helpers read it"
    assert pooled == _in_one_process(LONG_PDF)
    assert [p.label for p in pooled.pages[:4]] == ["i", "ii", "iii", "1"] and len(pooled.pages) == PAGES
    assert pooled.warnings == (
        f"2 of {PAGES} pages have no text (p. {PAGES - 5}, {PAGES - 3})",
    )  # labels after i-iii
    assert seen[0] == (0, PAGES) and seen[-1] == (PAGES, PAGES)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and len(seen) > 2


def test_a_password_reaches_the_helpers() -> None:
    locked = rewrite(LONG_PDF, user_password="s3cret")
    page_pool._stop_helpers()
    pooled, alone = (
        read_pdf(locked, "long.pdf", password="s3cret"),
        _in_one_process(locked, password="s3cret"),
    )
    assert page_pool._helpers and pooled.pages == alone.pages and pooled.warnings == alone.warnings
    assert _without_id(pooled.unlocked) == _without_id(alone.unlocked)  # pdfium makes a new /ID each save


def test_an_empty_password_file_goes_to_the_helpers() -> None:
    locked = rewrite(LONG_PDF, user_password="")
    page_pool._stop_helpers()
    pooled = read_pdf(locked, "long.pdf")
    assert page_pool._helpers and pooled == _in_one_process(locked)


def _without_id(data: bytes | None) -> bytes:
    assert data is not None
    return re.sub(rb"/ID\s*\[[^\]]*\]", b"", data)


def test_helpers_that_die_leave_the_file_to_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    page_pool._stop_helpers()
    monkeypatch.setattr(page_pool, "_SERVE", "import sys; sys.exit(3)")
    assert page_pool.read_pages(LONG_PDF, None, PAGES, lambda done: None) is None
    assert not page_pool._helpers, "the dead helpers are gone, new ones start next time"
    assert read_pdf(LONG_PDF, "long.pdf") == _in_one_process(LONG_PDF)


def test_busy_helpers_leave_the_file_to_this_process() -> None:
    with page_pool._busy:  # another file is being read
        assert page_pool.read_pages(LONG_PDF, None, PAGES, lambda done: None) is None
        assert read_pdf(LONG_PDF, "long.pdf") == _in_one_process(LONG_PDF)
