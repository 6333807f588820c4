"""Text layer: usable or mojibake. Scores every page of the corpus (real text layers) and of the
same PDFs with their fonts' character maps broken in the ways real files break them (a missing
ToUnicode map; a map to the glyph numbers themselves; to ASCII punctuation; to accented capitals;
to CJK ideographs; to the private use area), and says how ingest.pdf.text_layer's rule splits them.

Real pages: squad-dev, filings-dev and sample-files, through ingest.pdf.page_text.page_text (what ingest
reads). Broken pages: the squad-dev PDFs (reportlab TrueType subsets) and a DejaVu Type0 (CID)
text made with fpdf2, each with every ToUnicode map replaced.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import CORPUS

BREAKS: dict[str, Callable[[int], int] | None] = {
    "no ToUnicode map": None,
    "map to glyph numbers": lambda c: c,
    "map into ASCII punctuation": lambda c: 0x21 + c % 31,
    "map into accented capitals": lambda c: 0xC0 + c % 60,
    "map into CJK ideographs": lambda c: 0x4E00 + c * 7,
    "map into private use": lambda c: 0xE000 + c,
}
CID_TEXT = (
    "The Normans were the people who in the 10th and 11th centuries gave their name to Normandy, "
    "a region in France. They were descended from Norse raiders and pirates from Denmark, Iceland "
    "and Norway who, under their leader Rollo, agreed to swear fealty to King Charles III. "
) * 6
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def real_pages(corpus: Path = CORPUS, quick: bool = False) -> dict[str, list[str]]:
    """Page texts of the corpus's PDFs by group (unreadable and encrypted files are skipped)."""
    groups = {
        "squad-dev": sorted((corpus / "squad-dev" / "pdfs").glob("*.pdf")),
        "filings-dev": sorted((corpus / "filings-dev" / "pdfs").glob("*.pdf")),
        "sample-files": sorted((corpus / "sample-files").rglob("*.pdf")),
    }
    if quick:
        groups = {k: v[:1] for k, v in groups.items()}
    return {name: [t for p in paths for t in _texts(p.read_bytes())] for name, paths in groups.items()}


def broken_pages(corpus: Path = CORPUS, quick: bool = False) -> dict[str, list[str]]:
    """Page texts of the squad-dev PDFs and a CID-font PDF with their maps broken, by kind of break."""
    sources = [p.read_bytes() for p in sorted((corpus / "squad-dev" / "pdfs").glob("*.pdf"))]
    if DEJAVU.exists():
        sources.append(_cid_pdf())
    if quick:
        sources = sources[-1:]
    return {
        name: [t for data in sources for t in _texts(break_maps(data, mapping))]
        for name, mapping in BREAKS.items()
    }


