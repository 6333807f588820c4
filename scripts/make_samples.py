"""Render the sample documents in samples/src/*.txt to samples/*.pdf (fpdf2, reproducible bytes).

Source format: ``key: value`` header lines (title, author, and optionally ``front:`` naming the
first section, which then gets its own page labelled i), a blank line, then sections that start
with ``# Heading`` and paragraphs separated by blank lines. Run: ``python scripts/make_samples.py``.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

from fpdf import FPDF

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
FIXED_DATE = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)  # same bytes on every run


def parse(text: str) -> tuple[dict[str, str], list[tuple[str, list[str]]]]:
    """Header fields and (heading, paragraphs) sections."""
    head, _, body = text.partition("\n\n")
    fields = dict(line.split(": ", 1) for line in head.splitlines())
    sections: list[tuple[str, list[str]]] = []
    for block in body.split("\n\n"):
        block = block.strip()
        if block.startswith("# "):
            sections.append((block[2:].strip(), []))
        elif block:
            sections[-1][1].append(" ".join(block.split()))
    return fields, sections


def render(fields: dict[str, str], sections: list[tuple[str, list[str]]]) -> bytes:
    """A4 PDF: title, then sections; the ``front`` section alone on a page labelled i."""
    pdf = FPDF(format="A4")
    pdf.set_title(fields["title"])
    pdf.set_author(fields["author"])
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_margins(25, 25, 25)
    pdf.set_auto_page_break(True, margin=25)
    front = fields.get("front")
    pdf.add_page(label_style="r" if front else "D")
    pdf.set_font("Helvetica", "B", 18)
    pdf.multi_cell(0, 9, fields["title"])
    pdf.ln(4)
    for heading, paragraphs in sections:
        if front and heading != front:
            pdf.add_page(label_style="D", label_start=1)
            front = None
        pdf.set_font("Helvetica", "B", 13)
        pdf.multi_cell(0, 7, heading)
        pdf.ln(2)
        pdf.set_font("Helvetica", size=12)
        for paragraph in paragraphs:
            pdf.multi_cell(0, 6.5, paragraph)
            pdf.ln(3)
        pdf.ln(2)
    return bytes(pdf.output())


def main() -> int:
    """Render every source; print what was written."""
    for source in sorted((SAMPLES / "src").glob("*.txt")):
        target = SAMPLES / f"{source.stem}.pdf"
        target.write_bytes(render(*parse(source.read_text(encoding="utf-8"))))
        print(f"wrote {target.relative_to(SAMPLES.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
