"""Page pictures cut down to the highlighted passage, so the panel shows it at a readable size.
Pure (no Streamlit)."""

from __future__ import annotations

import io

from PIL import Image, ImageChops


def passage_crop(plain_png: bytes, highlighted_png: bytes, shown_png: bytes | None = None,
                 margin: float = 0.08) -> bytes | None:
    """A band of the page around what highlighted_png highlights (its difference from plain_png),
    plus a margin (a share of the page height) above and below, cut from shown_png (default:
    the highlighted picture itself); None when the two pictures do not differ."""
    plain = Image.open(io.BytesIO(plain_png)).convert("RGB")
    marked = Image.open(io.BytesIO(highlighted_png)).convert("RGB")
    shown = Image.open(io.BytesIO(shown_png)).convert("RGB") if shown_png else marked
    if not plain.size == marked.size == shown.size:
        return None
    box = ImageChops.difference(plain, marked).getbbox()
    if box is None:
        return None
    # Across: the text column the highlights cover (the whole chunk's, when shown differs).
    column = ImageChops.difference(plain, shown).getbbox() if shown is not marked else None
    left, right = (min(box[0], column[0]), max(box[2], column[2])) if column else (box[0], box[2])
    width, height = shown.size
    pad_y, pad_x = int(height * margin), int(width * 0.03)
    top, bottom = max(0, box[1] - pad_y), min(height, box[3] + pad_y)
    out = io.BytesIO()
    shown.crop((max(0, left - pad_x), top, min(width, right + pad_x), bottom)).save(out, format="PNG")
    return out.getvalue()
