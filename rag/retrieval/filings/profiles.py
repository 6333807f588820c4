"""What each document of a library says about itself, for picking the documents a question names
(rag/retrieval/documents.py): its profile, its cover and its company.

A profile is the document's title (PDF metadata, else the file name), its file name with letters
and digits split ("acme-10k-fy2023.pdf" gives acme 10k fy 2023) and the words of its first
``PROFILE_PAGES`` pages (a cover names the company, the form and the fiscal period), kept as
postings. The cover's facts (rag.retrieval.filings.covers) give each document its form and period, and
the documents that share a filer's identifiers are one company (rag.retrieval.filings.companies). The
profiles of a library generation are saved with a local library (rag/retrieval/filings/profile_store.py).
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ingest.types import LibraryReader
from rag.retrieval.filings import profile_store
from rag.retrieval.filings.companies import ENTITY_WORDS, company_of, name_words
from rag.retrieval.filings.covers import Cover, read_cover
from rag.retrieval.lexical import tokenize

PROFILE_PAGES = 2  # a cover page and what follows it (contents, or the first page of text)
_LETTER_DIGIT = re.compile(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")


def profile_text(title: str, file_name: str, first_pages: Sequence[str]) -> str:
    """The text a document is known by: title, file name (letters and digits apart, "_" and "."
    as spaces: "PEPSICO_2021_10K.pdf" gives pepsico 2021 10 k pdf), first pages."""
    return "\n".join([title, _LETTER_DIGIT.sub(" ", re.sub(r"[_.]", " ", file_name)), *first_pages])


class DocumentProfiles:
    """The profiles of one library generation's documents, as postings (each index term and the
    positions, in doc_ids, of the documents whose profile has it), with each document's cover,
    title words and company."""

    def __init__(
        self,
        profiles: dict[str, str],
        generation: Any = None,
        covers: Mapping[str, Cover] | None = None,
        titles: Mapping[str, str] | None = None,
        files: Mapping[str, str] | None = None,
    ) -> None:
        postings: dict[str, list[int]] = {}
        for position, text in enumerate(profiles.values()):
            for term in dict.fromkeys(tokenize(text)):
                postings.setdefault(term, []).append(position)
        found = [(covers or {}).get(d, Cover()) for d in profiles]
        self._set(
            tuple(profiles), {t: tuple(p) for t, p in postings.items()}, generation, found, titles, files
        )
        self.saved = False

    @classmethod
    def from_postings(
        cls,
        doc_ids: Sequence[str],
        postings: Mapping[str, Sequence[int]],
        generation: Any = None,
        titles: Mapping[str, str] | None = None,
        covers: Sequence[Cover] | None = None,
        files: Mapping[str, str] | None = None,
    ) -> DocumentProfiles:
        """Profiles whose postings and covers are already known (read from the saved copy)."""
        profiles = cls.__new__(cls)
        found = list(covers) if covers is not None else [Cover() for _ in doc_ids]
        postings = {t: tuple(p) for t, p in postings.items()}
        profiles._set(tuple(doc_ids), postings, generation, found, titles, files)
        profiles.saved = True  # read from the library's saved profiles, not built
        return profiles

    @property
    def named_by(self) -> dict[str, set[int]]:
        """Each term of the companies' own names (names_of) and the companies it is in."""
        if self._named_by is None:
            found: dict[str, set[int]] = {}
            for company in set(self.company):
                for name in self.names(company):
                    for term in tokenize(" ".join(w for w in name if w not in ENTITY_WORDS)):
                        found.setdefault(term, set()).add(company)
            self._named_by = found
        return self._named_by

    def _set(
        self,
        doc_ids: tuple[str, ...],
        postings: dict[str, tuple[int, ...]],
        generation: Any,
        covers: Sequence[Cover],
        titles: Mapping[str, str] | None,
        files: Mapping[str, str] | None,
    ) -> None:
        self.generation = generation
        self.doc_ids = doc_ids
        self.postings = postings
        self.covers = tuple(covers)
        self.titles = {d: name_words(t) for d, t in (titles or {}).items()}
        self.files = dict(files or {})
        self.company = company_of(self.covers, [_file_name(self.files.get(d, "")) for d in doc_ids])
        self.position = {d: i for i, d in enumerate(doc_ids)}
        self._named_by: dict[str, set[int]] | None = None

    @property
    def terms(self) -> dict[str, frozenset[str]]:
        """Each document's profile terms, by doc_id."""
        found: dict[str, set[str]] = {d: set() for d in self.doc_ids}
        for term, positions in self.postings.items():
            for i in positions:
                found[self.doc_ids[i]].add(term)
        return {d: frozenset(t) for d, t in found.items()}

    @property
    def df(self) -> Counter[str]:
        """How many profiles have each term."""
        return Counter({t: len(p) for t, p in self.postings.items()})

    def names(self, company: int) -> list[tuple[str, ...]]:
        """The names a company's documents give themselves: the registrants' names and trading
        symbols on their covers, and their file names' words before the first with a digit
        ("JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf": johnson johnson). A PDF's title is no name here:
        many are an editor's ("Microsoft Word - F20_10K_VFinal", "Document")."""
        members = [i for i, c in enumerate(self.company) if c == company]
        found = [name_words(self.covers[i].name) for i in members]
        found += [
            (k.split(":", 1)[1],) for i in members for k in self.covers[i].keys if k.startswith("symbol:")
        ]
        found += [_file_name(self.files.get(self.doc_ids[i], "")) for i in members]
        return list(dict.fromkeys(n for n in found if n))


