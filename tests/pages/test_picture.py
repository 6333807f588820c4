"""The panel's picture is cut to the highlighted passage of a real rendered page."""

from __future__ import annotations

import io

from PIL import Image

from components.picture import crop_to, highlight_box
from ingest.render import render_page
from tests.pages.conftest import make_pdf

TEXT = "First paragraph about nothing.\n\n" * 5 + "The cited sentence is here.\n\n" + "Filler text.\n\n" * 5


def test_crop_keeps_the_highlight_band_and_drops_the_rest_of_the_page() -> None:
    pdf = make_pdf([TEXT])
    start = TEXT.index("The cited sentence")
    box = highlight_box(render_page(pdf, 0, scale=0.3), render_page(pdf, 0, [(start, start + 27)], scale=0.3))
    assert box is not None
    left, top, right, bottom = box
    assert 0 <= left < right <= 1 and 0 < top < bottom < 0.5  # near the top of an A4 page
    page = render_page(pdf, 0, [(start, start + 27)], scale=1.0)
    crop = Image.open(io.BytesIO(crop_to(page, box)))
    page_w, page_h = Image.open(io.BytesIO(page)).size
    assert crop.width < page_w and crop.height < page_h / 3
    # The highlight colour (translucent yellow over white) is inside the crop.
    assert any(r > 240 and 200 < g < 250 and b < 200 for r, g, b in crop.convert("RGB").get_flattened_data())


def test_no_highlight_means_no_box() -> None:
    pdf = make_pdf(["Just text."])
    plain = render_page(pdf, 0, scale=0.3)
    assert highlight_box(plain, plain) is None
