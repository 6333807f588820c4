"""Smoke test of the ingestion parts benchmark on a tiny PDF it makes (no timings asserted)."""

from pathlib import Path

from bench.ingest_parts import parts_child, parts_markdown
from tests.ingest.pdfs import PARAGRAPH, make_pdf


def test_parts_child_counts_pages_and_chunks(tmp_path: Path) -> None:
    pdf = tmp_path / "tiny.pdf"
    pdf.write_bytes(make_pdf([PARAGRAPH * 12, PARAGRAPH * 2]))
    parts = parts_child([str(pdf)])
    assert parts["pages"] == 2
    assert parts["chunks"] >= 2
    assert parts["extract_pages_per_s"] > 0 and parts["embed_chunks_per_s"] > 0
    text = parts_markdown(parts, pipeline_chunks_per_s=parts["embed_chunks_per_s"] / 2)
    assert "50% of the embedder's own speed" in text
