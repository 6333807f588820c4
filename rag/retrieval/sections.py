"""Sections as a unit of retrieval: a question's topic reaches the section that treats it ("Item 3.
Legal Proceedings", "Customers", "Note 14 - Segment Information") by its title's words and meaning.

Each document's sections come from its chunks' section paths (ingest.pdf.sections); a section is
every prefix of a path, titled by its last part, and holds every chunk whose paths run through
it. In the document the page stage ranks first (rag.retrieval.page_stage: the one the question
names, of the asked period), each section's title is scored against the question two ways: BM25
over that document's titles (the question's content words, no years: a year matches every "Three
Years Ended ..." title) and the cosine of the title's embedding with the question's. A title is
related to the question when the question holds every one of its content words ("Legal
Proceedings", "Customers"; not "Report of Independent Registered Public Accounting Firm" for a
question that says "reported") or it is at least TITLE_COSINE close in meaning. The related
titles' two rankings are fused by reciprocal rank; the best SECTION_POOL are the question's
sections, and each of their chunks scores its best section's fused score. The page stage fuses
that ranking with its own.

No list of topics or phrases is involved: what a title says is the document's own word.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ingest.pdf.headings import without_numbering
from ingest.pdf.sections import PATH_JOIN
from ingest.types import LibraryReader
from rag.retrieval.lexical import tokenize

# Set by hand, not tuned (page_stage.SECTIONS is off; bench/README.md, "Sections", has what the
# ranking did on filings-dev, squad-dev and the generated filings with them).
SECTION_POOL = 6  # sections of the document whose chunks are lifted
TITLE_COSINE = 0.5  # MiniLM cosine of title and question at which a title is related by meaning
RRF_K = 60
BM25_K1, BM25_B = 1.2, 0.75  # the usual BM25 constants, as bm25s's defaults


@dataclass
class DocumentSections:
    """One document's sections: each one's title, path and chunk ids, and (once asked) the
    titles' embeddings."""

    titles: list[str]
    paths: list[str]
    members: list[list[str]]
    vectors: np.ndarray | None = field(default=None, repr=False)


def document_sections(chunk_sections: dict[str, tuple[str, ...]]) -> DocumentSections:
    """A document's sections from its chunks' section paths (in chunk order)."""
    index: dict[str, int] = {}
    titles: list[str] = []
    members: list[list[str]] = []
    for chunk_id, paths in chunk_sections.items():
        seen: set[int] = set()
        for path in paths:
            parts = path.split(PATH_JOIN)
            for depth in range(1, len(parts) + 1):
                prefix = PATH_JOIN.join(parts[:depth])
                n = index.setdefault(prefix, len(titles))
                if n == len(titles):
                    titles.append(parts[depth - 1])
                    members.append([])
                if n not in seen:
                    seen.add(n)
                    members[n].append(chunk_id)
    return DocumentSections(titles, list(index), members)


class SectionsCache:
    """Each document's sections (and their titles' embeddings), kept for one library generation."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[str, DocumentSections] = {}
        self._key: tuple[int, Any] | None = None

    def get(self, library: LibraryReader, doc_id: str, embed: bool) -> DocumentSections:
        """The document's sections, read once per library generation; with ``embed``, their titles
        embedded too (once)."""
        key = (id(library), library.generation)
        with self._lock:
            if self._key != key:
                self._known, self._key = {}, key
            found = self._known.get(doc_id)
        if found is None:
            found = document_sections(library.chunk_sections(doc_id))
            with self._lock:
                self._known[doc_id] = found
        if embed and found.vectors is None and found.titles:
            found.vectors = np.asarray(library.embeddings.embed_documents(found.titles), dtype=np.float64)
        return found


_CACHE = SectionsCache()


def chunk_scores(
    library: LibraryReader,
    query: str,
    vector: Any,
    doc_id: str,
    cache: SectionsCache | None = None,
) -> dict[str, float]:
    """The chunks of the question's sections in one document, each with its best section's fused
    score (see the module docstring); empty when no title is related to the question."""
    document = (cache or _CACHE).get(library, doc_id, embed=vector is not None)
    nodes = range(len(document.titles))
    terms = [t for t in dict.fromkeys(tokenize(query)) if not t.isdigit()]
    titles = [tokenize(without_numbering(title)) for title in document.titles]
    lexical = _bm25(titles, terms)
    cosine = _cosines(document, vector)
    held = set(terms)
    related = [
        n for n in nodes if (lexical[n] > 0 and _covered(titles[n], held)) or cosine[n] >= TITLE_COSINE
    ]
    fused = _fused({n: lexical[n] for n in related}, {n: cosine[n] for n in related})
    scores: dict[str, float] = {}
    for n in sorted(fused, key=lambda n: (-fused[n], n))[:SECTION_POOL]:
        for chunk_id in document.members[n]:
            scores[chunk_id] = max(scores.get(chunk_id, 0.0), fused[n])
    return scores


def _covered(title: list[str], terms: set[str]) -> bool:
    """Whether the question holds every content word of a title (its numbering and numbers aside)."""
    words = {t for t in title if not t.isdigit()}
    return bool(words) and words <= terms


def _bm25(titles: list[list[str]], terms: Sequence[str]) -> list[float]:
    """Each title's BM25 score for the terms, the titles being the collection."""
    if not titles or not terms:
        return [0.0] * len(titles)
    average = sum(map(len, titles)) / len(titles) or 1.0
    df = {t: sum(t in title for title in titles) for t in terms}
    idf = {t: math.log(1 + (len(titles) - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}
    out = []
    for title in titles:
        norm = BM25_K1 * (1 - BM25_B + BM25_B * len(title) / average)
        score = 0.0
        for t in terms:
            tf = title.count(t)
            if tf:
                score += idf[t] * tf * (BM25_K1 + 1) / (tf + norm)
        out.append(score)
    return out


def _cosines(document: DocumentSections, vector: Any) -> list[float]:
    if vector is None or document.vectors is None:
        return [0.0] * len(document.titles)
    query = np.asarray(vector, dtype=np.float64)
    query = query / (np.linalg.norm(query) or 1.0)
    norms = np.linalg.norm(document.vectors, axis=1)
    norms[norms == 0] = 1.0
    return [float(x) for x in document.vectors @ query / norms]


def _fused(*rankings: dict[int, float]) -> dict[int, float]:
    """Reciprocal rank fusion (only positive scores rank)."""
    scores: dict[int, float] = {}
    for values in rankings:
        ordered = sorted((k for k, v in values.items() if v > 0), key=lambda k: (-values[k], k))
        for rank, key in enumerate(ordered, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
    return scores


def by_page(scores: dict[str, float], page_of: dict[str, tuple[str, int]]) -> dict[tuple[str, int], float]:
    """Each page's best chunk score (chunk_scores' by chunk; page_of: chunk id -> (doc_id, page))."""
    out: dict[tuple[str, int], float] = {}
    for chunk_id, score in scores.items():
        page = page_of.get(chunk_id)
        if page is not None:
            out[page] = max(out.get(page, 0.0), score)
    return out
