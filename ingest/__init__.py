"""Ingestion core (no Streamlit): PDFs in, page-aware chunks and a persistent index out.

Exports the vocabulary and stable ids; the reader, chunker, embeddings and store live in
their own modules.
"""

from ingest.ids import chunk_id_for, doc_id_for
from ingest.types import Chunk, Document, Page, PageLocator

__all__ = ["Chunk", "Document", "Page", "PageLocator", "chunk_id_for", "doc_id_for"]
