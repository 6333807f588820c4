"""The corpus's image-only PDFs (sample-files 007, 019, 023) with OCR on: they hold pictures and no
words (a 16-pixel smiley, a cartoon scout, an aerial photograph), so each page is reported as
having no text found by OCR, the files with nothing else are refused, and the mixed one is kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.errors import NoTextFound
from tests.ingest.test_ocr import open_library

pytestmark = pytest.mark.corpus

PICTURES = [
    "007-imagemagick-images/imagemagick-ASCII85Decode.pdf",
    "007-imagemagick-images/imagemagick-CCITTFaxDecode.pdf",
    "007-imagemagick-images/imagemagick-lzw.pdf",
    "019-grayscale-image/grayscale-image.pdf",
    "023-cmyk-image/cmyk-image.pdf",
]


@pytest.mark.parametrize("name", PICTURES, ids=[Path(p).name for p in PICTURES])
def test_a_picture_without_words_is_refused_naming_its_page(corpus: Path, tmp_path: Path, name: str) -> None:
    path = corpus / "sample-files" / name
    with pytest.raises(NoTextFound) as caught:
        open_library(tmp_path).add_pdf(path.read_bytes(), path.name)
    assert str(caught.value) == (
        f"{path.name}: has no text layer, and OCR found no text on its pages (page 1: no text found by OCR)"
    )


def test_a_mixed_file_keeps_its_text_pages_and_names_the_empty_ones(corpus: Path, tmp_path: Path) -> None:
    path = corpus / "sample-files" / "007-imagemagick-images" / "imagemagick-images.pdf"
    library = open_library(tmp_path)
    result = library.add_pdf(path.read_bytes(), path.name)
    assert result.warnings == ("page 4: no text found by OCR", "page 5: no text found by OCR")
    pages = library.pages(result.doc.doc_id)
    assert [p.text for p in pages] == ["Background"] * 3 + ["", ""] + ["Background"]
    assert all(p.ocr is None for p in pages)
