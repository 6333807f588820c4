"""The document profiles saved with the library: used when they match, ignored after a change,
rebuilt (and the library still answers) when the saved file is damaged."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from rag.questions.read import read_question
from rag.retrieval.documents import pick_documents
from rag.retrieval.filings import profile_store, profiles
from rag.retrieval.filings.profiles import PROFILE_PAGES, ProfileCache, build_profiles, profiles_for
from rag.retrieval.retrieve import search_evidence
from tests.rag.conftest import make_pdf, open_hash_library

COMPANIES = ["Ashcombe Mills", "Bellhaven Foods", "Corrigan Steel", "Dunmore Textiles", "Elsworth Paper"]
BODY = "Purchases of property and equipment were 249 in the year, mainly for new packaging lines. " * 3
QUESTION = "What did Corrigan Steel spend on equipment?"


def _no_reading(*_args, **_kwargs):
    raise AssertionError("the saved profiles should have been used, not built from the pages")


@pytest.fixture
def library(tmp_path: Path):
    library = open_hash_library(tmp_path / "lib")
    for i, name in enumerate(COMPANIES):
        cover = f"{name}, Inc.\nAnnual Report on Form 10-K\nFor the fiscal year ended December 31, 2023"
        library.add_pdf(make_pdf([cover, BODY], f"Form 10-K {i}"), f"report-{i}.pdf")
    return library


def _saved(library) -> Path:
    return profile_store.path_for(library.data_dir, library.generation)


def _corrigan(library) -> str:
    return next(d.doc_id for d in library.documents() if d.file_name == "report-2.pdf")


def test_saved_profiles_are_used_for_their_generation_and_equal_a_fresh_build(library, monkeypatch) -> None:
    built = profiles_for(library)
    assert not built.saved and _saved(library).is_file()
    fresh = build_profiles(library)
    pages = library.pages
    monkeypatch.setattr(library, "first_pages", _no_reading)
    monkeypatch.setattr(library, "pages", _no_reading)
    reopened = ProfileCache().get(library)
    assert reopened.saved
    assert reopened.terms == built.terms == fresh.terms and reopened.df == fresh.df
    pick = pick_documents(reopened, read_question(QUESTION))
    assert pick is not None and pick.doc_ids == (_corrigan(library),)
    # The page stage reads the picked document's pages (rag.retrieval.page_stage); the profiles still may
    # not be built from the first pages.
    monkeypatch.setattr(library, "pages", pages)
    assert search_evidence(library, read_question(QUESTION), k=3, profiles=ProfileCache()).picked == (
        _corrigan(library),
    )


@pytest.mark.parametrize("change", ["add", "delete"])
def test_saved_profiles_follow_an_add_or_delete(library, change: str) -> None:
    profiles_for(library)
    old = library.generation
    if change == "add":
        library.add_pdf(make_pdf(["Glenhurst Ltd annual report", BODY], "Glenhurst"), "glenhurst.pdf")
    else:
        library.delete(_corrigan(library))
    after = profiles_for(library)
    assert not after.saved
    assert after.terms == build_profiles(library).terms
    assert set(after.terms) == {d.doc_id for d in library.documents()}
    assert _saved(library).is_file()
    assert not profile_store.path_for(library.data_dir, old).exists()  # older generations are removed
    assert profiles_for(library).saved


def test_a_file_from_another_library_at_the_same_generation_is_never_used(library, tmp_path: Path) -> None:
    other = open_hash_library(tmp_path / "other")
    for i in range(library.generation):
        other.add_pdf(make_pdf([f"Other report {i}", BODY], f"Other {i}"), f"other-{i}.pdf")
    assert other.generation == library.generation
    profiles_for(other)
    _saved(library).parent.mkdir(exist_ok=True)
    _saved(other).rename(_saved(library))
    assert (
        profile_store.load(library.data_dir, library.generation, library.documents(), PROFILE_PAGES) is None
    )
    found = profiles_for(library)
    assert not found.saved and found.terms == build_profiles(library).terms


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _rewrite(change):
    def damage(path: Path) -> None:
        saved = json.loads(path.read_text(encoding="utf-8"))
        change(saved)
        path.write_text(json.dumps(saved), encoding="utf-8")

    return damage


def _drop_one(saved: dict) -> None:
    saved["docs"].pop()


def _first(saved: dict) -> str:
    return next(iter(saved["postings"]))


DAMAGE = {
    "truncated": _truncate,
    "empty": lambda path: path.write_bytes(b""),
    "not utf-8": lambda path: path.write_bytes(b"\xff\xfe\x00garbage"),
    "not an object": lambda path: path.write_text("[1, 2, 3]"),
    "nested too deep": lambda path: path.write_text("[" * 100_000 + "]" * 100_000),
    "a document missing": _rewrite(_drop_one),
    "documents reordered": _rewrite(lambda saved: saved["docs"].reverse()),
    "positions not numbers": _rewrite(lambda saved: saved["postings"].update({_first(saved): ["a"]})),
    "a position past the last document": _rewrite(
        lambda saved: saved["postings"].update({_first(saved): [len(saved["docs"])]})
    ),
    "positions repeated": _rewrite(lambda saved: saved["postings"].update({_first(saved): [0, 0]})),
    "a term without documents": _rewrite(lambda saved: saved["postings"].update({_first(saved): []})),
    "postings not a mapping": _rewrite(lambda saved: saved.update(postings="everything")),
    "no postings": _rewrite(lambda saved: saved.pop("postings")),
    "a folder in its place": lambda path: (path.unlink(), path.mkdir()),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_file_is_rebuilt_not_a_crash(library, damage: str, caplog) -> None:
    fresh = profiles_for(library).terms
    DAMAGE[damage](_saved(library))
    with caplog.at_level(logging.INFO, logger=profile_store.__name__):
        again = ProfileCache().get(library)
    assert not again.saved and again.terms == fresh
    folder = damage == "a folder in its place"  # nothing to read, and nowhere to save: stays in memory
    assert ("could not save" if folder else "rebuilding them") in caplog.text
    assert search_evidence(library, read_question(QUESTION), k=3, profiles=ProfileCache()).picked == (
        _corrigan(library),
    )
    if not folder:
        assert profiles_for(library).saved  # the rebuilt profiles were saved in its place


def test_an_empty_library_reads_its_saved_profiles_too(tmp_path: Path) -> None:
    empty = open_hash_library(tmp_path / "empty")
    assert not profiles_for(empty).saved
    again = profiles_for(empty)
    assert again.saved and pick_documents(again, read_question(QUESTION)) is None


def test_the_file_is_plain_json(library) -> None:
    profiles_for(library)
    saved = json.loads(_saved(library).read_text(encoding="utf-8"))
    assert (
        set(saved) == {"meta", "docs", "postings", "covers"}
        and saved["meta"]["generation"] == library.generation
    )
    assert saved["docs"] == [d.doc_id for d in library.documents()]
    assert all(isinstance(i, int) for positions in saved["postings"].values() for i in positions)


def test_a_read_only_folder_keeps_the_profiles_in_memory(library, monkeypatch) -> None:
    monkeypatch.setattr(profile_store.os, "access", lambda *_: False)
    found = profiles_for(library)
    assert not found.saved and pick_documents(found, read_question(QUESTION)) is not None
    assert not (library.data_dir / profile_store.FOLDER).exists()


def test_profiles_are_not_saved_when_the_library_changed_while_they_were_built(library, monkeypatch) -> None:
    real = profiles.build_profiles

    def build_then_add(lib, docs=None):
        built = real(lib, docs)
        lib.add_pdf(make_pdf(["Glenhurst Ltd annual report", BODY], "Glenhurst"), "glenhurst.pdf")
        return built

    monkeypatch.setattr(profiles, "build_profiles", build_then_add)
    before = library.generation
    profiles_for(library)
    assert not profile_store.path_for(library.data_dir, before).exists()
    assert not profile_store.path_for(library.data_dir, library.generation).exists()
