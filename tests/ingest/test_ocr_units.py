"""The OCR pieces without Tesseract: boxes turned back onto the page as shown, page text from
words, highlight boxes from word boxes, and the stored JSON of locators and OCR records."""

from __future__ import annotations

from PIL import Image

from ingest.pdf.ocr import OcrWord, page_text, turn_back
from ingest.pdf.render import ocr_highlight_boxes
from ingest.rows import locators_data, locators_from, ocr_from, ocr_json
from ingest.types import OcrBox, PageLocator, PageOcr


def _dark_box(picture: Image.Image) -> tuple[float, float, float, float]:
    left, top, right, bottom = picture.point(lambda v: 255 - v).getbbox()
    return left / picture.width, top / picture.height, right / picture.width, bottom / picture.height


def test_a_box_found_upright_is_turned_back_onto_the_picture_as_given() -> None:
    page = Image.new("L", (300, 200), 255)
    page.paste(0, (30, 20, 90, 50))  # a dark "word" near the top left
    for rotation in (0, 90, 180, 270):
        upright = page.rotate(rotation, expand=True)
        back = turn_back(_dark_box(upright), rotation)
        assert all(abs(a - b) < 0.01 for a, b in zip(back, _dark_box(page))), rotation


def test_page_text_puts_lines_on_lines_and_records_each_words_range() -> None:
    words = (
        OcrWord("Fog", 0.9, (0.1, 0.1, 0.2, 0.15), True, True),
        OcrWord("lifted.", 0.8, (0.22, 0.1, 0.4, 0.15)),
        OcrWord("Noon", 0.95, (0.1, 0.2, 0.2, 0.25), True),
    )
    text, boxes = page_text(words)
    assert text == "Fog lifted.\nNoon"
    assert [text[b.char_start : b.char_end] for b in boxes] == ["Fog", "lifted.", "Noon"]


def test_highlights_join_the_words_of_a_line_and_break_at_a_new_line() -> None:
    words = [
        OcrBox(0, 3, 0.1, 0.1, 0.2, 0.15),
        OcrBox(4, 11, 0.22, 0.1, 0.4, 0.15),
        OcrBox(12, 16, 0.1, 0.2, 0.2, 0.25),
    ]
    boxes = ocr_highlight_boxes(words, (1000, 1000), [(2, 14)])
    assert boxes == [(98, 98, 402, 152), (98, 198, 202, 252)]
    assert ocr_highlight_boxes(words, (1000, 1000), [(20, 30)]) == []


def test_locators_keep_four_items_on_text_pages_and_the_confidence_on_ocr_pages() -> None:
    text, scanned = PageLocator(0, "i", 0, 10), PageLocator(1, "ii", 5, 9, 0.87)
    assert locators_data([text, scanned]) == [[0, "i", 0, 10], [1, "ii", 5, 9, 0.87]]
    assert locators_from(locators_data([text, scanned])) == (text, scanned)
    assert locators_from([[0, "1", 0, 4]]) == (PageLocator(0, "1", 0, 4),)  # a library made before OCR


def test_an_ocr_record_round_trips_through_json() -> None:
    record = PageOcr("tesseract 5.5.4 (eng)", 0.93, (OcrBox(0, 3, 0.1, 0.2, 0.3, 0.4),))
    assert ocr_from(ocr_json(record)) == record
    assert ocr_json(None) is None and ocr_from(None) is None
