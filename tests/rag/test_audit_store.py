"""Verdicts in SQLite: upsert, notes, clearing, survival across reopening, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.stores.verdicts import VerdictStore


def test_verdicts_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "audit.sqlite3"
    store = VerdictStore(path)
    store.save(("t1", 1, 0), "wat1234", "supported", "clear match")
    store.save(("t1", 2, 0), "ice5678", "wrong_location")
    reopened = VerdictStore(path)
    found = reopened.by_key()
    assert set(found) == {("t1", 1, 0), ("t1", 2, 0)}
    assert (found[("t1", 1, 0)].verdict, found[("t1", 1, 0)].note) == ("supported", "clear match")
    assert found[("t1", 2, 0)].note == ""
    assert found[("t1", 1, 0)].updated_at


def test_save_replaces_and_keeps_the_note_unless_given(tmp_path: Path) -> None:
    store = VerdictStore(tmp_path / "audit.sqlite3")
    store.save(("t1", 1, 0), "wat1234", "supported", "first look")
    again = store.save(("t1", 1, 0), "wat1234", "partially_supported")
    assert (again.verdict, again.note) == ("partially_supported", "first look")
    third = store.save(("t1", 1, 0), "wat1234", "not_supported", "")
    assert (third.verdict, third.note) == ("not_supported", "")
    assert len(store.all()) == 1


def test_notes_and_clearing(tmp_path: Path) -> None:
    store = VerdictStore(tmp_path / "audit.sqlite3")
    assert store.set_note(("t1", 1, 0), "nothing to annotate") is False
    store.save(("t1", 1, 0), "wat1234", "supported")
    assert store.set_note(("t1", 1, 0), "page 3, second paragraph") is True
    assert store.get(("t1", 1, 0)).note == "page 3, second paragraph"
    store.clear(("t1", 1, 0))
    assert store.get(("t1", 1, 0)) is None and store.all() == []


def test_by_key_filters_by_turn(tmp_path: Path) -> None:
    store = VerdictStore(tmp_path / "audit.sqlite3")
    store.save(("t1", 1, 0), "a", "supported")
    store.save(("t2", 1, 0), "b", "supported")
    assert set(store.by_key(["t2"])) == {("t2", 1, 0)}


def test_unknown_verdict_is_refused_and_nothing_is_lost(tmp_path: Path) -> None:
    store = VerdictStore(tmp_path / "audit.sqlite3")
    store.save(("t1", 1, 0), "a", "supported")
    with pytest.raises(ValueError, match="unknown verdict 'great'"):
        store.save(("t1", 1, 0), "a", "great")
    assert store.get(("t1", 1, 0)).verdict == "supported"


def test_a_file_that_is_not_a_database_is_named(tmp_path: Path) -> None:
    path = tmp_path / "audit.sqlite3"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(ValueError, match=r"audit\.sqlite3 is not a usable verdict database"):
        VerdictStore(path)
    assert path.read_bytes().startswith(b"this is not sqlite")
