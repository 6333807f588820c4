"""The OCR benchmark's own measures: scans are image-only copies of the same page size, word recall
counts repeats, and the text-layer benchmark's broken font maps really break the text."""

from __future__ import annotations

import pypdfium2 as pdfium

from bench.ocr import recall
from bench.scans import scan_pdf
from bench.text_layer import BREAKS, break_maps, summarise
from tests.ingest.scans import HARBOUR, text_pdf


def test_a_scan_has_the_pages_and_sizes_of_its_source_and_no_text() -> None:
    source = text_pdf(HARBOUR, "Second page.")
    scan = pdfium.PdfDocument(scan_pdf(source, 150))
    original = pdfium.PdfDocument(source)
    assert len(scan) == len(original) == 2
    for i in range(2):
        # the same size to within a pixel at 150 dpi (half a point)
        assert all(abs(a - b) <= 0.5 for a, b in zip(scan[i].get_size(), original[i].get_size()))
        assert scan[i].get_textpage().count_chars() == 0


def test_recall_counts_each_true_word_as_often_as_it_occurs() -> None:
    assert recall("the cat and the dog", "The cat, the dog.") == 0.8  # "and" missing
    assert recall("the the", "the") == 0.5
    assert recall("", "anything") == 1.0


def test_broken_maps_give_text_the_rule_refuses() -> None:
    from ingest.pdf.text_layer import usable

    # Helvetica (a simple font) has no ToUnicode map to break: the text needs an embedded font.
    pdf = break_maps(_dejavu_pdf(), BREAKS["map into private use"])
    text = pdfium.PdfDocument(pdf)[0].get_textpage().get_text_range()
    assert "harbour" not in text and not usable(text)
    assert summarise([text])["unusable"] == 1


def _dejavu_pdf() -> bytes:
    import pytest
    from fpdf import FPDF

    from bench.text_layer import DEJAVU

    if not DEJAVU.exists():
        pytest.skip(f"no {DEJAVU}")
    pdf = FPDF()
    pdf.add_font("DejaVu", fname=str(DEJAVU))
    pdf.set_font("DejaVu", size=12)
    pdf.add_page()
    pdf.multi_cell(0, 8, HARBOUR)
    return bytes(pdf.output())


def test_the_section_renders_from_results_with_the_childs_memory_figure_among_them() -> None:
    from bench.ocr import render

    answers = {"ingest_s": 1, "gold_page_cited": 0.7, "answer_contains_gold": 0.7, "hit_at_k": 0.9}
    recall_row = {"pages": 26, "recall_mean": 0.99, "recall_min": 0.98, "confidence_min": 0.9}
    result = {
        "load_averages": [1.0],
        "engines": {"e": {"pages": 1, "recall_mean": 0.9, "seconds_per_page_median": 1.0}},
        "accuracy": {},
        "kept_or_not": {"blank": {"first_confidence": 0.0, "confident_words": 0, "kept": False, "s": 1.0}},
        "speed": {"pages": 4, "one_thread": 0.1, "two_threads": 0.2, "ratio": 2.0},
        "ingest": {
            "pages": 80,
            "chunks": 100,
            "seconds": 1.0,
            "pages_per_s": 1.0,
            "longest_silence_s": 1.0,
            "progress_reports": 3,
            "peak_rss_mb_before": 1.0,
            "peak_rss_mb": 2.0,
        },
        "answers": {
            "text PDFs": answers | {"abstention_accuracy": 0.8},
            "recall at 200 dpi": recall_row,
            "child_peak_rss_mb": 100.0,  # run_child adds it beside the child's own figures
        },
    }
    text = render(result)
    assert "| squad-dev (all pages) at 200 dpi | 26 | 0.99 | 0.98 | 0.9 |" in text
    assert "| text PDFs | 1 | 0.7 | 0.7 | 0.9 | 0.8 |" in text
