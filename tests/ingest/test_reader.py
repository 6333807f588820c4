"""read_pdf on PDFs made here: text, titles, labels, encryption and every error it raises."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from ingest import errors
from ingest.pdf.page_text import SOFT_HYPHEN
from ingest.pdf.reader import _looks_garbled, read_pdf
from tests.ingest.pdfs import long_pages, make_image_pdf, make_pdf, rewrite

TEXT_PDF = make_pdf(["Fog came in at dawn.", "", "The keeper lit the lamp."], title="Keeper's Log")


def test_reads_text_title_and_labels() -> None:
    doc = read_pdf(TEXT_PDF, "log.pdf")
    assert doc.title == "Keeper's Log"
    assert [p.index for p in doc.pages] == [0, 1, 2]
    assert [p.label for p in doc.pages] == ["1", "2", "3"]
    assert "Fog came in at dawn." in doc.pages[0].text and doc.pages[1].text.strip() == ""
    assert doc.warnings == ("1 of 3 pages have no text (p. 2)",)


def test_progress_knows_the_page_count_from_the_first_report() -> None:
    seen: list[tuple[int, int]] = []
    doc = read_pdf(
        make_pdf(long_pages(5, repeat=1)), "five.pdf", progress=lambda done, total: seen.append((done, total))
    )
    assert len(doc.pages) == 5
    assert seen == [(0, 5), (1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


def test_title_falls_back_to_the_file_name() -> None:
    assert read_pdf(make_pdf(["hello there"]), "notes.pdf").title == "notes.pdf"


def test_printed_page_labels() -> None:
    data = rewrite(make_pdf(long_pages(4, repeat=1)), roman_front_pages=2)
    assert [p.label for p in read_pdf(data, "x.pdf").pages] == ["i", "ii", "1", "2"]


def test_text_is_one_char_per_pdfium_char_index() -> None:
    data = make_pdf(long_pages(2, repeat=3))
    doc = read_pdf(data, "x.pdf")
    pdf = pdfium.PdfDocument(data)
    for page in doc.pages:
        textpage = pdf[page.index].get_textpage()
        assert len(page.text) == textpage.count_chars()
        raw = textpage.get_text_range().replace("\r", " ")
        assert page.text == raw  # same characters, same positions
    assert "\r" not in doc.pages[0].text and SOFT_HYPHEN not in doc.pages[0].text


@pytest.mark.parametrize("algorithm", ["RC4-128", "AES-128", "AES-256"])
def test_empty_user_password_opens_without_asking(algorithm: str) -> None:
    doc = read_pdf(rewrite(TEXT_PDF, user_password="", algorithm=algorithm), "locked.pdf")
    assert "Fog came in" in doc.pages[0].text and doc.unlocked is None


def test_password_missing_wrong_and_right() -> None:
    data = rewrite(TEXT_PDF, user_password="s3cret")
    with pytest.raises(errors.PasswordRequired, match=r"locked\.pdf: is password-protected") as missing:
        read_pdf(data, "locked.pdf")
    assert not missing.value.wrong_password
    with pytest.raises(errors.PasswordRequired, match=r"locked\.pdf: the password is wrong") as wrong:
        read_pdf(data, "locked.pdf", password="guess")
    assert wrong.value.wrong_password
    doc = read_pdf(data, "locked.pdf", password="s3cret")
    assert "Fog came in" in doc.pages[0].text
    # The stored copy needs no password and has the very same text.
    assert doc.unlocked is not None
    assert read_pdf(doc.unlocked, "copy.pdf").pages == doc.pages


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        (b"", errors.EmptyFile, "x.pdf: is empty"),
        (b"   \n", errors.EmptyFile, "x.pdf: is empty"),
        (b"GIF89a not a pdf at all", errors.NotAPdf, "x.pdf: is not a PDF file"),
        (TEXT_PDF[: len(TEXT_PDF) // 3], errors.BrokenPdf, "x.pdf: is damaged or truncated"),
        (b"%PDF-1.7\n" + b"\x00garbage" * 50, errors.BrokenPdf, "x.pdf: is damaged"),
        (
            make_image_pdf(),
            errors.NoTextLayer,
            "x.pdf: has no text layer .scanned or image-only; OCR is not done",
        ),
    ],
    ids=["empty", "blank", "not-a-pdf", "truncated", "garbage", "image-only"],
)
def test_errors_name_the_file(data: bytes, error: type, message: str) -> None:
    with pytest.raises(error, match=message) as caught:
        read_pdf(data, "x.pdf")
    assert caught.value.file_name == "x.pdf" and isinstance(caught.value, errors.IngestError)


def test_size_and_page_limits() -> None:
    with pytest.raises(
        errors.TooLarge, match=r"big.pdf: is over the limit \(0.0 MB, the limit is 0.0 MB\)|big.pdf"
    ):
        read_pdf(TEXT_PDF, "big.pdf", max_bytes=100)
    with pytest.raises(errors.TooLarge, match="3 pages, the limit is 2"):
        read_pdf(TEXT_PDF, "big.pdf", max_pages=2)
    assert len(read_pdf(TEXT_PDF, "ok.pdf", max_bytes=len(TEXT_PDF), max_pages=3).pages) == 3


def test_garbled_text_is_detected() -> None:
    assert _looks_garbled("\ue000\ue001\ue002 " * 30)
    assert _looks_garbled("\ufffd" * 50 + "ab")
    assert not _looks_garbled("Plain words, with numbers 1-2-3 and punctuation. " * 3)
    assert not _looks_garbled("\ue000")  # too short to judge


def test_a_damaged_page_is_logged_and_the_rest_kept(monkeypatch: pytest.MonkeyPatch, caplog) -> None:
    from ingest.pdf import page_text

    real = page_text.page_read

    def flaky(pdf, index: int, **kwargs) -> tuple[str, bool, list]:  # pdfium rarely fails on one page
        if index == 1:
            raise RuntimeError("bad content stream")
        return real(pdf, index, **kwargs)

    monkeypatch.setattr(page_text, "page_read", flaky)
    doc = read_pdf(make_pdf(["first page", "second page", "third page"]), "d.pdf")
    assert [p.text.strip() for p in doc.pages] == ["first page", "", "third page"]
    assert "1 pages could not be read (p. 2)" in doc.warnings
    assert "d.pdf: page 2 unreadable: bad content stream" in caplog.text
