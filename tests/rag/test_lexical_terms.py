"""Each chunk's BM25 terms kept with the library: a new generation's index tokenizes only its new
chunks, and ranks exactly as a full rebuild does (adds, a deletion, another tokenizer, damage)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ingest.pdf.context import indexed_text
from rag.retrieval import lexical_store, lexical_terms
from rag.retrieval.lexical import LexicalIndex
from rag.text import tokenize
from tests.rag.conftest import GARDEN, make_pdf, open_hash_library

SQUAD = ("Normans.pdf", "Southern_California.pdf", "Computational_complexity_theory.pdf")
QUERIES = [
    "Normans Normandy Rollo",
    "Southern California Los Angeles",
    "complexity class polynomial time",
    "compost heap tomatoes",
    "the 10th century",
]


def _ranked(index: LexicalIndex, library) -> list[list[tuple[str, float]]]:
    docs = [d.doc_id for d in library.documents()][:1]
    every = [[(c.chunk_id, s) for c, s in index.search(q, 50)] for q in QUERIES]
    within = [[(c.chunk_id, s) for c, s in index.search(q, 50, doc_ids=docs)] for q in QUERIES]
    return every + within + [sorted(index.scores(q, docs).items()) for q in QUERIES]


def _full(library) -> list[list[tuple[str, float]]]:
    return _ranked(LexicalIndex(library.chunks()), library)


def _fresh(library) -> LexicalIndex:
    """The index as a new generation builds it: the saved index is of an older generation."""
    for folder in (library.data_dir / lexical_store.FOLDER).glob("[0-9]*"):
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    return LexicalIndex.for_library(library)


@pytest.fixture
def counted(monkeypatch) -> list[int]:
    """How many chunks were tokenized (lexical_terms.terms_of calls)."""
    calls: list[int] = []
    real = lexical_terms.terms_of

    def counting(context: str, text: str) -> list[str]:
        calls.append(1)
        return real(context, text)

    monkeypatch.setattr(lexical_terms, "terms_of", counting)
    return calls


def _kept(library) -> set[str]:
    path = library.data_dir / lexical_store.FOLDER / lexical_terms.FILE
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT chunk_id FROM terms")}


def test_kept_terms_give_the_full_rebuilds_ranking_through_adds_and_a_deletion(
    tmp_path: Path, corpus: Path, counted: list[int]
) -> None:
    library = open_hash_library(tmp_path / "lib")
    pdfs = [(corpus / "squad-dev" / "pdfs" / name).read_bytes() for name in SQUAD]
    library.add_pdf(pdfs[0], SQUAD[0])
    library.add_pdf(make_pdf(GARDEN, "Garden"), "garden.pdf")
    first = LexicalIndex.for_library(library)
    assert len(counted) == library.chunk_count()
    assert _ranked(first, library) == _full(library)
    for data, name in zip(pdfs[1:], SQUAD[1:]):
        before = library.chunk_count()
        counted.clear()
        library.add_pdf(data, name)
        built = _fresh(library)
        assert len(counted) == library.chunk_count() - before  # only the new document's chunks
        assert _ranked(built, library) == _full(library)
    normans = next(d.doc_id for d in library.documents() if d.file_name == SQUAD[0])
    library.delete(normans)
    counted.clear()
    after = _fresh(library)
    assert not counted  # a deletion tokenizes nothing
    assert _ranked(after, library) == _full(library)
    assert sum(len(r) for r in _ranked(after, library)) > 20
    assert _kept(library) == {c.chunk_id for c in library.chunks()}  # the deleted chunks' rows went


def test_terms_of_another_tokenizer_or_a_damaged_file_are_not_used(
    tmp_path: Path, monkeypatch, counted: list[int]
) -> None:
    library = open_hash_library(tmp_path / "lib")
    library.add_pdf(make_pdf(GARDEN, "Garden"), "garden.pdf")
    expected = _full(library)
    _fresh(library)
    counted.clear()
    monkeypatch.setattr(lexical_terms, "tokenizer_signature", lambda: "another tokenizer")
    rebuilt = _fresh(library)
    assert len(counted) == library.chunk_count()  # all tokenized again, and kept under the new signature
    assert _ranked(rebuilt, library) == expected
    counted.clear()
    _fresh(library)
    assert not counted
    path = library.data_dir / lexical_store.FOLDER / lexical_terms.FILE
    path.write_bytes(b"not a database" * 100)
    assert _ranked(_fresh(library), library) == expected
    counted.clear()
    assert _ranked(_fresh(library), library) == expected
    assert not counted  # the damaged file was replaced by a good one


def test_kept_terms_are_what_the_tokenizer_gives(tmp_path: Path) -> None:
    library = open_hash_library(tmp_path / "lib")
    library.add_pdf(make_pdf(GARDEN, "Garden"), "garden.pdf")
    words = library.chunk_words()
    lexical_terms.terms_for(library.data_dir, words)
    again = lexical_terms.terms_for(library.data_dir, words)
    assert again == [tokenize(indexed_text(context, text)) for _, _, context, text in words]
    assert any(again)
