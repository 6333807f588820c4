"""Stable identities: a document is its bytes, a chunk is its document, location and chunk settings."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ingest.types import PageLocator


def doc_id_for(data: bytes) -> str:
    """sha256 of the PDF's bytes, as lowercase hex."""
    return hashlib.sha256(data).hexdigest()


def chunk_id_for(doc_id: str, locators: Sequence[PageLocator], chunk_size: int, chunk_overlap: int) -> str:
    """sha256 over the document id, every page locator and the chunk settings.

    Re-ingesting the same bytes with the same settings gives the same ids; changing the
    settings gives new ones, so a stale id can never point at a different passage.
    """
    where = ";".join(f"{loc.page_index}:{loc.char_start}-{loc.char_end}" for loc in locators)
    key = f"footnote-chunk-v1|{doc_id}|{where}|size={chunk_size}|overlap={chunk_overlap}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()
