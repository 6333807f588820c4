"""The BM25 index saved with the library: used when it matches, ignored after a change, rebuilt when damaged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rag.retrieval import lexical, lexical_store
from rag.retrieval.lexical import LexicalCache, LexicalIndex
from tests.rag.conftest import ENGINES, GARDEN, make_pdf, open_hash_library

QUERIES = ["compost heap", "steam engine coal", "greenhouse windows", "tomato basil", "diesel spark"]


def _no_build(chunks):
    raise AssertionError("the saved index should have been used, not a new build")


def _keys(library) -> list[tuple[str, int, int]]:
    return [(chunk_id, context_len, text_len) for chunk_id, _, context_len, text_len in library.chunk_keys()]


def _results(index: LexicalIndex) -> list[list[tuple[str, float]]]:
    return [[(c.chunk_id, round(s, 5)) for c, s in index.search(q, 10)] for q in QUERIES]


@pytest.fixture
def library(tmp_path: Path):
    library = open_hash_library(tmp_path / "lib")
    library.add_pdf(make_pdf(GARDEN, "Garden"), "garden.pdf")
    return library


def _filtered(index: LexicalIndex, doc_ids: list[str]) -> list[list[str]]:
    return [[c.chunk_id for c, _ in index.search(q, 10, doc_ids=doc_ids)] for q in QUERIES]


def test_a_saved_index_is_used_for_its_generation_and_equals_a_fresh_build(library, monkeypatch) -> None:
    library.add_pdf(make_pdf(ENGINES, "Engines"), "engines.pdf")
    engines = [next(d.doc_id for d in library.documents() if d.title == "Engines")]
    built = LexicalIndex.for_library(library)
    fresh = _results(LexicalIndex(library.chunks()))
    fresh_filtered = _filtered(LexicalIndex(library.chunks()), engines)
    assert not built.saved
    assert (lexical_store.folder_for(library.data_dir, library.generation) / lexical_store.META).is_file()
    monkeypatch.setattr(lexical, "build_bm25", _no_build)
    monkeypatch.setattr(library, "chunks", _no_build)  # a saved index reads only the rows it returns
    reopened = LexicalCache().get(library)
    assert reopened.saved
    assert _results(reopened) == _results(built) == fresh
    assert _filtered(reopened, engines) == fresh_filtered and any(fresh_filtered)
    assert any(fresh)


@pytest.mark.parametrize("change", ["add", "delete"])
def test_the_saved_index_is_ignored_after_an_add_or_delete(library, change: str) -> None:
    LexicalIndex.for_library(library)
    old = library.generation
    if change == "add":
        library.add_pdf(make_pdf(ENGINES, "Engines"), "engines.pdf")
    else:
        library.add_pdf(make_pdf(ENGINES, "Engines"), "engines.pdf")
        LexicalIndex.for_library(library)
        library.delete(next(d.doc_id for d in library.documents() if d.title == "Engines"))
    after = LexicalIndex.for_library(library)
    assert not after.saved
    assert _results(after) == _results(LexicalIndex(library.chunks()))
    assert lexical_store.folder_for(library.data_dir, library.generation).is_dir()
    assert not lexical_store.folder_for(library.data_dir, old).exists()  # older generations are removed


def test_a_folder_from_another_generation_is_never_used(library, tmp_path: Path) -> None:
    LexicalIndex.for_library(library)
    library.add_pdf(make_pdf(ENGINES, "Engines"), "engines.pdf")
    # Pretend the old generation's files were saved under the new generation's name.
    other = open_hash_library(tmp_path / "other")
    other.add_pdf(make_pdf(GARDEN, "Garden"), "garden.pdf")
    LexicalIndex.for_library(other)
    source = lexical_store.folder_for(other.data_dir, other.generation)
    target = lexical_store.folder_for(library.data_dir, library.generation)
    target.parent.mkdir(exist_ok=True)
    source.rename(target)
    assert lexical_store.load(library.data_dir, library.generation, _keys(library)) is None
    assert not LexicalIndex.for_library(library).saved


@pytest.mark.parametrize(
    "damage",
    ["params.index.json", "indices.csc.index.npy", "vocab.index.json", lexical_store.META, "missing"],
)
def test_a_corrupt_saved_index_is_rebuilt_not_a_crash(library, damage: str) -> None:
    fresh = _results(LexicalIndex.for_library(library))
    folder = lexical_store.folder_for(library.data_dir, library.generation)
    if damage == "missing":
        (folder / "data.csc.index.npy").unlink()
    else:
        path = folder / damage
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    again = LexicalIndex.for_library(library)
    assert not again.saved
    assert _results(again) == fresh
    assert LexicalIndex.for_library(library).saved  # the rebuilt index was saved in its place


def test_indices_past_the_last_chunk_are_refused(library) -> None:
    import numpy as np

    LexicalIndex.for_library(library)
    folder = lexical_store.folder_for(library.data_dir, library.generation)
    indices = np.load(folder / "indices.csc.index.npy")
    np.save(folder / "indices.csc.index.npy", indices + len(library.chunks()))
    assert lexical_store.load(library.data_dir, library.generation, _keys(library)) is None


def test_nothing_is_pickled(library) -> None:
    LexicalIndex.for_library(library)
    folder = lexical_store.folder_for(library.data_dir, library.generation)
    for path in folder.iterdir():
        if path.suffix == ".npy":
            import numpy as np

            np.load(path, allow_pickle=False)  # raises for an object (pickled) array
        else:
            assert path.suffix == ".json", path
            json.loads(path.read_text(encoding="utf-8"))


def test_a_read_only_folder_builds_in_memory(library, monkeypatch) -> None:
    monkeypatch.setattr(lexical_store.os, "access", lambda *_: False)
    index = LexicalIndex.for_library(library)
    assert not index.saved and any(_results(index))
    assert not (library.data_dir / lexical_store.FOLDER).exists()


def test_a_saved_index_from_before_a_stem_was_joined_is_rebuilt(library, monkeypatch) -> None:
    """A stem joined in rag.text.JOINED changes what BM25 indexes, so an index saved without it is
    not used (its signature holds the joined stems)."""
    LexicalIndex.for_library(library)
    assert LexicalCache().get(library).saved
    # a stem no text here holds: stem()'s cache must not keep a joined value past this test
    monkeypatch.setitem(lexical_store.JOINED, "xyzzyq", "plughq")
    assert not LexicalCache().get(library).saved
