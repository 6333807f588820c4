"""Page pictures cut down to the cited passage, so the panel shows it at a readable size.
Pure (no Streamlit). The crop comes from the boxes the render drew (ingest.pdf.render.PagePicture),
so no page geometry (rotation, crop box) is redone here and nothing is rendered twice.

The panel's pictures are JPEG: st.image decodes any PNG it is given and encodes it again as a
JPEG of quality 90 on every rerun (streamlit/elements/lib/image_utils.py:
_ensure_image_size_and_format), which cost tens of milliseconds on every rerun with a footnote open. Encoded here once
(and cached by the caller) in that format and quality, the bytes pass through untouched and the
browser gets the picture it got before."""

from __future__ import annotations

import io

from PIL import Image

from ingest.pdf.render import PagePicture, PixelBox

# Context kept around the passage, as shares of the page: 0.08 of the height is about five lines
# of body text on an A4 or Letter page; 0.03 of the width keeps the first letters off the edge.
CONTEXT_ROWS = 0.08
CONTEXT_SIDES = 0.03
JPEG_QUALITY = 90  # what st.image re-encodes a PNG to (see above): the same picture, encoded once


def _span(boxes: tuple[PixelBox, ...]) -> PixelBox:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def crop_box(picture: PagePicture) -> PixelBox | None:
    """The rows of the cited passage (else of the chunk) plus some context above and below, across
    the chunk's column; None when nothing was highlighted on this page."""
    if not picture.boxes and not picture.focus_boxes:
        return None
    band = _span(picture.focus_boxes or picture.boxes)
    column = _span(picture.boxes + picture.focus_boxes)
    width, height = picture.size
    dx, dy = int(CONTEXT_SIDES * width), int(CONTEXT_ROWS * height)
    return (
        max(0, column[0] - dx),
        max(0, band[1] - dy),
        min(width, column[2] + dx + 1),
        min(height, band[3] + dy + 1),
    )


def _jpeg(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=JPEG_QUALITY)
    return out.getvalue()


def cut_picture(picture: PagePicture) -> bytes | None:
    """The picture cut to `crop_box` as JPEG, or None when nothing on the page was highlighted."""
    box = crop_box(picture)
    return None if box is None else _jpeg(picture.image.crop(box))


def whole_picture(picture: PagePicture) -> bytes:
    """The whole page as JPEG."""
    return _jpeg(picture.image)


def panel_pictures(picture: PagePicture) -> tuple[bytes | None, bytes]:
    """(the picture cut to `crop_box`, or None when nothing on the page was highlighted; the
    whole page), both as JPEG that st.image shows without encoding them again."""
    return cut_picture(picture), whole_picture(picture)
