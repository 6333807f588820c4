"""wiring.py: the one LibrarySettings every opener of the library is given carries each library
setting, and the command line's reader opens a library with the settings it was built with."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.embeddings import HashEmbeddings
from ingest.local.library import Library
from ingest.types import LibrarySettings, OcrOptions
from settings import load_settings
from wiring import library_options, library_settings, make_embeddings, open_reader


def test_library_settings_carry_every_library_setting(tmp_path: Path) -> None:
    settings = load_settings(
        data_dir=tmp_path,
        chunk_size=700,
        chunk_overlap=70,
        max_file_mb=5.0,
        max_pages=40,
        embed_batch_size=8,
        ocr="auto",
        ocr_languages="deu",
        ocr_dpi=200,
    )
    config = library_settings(library_options(settings), "some:embeddings")
    assert config == LibrarySettings(
        "some:embeddings", 700, 70, 5.0, 40, 8, OcrOptions("auto", "deu", None, 200, 500, 60.0)
    )


def test_open_reader_opens_a_library_built_with_the_same_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.ingest.pdfs import PARAGRAPH, make_pdf

    monkeypatch.delenv("FOOTNOTE_DATABASE_URL", raising=False)
    settings = load_settings(data_dir=tmp_path, embedding_provider="fake", chunk_size=400, chunk_overlap=40)
    embeddings, name = make_embeddings(settings)
    assert isinstance(embeddings, HashEmbeddings)
    Library.open(tmp_path, embeddings, embedding_name=name, chunk_size=400, chunk_overlap=40).add_pdf(
        make_pdf([PARAGRAPH * 3]), "guide.pdf"
    )
    reader = open_reader(settings)  # a chunk size other than the default's would raise IndexMismatch
    assert reader.read_only and [d.file_name for d in reader.documents()] == ["guide.pdf"]
