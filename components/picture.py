"""Page pictures cut down to the cited passage, so the panel shows it at a readable size.
Pure (no Streamlit). Where the passage sits is found by comparing two small renders of the page,
with and without its highlight, so no page geometry (rotation, crop box) has to be redone here."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

Box = tuple[float, float, float, float]  # left, top, right, bottom as shares of the page size


def highlight_box(plain_png: bytes, highlighted_png: bytes) -> Box | None:
    """Where the two renders of a page differ, as shares of its size; None when they do not."""
    plain = Image.open(io.BytesIO(plain_png)).convert("RGB")
    marked = Image.open(io.BytesIO(highlighted_png)).convert("RGB")
    if plain.size != marked.size:
        return None
    box = ImageChops.difference(plain, marked).getbbox()
    if box is None:
        return None
    width, height = plain.size
    return box[0] / width, box[1] / height, box[2] / width, box[3] / height


def crop_to(page_png: bytes, band: Box, column: Box | None = None, margin: float = 0.08) -> bytes:
    """The page cut to the band's rows plus a margin (a share of the page height) above and below,
    and across to the text column (the band, widened to `column` when given)."""
    page = Image.open(io.BytesIO(page_png)).convert("RGB")
    width, height = page.size
    left, right = (min(band[0], column[0]), max(band[2], column[2])) if column else (band[0], band[2])
    box = (
        max(0, int((left - 0.03) * width)),
        max(0, int((band[1] - margin) * height)),
        min(width, int((right + 0.03) * width) + 1),
        min(height, int((band[3] + margin) * height) + 1),
    )
    out = io.BytesIO()
    page.crop(box).save(out, format="PNG")
    return out.getvalue()