def break_maps(data: bytes, mapping: Callable[[int], int] | None) -> bytes:
    """The PDF with every font's ToUnicode map dropped (None) or replaced by code -> mapping(code)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, NameObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    for page in writer.pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        for font in (f.get_object() for f in fonts.values()):
            if "/ToUnicode" not in font:
                continue
            if mapping is None:
                del font[NameObject("/ToUnicode")]
                continue
            wide = font.get("/Subtype") == "/Type0"
            stream = DecodedStreamObject()
            stream.set_data(_cmap(mapping, wide))
            font[NameObject("/ToUnicode")] = writer._add_object(stream)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _cmap(mapping: Callable[[int], int], wide: bool) -> bytes:
    codes = range(1, 1000 if wide else 256)
    digits = 4 if wide else 2
    space = "<0000> <FFFF>" if wide else "<00> <FF>"
    lines = [
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Broken def",
        f"/CMapType 2 def 1 begincodespacerange {space} endcodespacerange",
    ]
    for start in range(0, len(codes), 100):  # at most 100 entries per block
        block = codes[start : start + 100]
        lines.append(f"{len(block)} beginbfchar")
        lines += [f"<{c:0{digits}X}> <{mapping(c):04X}>" for c in block]
        lines.append("endbfchar")
    lines.append("endcmap CMapName currentdict /CMap defineresource pop end end")
    return "\n".join(lines).encode("ascii")


def _cid_pdf() -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_font("DejaVu", fname=str(DEJAVU))
    pdf.set_font("DejaVu", size=11)
    for _ in range(2):
        pdf.add_page()
        pdf.multi_cell(0, 6, CID_TEXT)
    return bytes(pdf.output())


def _texts(data: bytes) -> list[str]:
    import pypdfium2 as pdfium

    from ingest.pdf.page_text import page_text

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError:
        return []  # encrypted or unreadable: not a text layer to judge
    try:
        return [page_text(pdf, i) for i in range(len(pdf))]
    finally:
        pdf.close()


def summarise(texts: list[str]) -> dict[str, Any]:
    """How many pages, how many judged (enough text), how many the rule calls unusable, and the
    lowest (or highest) value of each feature among judged pages."""
    from ingest.pdf.text_layer import MIN_CHARS_TO_JUDGE, score, usable

    scores = [score(t) for t in texts]
    judged = [s for s in scores if s.visible >= MIN_CHARS_TO_JUDGE]
    long = [s for t, s in zip(texts, scores) if len(t) >= MIN_CHARS_TO_JUDGE and s.visible]
    return {
        "dense_min": round(min((s.dense for s in long), default=1.0), 3),
        "dense_max": round(max((s.dense for s in long), default=0.0), 3),
        "pages": len(texts),
        "judged": len(judged),
        "empty": sum(1 for s in scores if s.visible == 0),
        "unusable": sum(1 for t in texts if not usable(t)),
        "readable_min": round(min((s.readable for s in judged), default=1.0), 3),
        "alnum_min": round(min((s.alnum for s in judged), default=1.0), 3),
        "odd_case_max": round(max((s.odd_case for s in judged), default=0.0), 3),
        "readable_max": round(max((s.readable for s in judged), default=0.0), 3),
        "alnum_max": round(max((s.alnum for s in judged), default=0.0), 3),
        "odd_case_min": round(min((s.odd_case for s in judged), default=0.0), 3),
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Score the real and the broken pages; the markdown table is the README section."""
    real = {k: summarise(v) for k, v in real_pages(quick=quick).items()}
    broken = {k: summarise(v) for k, v in broken_pages(quick=quick).items()}
    return {"real": real, "broken": broken, "markdown": render(real, broken)}


def render(real: dict[str, Any], broken: dict[str, Any]) -> str:
    """Two tables: real pages (lowest readable/alnum share, highest odd-case share) and broken ones."""
    from ingest.pdf.text_layer import (
        MAX_ODD_CASE_SHARE,
        MIN_ALNUM_SHARE,
        MIN_READABLE_SHARE,
        MIN_VISIBLE_SHARE,
    )

    head = "| pages | judged (40+ visible chars) | empty | unusable by the rule |"
    lines = [
        f"Rule (`ingest/pdf/text_layer.py`): a page is read by OCR when its text layer is empty, when "
        f"fewer than {MIN_VISIBLE_SHARE:.0%} of its 40 or more characters are visible, or when "
        f"a page with 40 or more visible characters has a readable share below {MIN_READABLE_SHARE}, a "
        f"letter-and-digit share below {MIN_ALNUM_SHARE}, or more than {MAX_ODD_CASE_SHARE:.0%} of its "
        'words change case inside the word (letters+digits do not count dot leaders such as "....").',
        "",
        f"| real text layers {head} lowest visible | lowest readable | lowest letters+digits | "
        "highest odd-case |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s in real.items():
        lines.append(
            f"| {name} | {s['pages']} | {s['judged']} | {s['empty']} | {s['unusable']} | "
            f"{s['dense_min']} | {s['readable_min']} | {s['alnum_min']} | {s['odd_case_max']} |"
        )
    lines += [
        "",
        f"| broken font maps {head} highest visible | highest readable | highest letters+digits | "
        "lowest odd-case |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s in broken.items():
        lines.append(
            f"| {name} | {s['pages']} | {s['judged']} | {s['empty']} | {s['unusable']} | "
            f"{s['dense_max']} | {s['readable_max']} | {s['alnum_max']} | {s['odd_case_min']} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(run()["markdown"])
