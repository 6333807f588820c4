"""A tiny in-memory stand-in with the Library's read methods, for unit tests of retrieval."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from ingest.ids import doc_id_for
from ingest.pdf.chunking import chunk_pages
from ingest.pdf.reader import read_pdf
from ingest.types import Chunk, Document


class MemoryLibrary:
    """Documents and chunks in lists, exact cosine search with numpy."""

    def __init__(self, embeddings, chunk_size: int = 1000, chunk_overlap: int = 150) -> None:
        self.embeddings = embeddings
        self.chunk_size, self.chunk_overlap = chunk_size, chunk_overlap
        self.generation = 0
        self._docs: dict[str, Document] = {}
        self._chunks: list[Chunk] = []
        self._vectors = np.zeros((0, 0), dtype=np.float32)

    def add_pdf(self, data: bytes, file_name: str) -> Document:
        read = read_pdf(data, file_name)
        doc_id = doc_id_for(data)
        chunks = chunk_pages(doc_id, read.pages, self.chunk_size, self.chunk_overlap)
        doc = Document(doc_id, read.title, file_name, len(read.pages), len(data), len(chunks))
        self.add(doc, chunks)
        return doc

    def add(self, doc: Document, chunks: Sequence[Chunk]) -> None:
        vectors = np.asarray(self.embeddings.embed_documents([c.text for c in chunks]), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
        self._docs[doc.doc_id] = doc
        self._chunks += list(chunks)
        self._vectors = vectors if not len(self._vectors) else np.vstack([self._vectors, vectors])
        self.generation += 1

    def delete(self, doc_id: str) -> None:
        keep = [i for i, c in enumerate(self._chunks) if c.doc_id != doc_id]
        self._chunks = [self._chunks[i] for i in keep]
        self._vectors = self._vectors[keep]
        self._docs.pop(doc_id, None)
        self.generation += 1

    def documents(self) -> list[Document]:
        return list(self._docs.values())

    def document(self, doc_id: str) -> Document | None:
        return self._docs.get(doc_id)

    def chunks(self, doc_ids: Iterable[str] | None = None) -> list[Chunk]:
        wanted = None if doc_ids is None else set(doc_ids)
        return [c for c in self._chunks if wanted is None or c.doc_id in wanted]

    def search(self, query: str, k: int, doc_ids: Iterable[str] | None = None) -> list[tuple[Chunk, float]]:
        if not self._chunks:
            return []
        q = np.asarray(self.embeddings.embed_query(query), dtype=np.float32)
        q /= np.linalg.norm(q) + 1e-12
        scores = self._vectors @ q
        wanted = None if doc_ids is None else set(doc_ids)
        order = [i for i in np.argsort(-scores) if wanted is None or self._chunks[i].doc_id in wanted]
        return [(self._chunks[i], float(scores[i])) for i in order[:k]]
