"""A document's sections (ingest.pdf.sections): headings from its outline when it has one, else
from its layout (ingest.pdf.headings: type size and weight, numbering), on a report made here and
on real PDFs of the corpus (the 117-page thesis with its bookmarks set aside, the two-column
LaTeX sample); every page and chunk knows its section paths, and a library keeps them."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from ingest.pdf.chunking import chunk_pages
from ingest.pdf.headings import without_numbering
from ingest.pdf.reader import read_pdf
from ingest.pdf.sections import Sections
from ingest.types import Heading
from tests.ingest.pdfs import PARAGRAPH, make_report

TEXT = PARAGRAPH * 3
HEADER = ("header", "Acme Corp 2023 Annual Report")
REPORT = [
    [
        HEADER,
        ("title", "PART I"),
        ("heading", "Item 1. Business"),
        ("text", TEXT),
        ("heading", "Customers"),
        ("text", TEXT),
    ],
    [HEADER, ("text", TEXT), ("heading", "Item 3. Legal Proceedings"), ("text", TEXT)],
    [
        HEADER,
        ("title", "PART II"),
        ("heading", "Item 8. Financial Statements"),
        ("heading", "Note 13. Commitments"),
        ("text", TEXT),
    ],
]
LEGAL = "PART I > Item 3. Legal Proceedings"


def test_headings_come_from_the_layout_when_there_is_no_outline() -> None:
    read = read_pdf(make_report(REPORT), "report.pdf")
    assert read.outline == () and read.sections.source == "layout"
    assert [h.title for h in read.layout] == [
        "PART I",
        "Item 1. Business",
        "Customers",
        "Item 3. Legal Proceedings",
        "PART II",
        "Item 8. Financial Statements",
        "Note 13. Commitments",
    ]  # the bold running header on every page is none of them
    assert read.sections.paths()[2] == "PART I > Item 1. Business > Customers"  # unnumbered, below Item 1
    assert read.sections.paths()[-1] == "PART II > Item 8. Financial Statements > Note 13. Commitments"


def test_every_page_and_chunk_knows_its_section_paths() -> None:
    read = read_pdf(make_report(REPORT), "report.pdf")
    legal_page = read.pages[1]
    assert legal_page.sections[0] == (0, "PART I > Item 1. Business > Customers")  # carried over
    assert legal_page.sections[1][1] == LEGAL and legal_page.text[legal_page.sections[1][0] :].startswith(
        "Item 3."
    )
    assert (
        read.pages[2].section == "PART II > Item 8. Financial Statements > Note 13. Commitments"
    )  # most of it
    chunks = chunk_pages("doc", read.pages, 400, 60)
    across = [c for c in chunks if len(c.sections) > 1 and c.sections[-1] == LEGAL]
    assert across and "Item 3. Legal Proceedings" in across[0].text  # where the section begins
    after = [c for c in chunks if c.first.page_index == 1 and c.first.char_start > legal_page.sections[1][0]]
    assert after and all(c.sections == (LEGAL,) for c in after)


def test_the_outline_is_the_documents_own_word_when_it_has_one() -> None:
    read = read_pdf(make_report(REPORT, outline=True), "report.pdf")
    assert read.sections.source == "outline"
    assert [h.level for h in read.outline] == [1, 2, 2, 2, 1, 2, 2]
    legal = next(h for h in read.outline if h.title.startswith("Item 3."))
    assert read.pages[1].text[legal.char_start :].startswith("Item 3. Legal Proceedings")


def test_bookmarks_without_the_printed_numbering_start_where_their_titles_are_printed() -> None:
    paper = [
        [
            ("title", "4 Evaluation Metrics"),
            ("text", PARAGRAPH),
            ("heading", "4.1 Text Evaluation"),
            ("text", PARAGRAPH),
            ("heading", "4.2 Citation Evaluation"),
            ("text", PARAGRAPH),
        ],
        [("text", PARAGRAPH), ("heading", "4.3 Alignment"), ("text", PARAGRAPH)],
    ]
    unnumbered = {
        title: title.split(" ", 1)[1] for blocks in paper for kind, title in blocks if kind != "text"
    }
    read = read_pdf(make_report(paper, outline=True, bookmarks=unnumbered), "paper.pdf")
    assert [h.title for h in read.outline] == list(unnumbered)  # the numbering as printed
    first = read.pages[0]
    assert [path for _, path in first.sections] == [
        "4 Evaluation Metrics",
        "4 Evaluation Metrics > 4.1 Text Evaluation",
        "4 Evaluation Metrics > 4.2 Citation Evaluation",
    ]  # each where its title is printed, none lost at the page's top
    assert all(first.text[start:].startswith(path.split(" > ")[-1]) for start, path in first.sections)


def test_a_bookmark_anchored_at_the_foot_of_the_page_before_its_heading_starts_at_the_heading() -> None:
    paper = [
        [("title", "A Appendix"), ("heading", "A.1 Data"), ("text", PARAGRAPH)],
        [("heading", "A.2 Model"), ("text", PARAGRAPH)],
    ]
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(make_report(paper))))
    top = writer.add_outline_item(title="Appendix", page_number=0)
    for title in ("Data", "Model", "Training"):  # "Model" is printed on the next page; "Training" nowhere
        writer.add_outline_item(title=title, page_number=0, parent=top)
    out = io.BytesIO()
    writer.write(out)
    read = read_pdf(out.getvalue(), "paper.pdf")
    assert [(h.title, h.page_index) for h in read.outline] == [
        ("A Appendix", 0),
        ("A.1 Data", 0),
        ("A.2 Model", 1),
        ("Training", 0),
    ]
    model = read.outline[2]
    assert read.pages[1].text[model.char_start :].startswith("A.2 Model")


@pytest.mark.parametrize("bookmark", ["Note 1. Goodwill and Other", "Note 1"])
def test_a_bookmark_finds_its_title_run_together_by_the_text_layer_and_never_a_longer_number(
    bookmark: str,
) -> None:
    report = [[("heading", "Note 13. Leases"), ("text", PARAGRAPH), ("heading", "NOTE 1. GOODWILLAND OTHER")]]
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(make_report(report))))
    writer.add_outline_item(title=bookmark, page_number=0)
    out = io.BytesIO()
    writer.write(out)
    read = read_pdf(out.getvalue(), "report.pdf")
    (note,) = read.outline
    assert read.pages[0].text[note.char_start :].startswith("NOTE 1. GOODWILLAND")


def test_a_title_wrapped_over_two_lines_is_one_heading_and_two_short_ones_are_two() -> None:
    long_title = (
        "Management's Discussion and Analysis of Financial Condition and Results of Operations Overview"
    )
    read = read_pdf(
        make_report(
            [[("title", long_title), ("heading", "PART II"), ("heading", "Item 5. Market"), ("text", TEXT)]]
        ),
        "wrapped.pdf",
    )
    assert [h.title for h in read.layout] == [long_title, "PART II", "Item 5. Market"]


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _recovered(bookmark: Heading, found: list[Heading]) -> bool:
    """A bookmark is recovered by a heading on its page whose words hold its words or the other way
    round (a chapter's number may be in one and not the other), at least half as many of them."""
    mark = _words(bookmark.title)
    return any(
        h.page_index == bookmark.page_index
        and (mark in _words(h.title) or _words(h.title) in mark)
        and len(_words(h.title)) >= 0.5 * len(mark)
        for h in found
    )


@pytest.mark.corpus
def test_the_layout_recovers_the_thesis_chapters_its_bookmarks_name(corpus: Path) -> None:
    """The 117-page thesis has an outline; set aside, the layout alone finds 34 of its 35 bookmarked
    chapter and section titles (the index, "Stichwortverzeichnis", is set in two columns of its own)."""
    path = corpus / "sample-files" / "009-pdflatex-geotopo" / "GeoTopo-komprimiert.pdf"
    read = read_pdf(path.read_bytes(), path.name)
    assert len(read.outline) == 35 and read.sections.source == "outline"
    recall = sum(_recovered(b, list(read.layout)) for b in read.outline) / len(read.outline)
    assert recall >= 0.95
    paths = Sections(read.layout, "layout").paths()
    assert "1 Topologische Grundbegriffe > 1.1 Topologische Räume" in paths  # the numbering nests them
    assert not any("TOPOLOGISCHE RÄUME" in p for p in paths)  # the running head of every page


@pytest.mark.corpus
def test_the_two_column_sample_has_its_title_and_abstract_and_no_heading_in_its_columns(corpus: Path) -> None:
    path = corpus / "sample-files" / "026-latex-multicolumn" / "multicolumn.pdf"
    read = read_pdf(path.read_bytes(), path.name)
    titles = [h.title for h in read.layout]
    assert {"Two-Column Document with Lorem Ipsum", "Abstract"} <= set(titles)
    assert not [h for h in read.layout if h.page_index == 1]  # a page of both columns' running text
    assert read.pages[1].section == "Two-Column Document with Lorem Ipsum > Abstract"


@pytest.mark.parametrize(
    ("title", "words"),
    [
        ("Item 3. Legal Proceedings", "Legal Proceedings"),
        ("Item 1A. Risk Factors", "Risk Factors"),
        ("NOTE 3 \u2013 INFORMATION ON BUSINESS SEGMENTS", "INFORMATION ON BUSINESS SEGMENTS"),
        ("PART II", ""),
        ("2.1 Related Work", "Related Work"),
        ("Customers", "Customers"),
    ],
)
def test_a_title_without_its_numbering(title: str, words: str) -> None:
    assert without_numbering(title) == words
