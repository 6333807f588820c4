"""Sections as a unit of retrieval: the section a question names ("section 3", "the Security
chapter", "Appendix E (Auxiliary Experiments)": rag.questions.section) and its chunks come first.

Each document's sections come from its chunks' section paths (ingest.pdf.sections): a section is
every prefix of a path, titled by its last part, and holds every chunk whose paths run through it,
in reading order; its first chunk is where it begins. The named section is the heading the
question names best (Section.names: its number, then its title's words), the shallowest of equals,
in the first of the page stage's documents that has one.

What comes first depends on what is asked of it: for its subsections, the chunk where it begins
and the chunk where each subsection begins (so the evidence holds every subsection's heading),
then its other chunks; for its title, the chunk where it begins, then the others; for what it says,
its chunks by the page stage's own score, best first.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ingest.pdf.sections import PATH_JOIN
from ingest.types import LibraryReader
from rag.questions.section import SUBSECTIONS, TITLE, Section


@dataclass(frozen=True)
class DocumentSections:
    """One document's sections: each one's title, path and chunk ids (in reading order)."""

    titles: list[str]
    paths: list[str]
    members: list[list[str]]


def document_sections(chunk_sections: Mapping[str, tuple[str, ...]]) -> DocumentSections:
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
    """Each document's sections, kept for one library generation."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._known: dict[str, DocumentSections] = {}
        self._key: tuple[int, Any] | None = None

    def get(self, library: LibraryReader, doc_id: str) -> DocumentSections:
        """The document's sections, read once per library generation."""
        key = (id(library), library.generation)
        with self._lock:
            if self._key != key:
                self._known, self._key = {}, key
            found = self._known.get(doc_id)
        if found is None:
            found = document_sections(library.chunk_sections(doc_id))
            with self._lock:
                self._known[doc_id] = found
        return found


_CACHE = SectionsCache()


@dataclass(frozen=True)
class Named:
    """The section a question names in a document: its path, its chunks in reading order, and the
    chunk where each of its subsections begins, in their order."""

    doc_id: str
    path: str
    chunks: tuple[str, ...]
    subsections: tuple[str, ...]


def named_section(
    library: LibraryReader, section: Section, doc_ids: Sequence[str], cache: SectionsCache | None = None
) -> Named | None:
    """The section the question names (see the module docstring), or None when no heading is it."""
    best: tuple[float, int, int, int] | None = None
    found: tuple[DocumentSections, int, str] | None = None
    for order, doc_id in enumerate(doc_ids):
        document = (cache or _CACHE).get(library, doc_id)
        for n, (title, path) in enumerate(zip(document.titles, document.paths)):
            score = section.names(title)
            key = (score, -path.count(PATH_JOIN), -order, -n)
            if score > 0 and (best is None or key > best):
                best, found = key, (document, n, doc_id)
    if found is None:
        return None
    document, n, doc_id = found
    path = document.paths[n]
    below = path + PATH_JOIN
    children = [
        m for m, p in enumerate(document.paths) if p.startswith(below) and PATH_JOIN not in p[len(below) :]
    ]
    starts = [document.members[m][0] for m in children if document.members[m]]
    return Named(doc_id, path, tuple(document.members[n]), tuple(dict.fromkeys(starts)))


def section_first(named: Named, asks: str, score: Mapping[str, float]) -> list[str]:
    """The named section's chunk ids in the order they come first (see the module docstring):
    ``score`` is the page stage's score of each chunk (missing: none)."""
    by_score = sorted(named.chunks, key=lambda cid: -score.get(cid, 0.0))  # stable: reading order after
    if asks == SUBSECTIONS:
        lead = [*named.chunks[:1], *named.subsections]
    elif asks == TITLE:
        lead = list(named.chunks[:1])
    else:
        lead = []
    return list(dict.fromkeys([*lead, *by_score]))
