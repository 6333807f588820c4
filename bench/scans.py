"""Scanned copies of text PDFs: each page rendered by pypdfium2 and wrapped as an image-only PDF
of the same page size, optionally turned, blurred or speckled like a poor scan. The benchmarks
and the tests make their scans with this, so both read the same kind of page."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence

import pypdfium2 as pdfium
from PIL import Image, ImageFilter


def scan_pages(
    data: bytes,
    dpi: int = 200,
    *,
    pages: Sequence[int] | None = None,
    turn: int = 0,
    noise: float = 0.0,
    blur: float = 0.0,
    seed: int = 0,
) -> list[Image.Image]:
    """The pages as grey pictures at ``dpi``: turned ``turn`` degrees anticlockwise, blurred by a
    Gaussian of radius ``blur`` pixels, and with a share ``noise`` of pixels flipped to black or white."""
    rng = random.Random(seed)
    pdf = pdfium.PdfDocument(data)
    try:
        indexes = range(len(pdf)) if pages is None else pages
        pictures = []
        for index in indexes:
            page = pdf[index]
            picture = page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            page.close()
            if blur:
                picture = picture.filter(ImageFilter.GaussianBlur(blur))
            if noise:
                picture = speckle(picture, noise, rng)
            if turn:
                picture = picture.rotate(turn, expand=True)
            pictures.append(picture)
        return pictures
    finally:
        pdf.close()


def speckle(picture: Image.Image, share: float, rng: random.Random) -> Image.Image:
    """The picture with about ``share`` of its pixels set to black or white at random."""
    out = picture.copy()
    pixels = out.load()
    width, height = out.size
    for _ in range(int(width * height * share)):
        pixels[rng.randrange(width), rng.randrange(height)] = rng.choice((0, 255))
    return out


def image_pdf(pictures: Sequence[Image.Image], dpi: int = 200) -> bytes:
    """An image-only PDF, one picture per page, each page sized as the picture at ``dpi``."""
    out = io.BytesIO()
    first, *rest = [p.convert("RGB") for p in pictures]
    first.save(out, format="PDF", resolution=float(dpi), save_all=True, append_images=rest)
    return out.getvalue()


def scan_pdf(data: bytes, dpi: int = 200, **options) -> bytes:
    """An image-only copy of a text PDF (see scan_pages for the options)."""
    return image_pdf(scan_pages(data, dpi, **options), dpi)
