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


Block = tuple[str, str]  # ("title" | "heading" | "text" | "header", its words)


def make_report(
    pages: list[list[Block]], *, outline: bool = False, bookmarks: dict[str, str] | None = None
) -> bytes:
    """A report laid out as filings are: titles (bold, 14 pt) and headings (bold, 11 pt) above
    running text (11 pt), an optional running header on every page, and, with ``outline``, the
    titles and headings as bookmarks too (title level 0, heading level 1), each named as printed
    or as ``bookmarks`` names it (a paper's bookmarks often leave out the printed numbering)."""
    pdf = FPDF(format="A4")
    for blocks in pages:
        pdf.add_page()
        for kind, text in blocks:
            if kind == "header":
                pdf.set_font("Helvetica", "B", 8)
                pdf.cell(0, 5, text, new_x="LMARGIN", new_y="NEXT")
                continue
            if kind in ("title", "heading") and outline:
                pdf.start_section((bookmarks or {}).get(text, text), level=0 if kind == "title" else 1)
            style, size = {"title": ("B", 14), "heading": ("B", 11), "text": ("", 11)}[kind]
            pdf.set_font("Helvetica", style, size)
            pdf.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
    return bytes(pdf.output())


def make_math_pdf(pages: list[str], math: dict[str, str]) -> bytes:
    """A text PDF whose font maps some letters to other characters (``{"x": "\\U0001d465"}``) in its
    /ToUnicode map, as LaTeX papers map their math italic glyphs: pdfium then reads each such
    letter as the mapped character (above U+FFFF: two character indexes), while the page shows
    the core font's letter. No font with math glyphs is needed."""
    from pypdf.generic import DecodedStreamObject, NameObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(make_pdf(pages))))
    entries = [
        f"<{code:02X}> <{math.get(chr(code), chr(code)).encode('utf-16-be').hex().upper()}>"
        for code in range(0x20, 0x7F)
    ]
    cmap = (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CMapName /Footnote-Test-Math def /CMapType 2 def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        f"{len(entries)} beginbfchar\n" + "\n".join(entries) + "\nendbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end\n"
    )
    stream = DecodedStreamObject()
    stream.set_data(cmap.encode("ascii"))
    ref = writer._add_object(stream)
    for page in writer.pages:
        for font in page["/Resources"]["/Font"].values():
            font.get_object()[NameObject("/ToUnicode")] = ref
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
