"""Ingestion's parts on their own: text extraction in pages per second and the embedding model's
own speed in chunks per second, the practical limit for the whole pipeline."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any


def parts_child(paths: list[str]) -> dict[str, Any]:
    """Child body: time extraction (ours and pypdf's) and embedding alone on the same PDFs."""
    from pypdf import PdfReader

    from ingest.embeddings import LocalEmbeddings
    from ingest.ids import doc_id_for
    from ingest.pdf.chunking import chunk_pages
    from ingest.pdf.reader import read_pdf

    datas = [(Path(p).name, Path(p).read_bytes()) for p in paths]
    start = time.perf_counter()
    documents = [(doc_id_for(data), read_pdf(data, name)) for name, data in datas]
    ours_s = time.perf_counter() - start
    pages = sum(len(doc.pages) for _id, doc in documents)

    start = time.perf_counter()
    for _name, data in datas:
        for page in PdfReader(io.BytesIO(data)).pages:
            page.extract_text()
    pypdf_s = time.perf_counter() - start

    texts = [c.text for doc_id, doc in documents for c in chunk_pages(doc_id, doc.pages, 1000, 150)]
    embeddings = LocalEmbeddings()
    embeddings.embed_array(["warm up"])
    start = time.perf_counter()
    embeddings.embed_array(texts)
    embed_s = time.perf_counter() - start
    return {
        "pages": pages,
        "chunks": len(texts),
        "extract_pages_per_s": round(pages / ours_s, 1),
        "pypdf_pages_per_s": round(pages / pypdf_s, 1),
        "embed_seconds": round(embed_s, 2),
        "embed_chunks_per_s": round(len(texts) / embed_s, 1),
    }


def parts_markdown(parts: dict[str, Any], pipeline_chunks_per_s: float) -> str:
    """A paragraph: extraction speed, the embedder's own speed, and how close the pipeline gets."""
    share = pipeline_chunks_per_s / parts["embed_chunks_per_s"]
    return (
        f"\n\nParts on their own (same PDFs, fastest round): text extraction "
        f"{parts['extract_pages_per_s']} pages/s with our reader (pypdf checks + pypdfium2 text) "
        f"against {parts['pypdf_pages_per_s']} pages/s for pypdf's extract_text alone, "
        f"{parts['pages']} pages; the default (int8) embedder alone {parts['embed_chunks_per_s']} chunks/s "
        f"({parts['chunks']} chunks in {parts['embed_seconds']} s). The whole pipeline ran at "
        f"{pipeline_chunks_per_s} chunks/s: {share:.0%} of the embedder's own speed, which is the "
        "practical limit.\n"
    )
