"""Stable ids: same bytes and settings give the same ids; any change gives new ones."""

from ingest.ids import chunk_id_for, doc_id_for
from ingest.types import PageLocator

LOCS = (PageLocator(0, "i", 10, 200), PageLocator(1, "ii", 0, 40))


def test_doc_id_is_sha256_of_the_bytes() -> None:
    assert doc_id_for(b"%PDF-1.4 x") == doc_id_for(b"%PDF-1.4 x")
    assert doc_id_for(b"%PDF-1.4 x") != doc_id_for(b"%PDF-1.4 y")
    assert len(doc_id_for(b"")) == 64


def test_chunk_id_depends_on_document_location_and_settings() -> None:
    base = chunk_id_for("d" * 64, LOCS, 1000, 150)
    assert base == chunk_id_for("d" * 64, LOCS, 1000, 150)
    assert base != chunk_id_for("e" * 64, LOCS, 1000, 150)
    assert base != chunk_id_for("d" * 64, LOCS[:1], 1000, 150)
    assert base != chunk_id_for("d" * 64, (PageLocator(0, "i", 11, 200), LOCS[1]), 1000, 150)
    assert base != chunk_id_for("d" * 64, LOCS, 800, 150)
    assert base != chunk_id_for("d" * 64, LOCS, 1000, 100)
    assert all(c in "0123456789abcdef" for c in base) and len(base) == 64
