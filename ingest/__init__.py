"""Ingestion core (no Streamlit): PDFs in, page-aware chunks and a persistent index out.

Exports the vocabulary and stable ids. Heavier parts are imported from their modules so that
``import ingest`` stays cheap: ``ingest.local.library.Library`` (the store: add, delete, search),
``ingest.pdf.reader.read_pdf``, ``ingest.pdf.chunking.chunk_pages``, ``ingest.pdf.render.render_page``,
``ingest.pdf.excerpt.excerpt_pages`` (a page range as a PDF of its own),
``ingest.embeddings.make_embeddings``, ``ingest.errors`` (the error policy), and ingestion as
background jobs: ``ingest.jobs`` (the stages), ``Library.jobs`` (ingest.local.jobs; in PostgreSQL
ingest.team.jobs) and ``ingest.worker.Worker``. Scanned pages: ``ingest.pdf.text_layer.usable`` (which
pages need OCR; blank ones never do: ``ingest.pdf.page_text``), ``ingest.pdf.ocr_pages.read_unusable``
(render and read them, within the budget of ``ingest.types.OcrOptions``) over
``ingest.pdf.ocr.TesseractReader`` or another ``ingest.pdf.ocr.OcrEngine``.
"""

from ingest.ids import chunk_id_for, doc_id_for
from ingest.types import Chunk, Document, Page, PageLocator

__all__ = ["Chunk", "Document", "Page", "PageLocator", "chunk_id_for", "doc_id_for"]
