"""Conversations and verdicts behave the same in SQLite and in PostgreSQL (rag.backend chooses)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.backend import conversation_store, verdict_store
from settings import load_settings
from tests.rag.test_conversations import _answer


@pytest.fixture(params=["local", "postgres"])
def settings(request: pytest.FixtureRequest, tmp_path: Path):
    url = request.getfixturevalue("pg_url") if request.param == "postgres" else None
    return load_settings(data_dir=tmp_path, database_url=url)


def test_conversation_round_trip_across_instances(settings) -> None:
    store = conversation_store(settings, settings.data_dir / "c.sqlite3")
    conv = store.create()
    first = store.add_turn(conv, _answer("What is it?"))
    store.add_turn(conv, _answer("And then?"))
    other = conversation_store(settings, settings.data_dir / "c.sqlite3")  # another app instance
    turns = other.turns(conv)
    assert [t.index for t in turns] == [0, 1] and turns[0].answer == first.answer
    assert turns[0].answer.footnotes[0].evidence.page_end_label == "iv"
    assert other.get_turn(first.turn_id) == turns[0] and other.exists(conv)
    [info] = other.list_recent()
    assert (info.conv_id, info.title, info.turns) == (conv, "What is it?", 2)
    assert [t.turn_id for t in other.all_turns()] == [t.turn_id for t in turns]
    empty = other.create()
    assert [i.conv_id for i in other.list_recent()] == [conv]  # no turns, not listed
    store.delete(conv)
    assert other.turns(conv) == [] and other.get_turn(first.turn_id) is None and other.exists(empty)


def test_a_conversation_remembers_its_model_on_both_backends(settings) -> None:
    store = conversation_store(settings, settings.data_dir / "c.sqlite3")
    conv = store.create()
    assert store.model(conv) == "" and store.model("no-such-id") == ""
    store.set_model(conv, "beta-13b")
    store.set_model("picked-first", "alpha-7b")  # picked before the first question: created
    other = conversation_store(settings, settings.data_dir / "c.sqlite3")
    assert (other.model(conv), other.model("picked-first")) == ("beta-13b", "alpha-7b")
    assert other.exists("picked-first")


def test_verdict_round_trip(settings) -> None:
    store = verdict_store(settings, settings.data_dir / "audit.sqlite3")
    key, later = ("t1", 1, 0), ("t2", 2, 1)
    store.save(key, "abc1234", "supported", note="checked p. 3")
    assert store.save(key, "abc1234", "not_supported").note == "checked p. 3"
    store.save(later, "def5678", "wrong_location")
    other = verdict_store(settings, settings.data_dir / "audit.sqlite3")
    assert [(v.key, v.verdict) for v in other.all()] == [(key, "not_supported"), (later, "wrong_location")]
    assert other.set_note(later, "page 9") and not other.set_note(("t3", 1, 0), "x")
    assert set(other.by_key(["t2"])) == {later} and other.get(later).note == "page 9"
    other.clear(key)
    assert store.get(key) is None
    with pytest.raises(ValueError, match="unknown verdict"):
        store.save(key, "abc1234", "maybe")
    store.put_cosines("fake:hash:384", {"p1": 0.5, "p2": 0.25})
    store.put_cosines("fake:hash:384", {"p1": 0.75})
    assert other.get_cosines("fake:hash:384", ["p1", "p2", "p3"]) == {"p1": 0.75, "p2": 0.25}
