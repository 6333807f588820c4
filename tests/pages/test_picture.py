"""The panel's picture is cut to the highlighted passage of a real rendered page."""

from __future__ import annotations

import io

from PIL import Image

from components.picture import passage_crop
from ingest.render import render_page
from tests.pages.conftest import make_pdf


def test_crop_keeps_the_highlight_band_and_drops_the_rest_of_the_page() -> None:
    text = "First paragraph about nothing.\n\n" * 5 + "The cited sentence is here.\n\n" + "Filler text.\n\n" * 5
    pdf = make_pdf([text])
    start = text.index("The cited sentence")
    plain = render_page(pdf, 0, highlights=[], scale=1.0)
    marked = render_page(pdf, 0, highlights=[(start, start + 27)], scale=1.0)
    crop = passage_crop(plain, marked)
    assert crop is not None
    page_w, page_h = Image.open(io.BytesIO(marked)).size
    crop_w, crop_h = Image.open(io.BytesIO(crop)).size
    assert crop_w < page_w and crop_h < page_h / 3
    # The highlight colour (translucent yellow over white) is inside the crop.
    pixels = Image.open(io.BytesIO(crop)).convert("RGB").get_flattened_data()
    assert any(r > 240 and 200 < g < 250 and b < 200 for r, g, b in pixels)


def test_no_highlight_means_no_crop() -> None:
    pdf = make_pdf(["Just text."])
    plain = render_page(pdf, 0, highlights=[], scale=1.0)
    assert passage_crop(plain, plain) is None
