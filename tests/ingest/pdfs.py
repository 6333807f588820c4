"""Small real PDFs the ingestion tests make for themselves (fpdf2, pypdf's writer, Pillow)."""

from __future__ import annotations

import io

from fpdf import FPDF
from PIL import Image
from pypdf import PdfReader, PdfWriter


def make_pdf(pages: list[str], title: str | None = None) -> bytes:
    """A text PDF, one string per page (core Helvetica: latin-1 text only)."""
    pdf = FPDF(format="A4")
    pdf.set_font("Helvetica", size=11)
    if title:
        pdf.set_title(title)
    for text in pages:
        pdf.add_page()
        if text:
            pdf.multi_cell(0, 6, text)
    return bytes(pdf.output())


def make_image_pdf(pages: int = 2) -> bytes:
    """Pages that carry only a picture: no text layer at all."""
    pdf = FPDF(format="A4")
    for n in range(pages):
        pdf.add_page()
        picture = Image.new("RGB", (200, 100), (40 * n, 120, 200))
        pdf.image(picture, x=20, y=20, w=100)
    return bytes(pdf.output())


def rewrite(
    data: bytes, *, user_password: str | None = None, algorithm: str = "AES-128", roman_front_pages: int = 0
) -> bytes:
    """The same PDF through pypdf's writer: encrypted and/or with printed page labels."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    if roman_front_pages:
        writer.set_page_label(0, roman_front_pages - 1, style="/r")
        writer.set_page_label(roman_front_pages, len(writer.pages) - 1, style="/D", start=1)
    if user_password is not None:
        writer.encrypt(user_password=user_password, owner_password="owner-secret", algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


PARAGRAPH = (
    "The lighthouse keeper logged the weather every four hours. Fog rolled in from the north "
    "on most autumn mornings, and the foghorn sounded twice a minute until it lifted. "
)


def long_pages(count: int, words: str = PARAGRAPH, repeat: int = 8) -> list[str]:
    """Pages with distinct, numbered text long enough to need several chunks."""
    return [f"Page {n} begins. " + (words * repeat) + f"Page {n} ends." for n in range(count)]
