"""The panel's picture is cut, from the boxes the render drew, to the highlighted passage of a
real page; the cited passage is drawn in its own, stronger colour; st.image takes both pictures
as they are."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from components.panel.picture import crop_box, panel_pictures
from ingest.pdf.reader import read_pdf
from ingest.pdf.render import draw_page
from tests.pages.conftest import make_pdf

TEXT = "First paragraph about nothing.\n\n" * 5 + "The cited sentence is here.\n\n" + "Filler text.\n\n" * 5


def _contains(outer: tuple[int, ...], inner: tuple[int, ...]) -> bool:
    return (
        outer[0] <= max(inner[0], 0)
        and outer[1] <= max(inner[1], 0)
        and inner[2] <= outer[2] + 1
        and inner[3] <= outer[3] + 1
    )


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


def test_crop_keeps_the_highlight_band_and_drops_the_rest_of_the_page() -> None:
    pdf = make_pdf([TEXT])
    start = TEXT.index("The cited sentence")
    picture = draw_page(pdf, 0, [(start, start + 27)], scale=1.0)
    assert picture.boxes and not picture.focus_boxes
    box = crop_box(picture)
    assert box is not None and all(_contains(box, b) for b in picture.boxes)
    _page_w, page_h = picture.size
    assert 0 < box[1] < box[3] < page_h / 2  # near the top of an A4 page
    cut_jpeg, whole_jpeg = panel_pictures(picture)
    cut = Image.open(io.BytesIO(cut_jpeg))
    assert cut.size == (box[2] - box[0], box[3] - box[1]) and cut.height < page_h / 3
    assert Image.open(io.BytesIO(whole_jpeg)).size == picture.size


@pytest.mark.corpus
def test_crop_on_a_real_two_column_pdf_holds_the_cited_passage(corpus: Path) -> None:
    pdf = (corpus / "sample-files/026-latex-multicolumn/multicolumn.pdf").read_bytes()
    text = read_pdf(pdf, "multicolumn.pdf").pages[0].text
    chunk = (len(text) // 2, len(text) // 2 + 400)
    focus = (chunk[0] + 100, chunk[0] + 160)
    picture = draw_page(pdf, 0, [chunk], [focus], scale=1.0)
    assert picture.boxes and picture.focus_boxes
    box = crop_box(picture)
    assert box is not None and all(_contains(box, b) for b in picture.focus_boxes)
    assert box[3] - box[1] < picture.size[1] / 2  # cut to the passage's rows, not the whole page
    assert Image.open(io.BytesIO(panel_pictures(picture)[0])).size == (box[2] - box[0], box[3] - box[1])


def test_the_cited_passage_is_drawn_in_a_different_colour_from_the_chunk() -> None:
    pdf = make_pdf([TEXT])
    start, focus = TEXT.index("First"), TEXT.index("The cited sentence")
    picture = draw_page(pdf, 0, [(start, len(TEXT))], [(focus, focus + 27)], scale=1.0)
    pixels = _pixels(picture.png)
    left, top, right, bottom = picture.focus_boxes[0]
    cited = pixels[top + 1 : bottom, left + 1 : right].reshape(-1, 3)
    first = picture.boxes[0]  # the chunk's first line, which the cited passage does not cover
    rest = pixels[first[1] + 1 : first[3], first[0] + 1 : first[2]].reshape(-1, 3)
    # Background pixels (the lightest) of each region carry the fill colour.
    cited_fill = cited[cited.sum(axis=1).argmax()]
    rest_fill = rest[rest.sum(axis=1).argmax()]
    assert rest_fill[2] < 200 and cited_fill[2] < 200  # both highlighted (blue taken out)
    assert rest_fill[1] - cited_fill[1] > 30  # the cited passage is a deeper, stronger colour


def test_no_highlight_means_no_crop() -> None:
    picture = draw_page(make_pdf(["Just text."]), 0, scale=0.3)
    assert picture.boxes == () and crop_box(picture) is None and panel_pictures(picture)[0] is None


def test_st_image_passes_the_panel_pictures_through_without_encoding_them_again() -> None:
    # st.image decodes a PNG and encodes it as JPEG on every rerun; JPEG bytes it keeps as given.
    # SEE: streamlit/elements/lib/image_utils.py (image_to_url -> _ensure_image_size_and_format)
    from streamlit.elements.lib.image_utils import _ensure_image_size_and_format
    from streamlit.elements.lib.layout_utils import LayoutConfig

    start = TEXT.index("The cited sentence")
    picture = draw_page(make_pdf([TEXT]), 0, [(start, start + 27)], scale=1.5)
    for jpeg in panel_pictures(picture):
        assert jpeg is not None and Image.open(io.BytesIO(jpeg)).format == "JPEG"
        assert _ensure_image_size_and_format(jpeg, LayoutConfig(width="stretch"), "JPEG") is jpeg
    assert _ensure_image_size_and_format(picture.png, LayoutConfig(width="stretch"), "JPEG") != picture.png


def test_the_panel_encodes_its_jpegs_from_the_drawn_page_and_no_png() -> None:
    pdf = make_pdf([TEXT])
    start = TEXT.index("The cited sentence")
    picture = draw_page(pdf, 0, [(start, start + 27)], scale=1.0)
    cut_jpeg, whole_jpeg = panel_pictures(picture)
    assert cut_jpeg and whole_jpeg
    assert "png" not in vars(picture)  # nothing on the panel's way encoded (or decoded) a PNG
    assert np.array_equal(_pixels(picture.png), np.asarray(picture.image))  # asked for, it is the same page