def _file_name(file_name: str) -> tuple[str, ...]:
    """A file name's words before the first that holds a digit ("acme-10k-fy2023.pdf": acme)."""
    words = []
    for word in re.findall(r"[A-Za-z0-9]+", file_name.rsplit(".", 1)[0]):
        if any(ch.isdigit() for ch in word):
            break
        words.append(word.lower())
    return tuple(words)


def build_profiles(library: LibraryReader, documents: Sequence[Any] | None = None) -> DocumentProfiles:
    """Profiles of every ready document of the library (or of these, read from it just before),
    for its current generation."""
    generation = library.generation
    profiles: dict[str, str] = {}
    titles: dict[str, str] = {}
    files: dict[str, str] = {}
    covers: dict[str, Cover] = {}
    first = library.first_pages(PROFILE_PAGES)
    for doc in library.documents() if documents is None else documents:
        found = [p.text for p in first.get(doc.doc_id, [])]
        profiles[doc.doc_id] = profile_text(doc.title, doc.file_name, found)
        titles[doc.doc_id] = f"{doc.title} {doc.file_name}"
        files[doc.doc_id] = doc.file_name
        covers[doc.doc_id] = read_cover(found)
    return DocumentProfiles(profiles, generation, covers, titles, files)


def profiles_for(library: LibraryReader) -> DocumentProfiles:
    """The profiles of library's current generation: its saved copy when that matches the
    documents, else built (and saved when its cache_dir is a writable folder)."""
    data_dir = library.cache_dir
    if data_dir is None:  # a team library: nowhere to save
        return build_profiles(library)
    generation = library.generation
    documents = library.documents()
    saved = profile_store.load(data_dir, generation, documents, PROFILE_PAGES)
    if saved is not None:
        titles = {d.doc_id: f"{d.title} {d.file_name}" for d in documents}
        files = {d.doc_id: d.file_name for d in documents}
        postings, covers = saved
        ids = [d.doc_id for d in documents]
        return DocumentProfiles.from_postings(ids, postings, generation, titles, covers, files)
    profiles = build_profiles(library, documents)
    if profiles.generation == generation == library.generation:  # nothing added or deleted meanwhile
        profile_store.save(data_dir, generation, documents, PROFILE_PAGES, profiles.postings, profiles.covers)
    return profiles


class ProfileCache:
    """Holds the DocumentProfiles of one library, read or rebuilt when library.generation changes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._profiles: DocumentProfiles | None = None
        self._owner: Any = None

    def get(self, library: LibraryReader) -> DocumentProfiles:
        """The profiles for library's current generation, built if needed."""
        generation = library.generation
        with self._lock:
            found = self._profiles
            if found is None or self._owner is not library or found.generation != generation:
                found = profiles_for(library)
                self._profiles, self._owner = found, library
            return found
