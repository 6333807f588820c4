"""The shipped sample PDFs are exactly what their text sources render to, and they ingest."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.make_samples import SAMPLES, parse, render
from tests.ingest.test_library import open_library

SOURCES = sorted((SAMPLES / "src").glob("*.txt"))


@pytest.mark.parametrize("source", SOURCES, ids=[s.stem for s in SOURCES])
def test_pdf_matches_its_source(source: Path) -> None:
    rendered = render(*parse(source.read_text(encoding="utf-8")))
    assert rendered == (SAMPLES / f"{source.stem}.pdf").read_bytes(), "run scripts/make_samples.py"


def test_samples_ingest_with_labels_and_findable_facts(tmp_path: Path) -> None:
    assert len(SOURCES) >= 2
    library = open_library(tmp_path)
    for pdf in sorted(SAMPLES.glob("*.pdf")):
        result = library.add_pdf(pdf.read_bytes(), pdf.name)
        assert result.status == "ok" and result.warnings == ()
    guide = next(d for d in library.documents() if d.file_name == "kettle-fen-field-guide.pdf")
    assert [p.label for p in library.pages(guide.doc_id)] == ["i", "1", "2"]
    (chunk, _), *_ = library.search_vector(
        library.embeddings.embed_query("reed warbler arrives last week of April"), 3
    )
    assert "last week of April" in chunk.text and chunk.first.page_label == "1"
