"""Page pictures: a real PNG, with highlight colour exactly where the chunk's characters are."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from ingest.pdf.reader import read_pdf
from ingest.pdf.render import draw_page, render_page
from tests.ingest.pdfs import make_pdf, rewrite

PDF = make_pdf(["Top line of the page.\n\n\n\n\n\n\n\n\n\nThe passage to highlight sits down here."])


def _image(png: bytes) -> np.ndarray:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return np.asarray(image.convert("RGB")).astype(int)


def _yellow(pixels: np.ndarray) -> np.ndarray:
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    return (r > 200) & (g > 170) & (b < 200) & (r - b > 60)


def test_highlight_covers_the_characters_and_nothing_else() -> None:
    text = read_pdf(PDF, "p.pdf").pages[0].text
    start = text.index("The passage")
    end = start + len("The passage to highlight sits down here.")
    plain = _image(render_page(PDF, 0, scale=1.0))
    marked = _image(render_page(PDF, 0, highlights=[(start, end)], scale=1.0))
    assert plain.shape == marked.shape and not _yellow(plain).any()
    rows = np.nonzero(_yellow(marked).any(axis=1))[0]
    assert rows.size > 5
    # The yellow is exactly the returned box, and that box is the lower line, not the top one.
    ((_left, top, _right, bottom),) = draw_page(PDF, 0, [(start, end)], scale=1.0).boxes
    assert rows.min() == max(top, 0) and rows.max() == bottom
    top_line = draw_page(PDF, 0, [(0, len("Top line"))], scale=1.0).boxes[0]
    assert top_line[3] < rows.min() - 20


def test_scale_and_out_of_range_offsets() -> None:
    small, large = _image(render_page(PDF, 0, scale=0.5)), _image(render_page(PDF, 0, scale=1.0))
    assert large.shape[0] == pytest.approx(2 * small.shape[0], abs=2)
    assert not _yellow(_image(render_page(PDF, 0, highlights=[(10_000, 10_050)], scale=0.5))).any()


def test_password_protected_page() -> None:
    locked = rewrite(PDF, user_password="pw")
    assert (
        _image(render_page(locked, 0, scale=0.5, password="pw")).shape
        == _image(render_page(PDF, 0, scale=0.5)).shape
    )
