"""Conversations and verdicts behave the same in SQLite and in PostgreSQL (rag.stores.backend chooses)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from rag.stores import postgres as pg_stores
from rag.stores.backend import conversation_store, verdict_store
from rag.stores.serialize import answer_to_dict
from rag.stores.users import LOCAL_USER
from settings import load_settings
from tests.rag.test_conversations import _answer

_ANSWER_JSON = json.dumps(answer_to_dict(_answer("Old?")))


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


def test_a_user_never_sees_or_changes_another_users_conversations(settings) -> None:
    shared = conversation_store(settings, settings.data_dir / "c.sqlite3")
    alice, bob = shared.for_user("alice@example.com"), shared.for_user("bob@example.com")
    conv = alice.create()
    turn = alice.add_turn(conv, _answer("What did Alice ask?"))
    alice.set_model(conv, "alpha-7b")
    own = bob.create()
    bob.add_turn(own, _answer("What did Bob ask?"))

    assert [i.conv_id for i in bob.list_recent()] == [own]
    assert [t.answer.question for t in bob.all_turns()] == ["What did Bob ask?"]
    assert not bob.exists(conv) and bob.turns(conv) == [] and bob.get_turn(turn.turn_id) is None
    assert bob.model(conv) == ""
    bob.set_model(conv, "beta-13b")  # another user's id: left as it is
    bob.delete(conv)
    with pytest.raises(LookupError):
        bob.add_turn(conv, _answer("Bob writes into Alice's chat"))
    assert [t.answer.question for t in alice.turns(conv)] == ["What did Alice ask?"]
    assert alice.model(conv) == "alpha-7b" and [i.conv_id for i in alice.list_recent()] == [conv]
    assert shared.list_recent() == [] and shared.users() == ["alice@example.com", "bob@example.com"]


def test_a_user_never_sees_or_changes_another_users_verdicts(settings) -> None:
    shared = verdict_store(settings, settings.data_dir / "audit.sqlite3")
    alice, bob = shared.for_user("alice@example.com"), shared.for_user("bob@example.com")
    key = ("alice-turn", 1, 0)
    alice.save(key, "abc1234", "supported", note="p. 3")
    bob.save(("bob-turn", 1, 0), "def5678", "not_supported")

    assert [v.key for v in bob.all()] == [("bob-turn", 1, 0)] and bob.get(key) is None
    assert set(bob.by_key()) == {("bob-turn", 1, 0)} and not bob.set_note(key, "mine now")
    bob.clear(key)
    with pytest.raises(LookupError):
        bob.save(key, "abc1234", "wrong_location")
    assert (alice.get(key).verdict, alice.get(key).note) == ("supported", "p. 3")
    assert [v.key for v in alice.all()] == [key]
    alice.put_cosines("fake:hash:384", {"p1": 0.5})  # derived from shared texts: one cache for all
    assert bob.get_cosines("fake:hash:384", ["p1"]) == {"p1": 0.5}


def test_blank_user_ids_are_refused(settings) -> None:
    store = conversation_store(settings, settings.data_dir / "c.sqlite3")
    for bad in ("", "   ", "x" * 256):
        with pytest.raises(ValueError, match="user id"):
            store.for_user(bad)


def _sqlite_before_users(settings) -> None:
    """The files as the previous Footnote left them (conversations v2, verdicts v1), with one row each."""
    from ingest.local.schema import open_store
    from rag.stores import conversations
    from rag.stores import verdicts as audit_store

    open_store(settings.data_dir / "c.sqlite3", conversations.MIGRATIONS[:2])
    open_store(settings.data_dir / "audit.sqlite3", audit_store.MIGRATIONS[:1])
    with sqlite3.connect(settings.data_dir / "c.sqlite3") as db:
        db.execute("INSERT INTO conversations VALUES ('old1', 'Old chat', 't0', 't0', 'm1')")
        db.execute("INSERT INTO turns VALUES ('turn1', 'old1', 0, 'Old?', ?, 't0')", (_ANSWER_JSON,))
    with sqlite3.connect(settings.data_dir / "audit.sqlite3") as db:
        db.execute("INSERT INTO audit_verdicts VALUES ('turn1', 1, 0, 'abc1234', 'supported', '', 't0')")


def _postgres_before_users(settings) -> None:
    """The tables as the previous Footnote made them (its schema had no user columns), one row each."""
    import psycopg

    before = pg_stores.SCHEMA.split("-- Who")[0]
    assert "user_id" not in before
    with psycopg.connect(settings.database_url.get_secret_value()) as db:
        for statement in (s.strip() for s in before.split(";")):
            if statement:
                db.execute(statement)
        db.execute(
            "INSERT INTO footnote_conversations VALUES ('old1', DEFAULT, 'Old chat', 't0', 't0', 'm1')"
        )
        db.execute(
            "INSERT INTO footnote_turns VALUES ('turn1', 'old1', 0, 'Old?', %s, 't0')", (_ANSWER_JSON,)
        )
        db.execute(
            "INSERT INTO footnote_verdicts VALUES ('turn1', 1, 0, DEFAULT, 'abc1234', 'supported', '', 't0')"
        )


def test_what_was_there_before_users_belongs_to_the_local_user(settings) -> None:
    (_postgres_before_users if settings.database_url else _sqlite_before_users)(settings)
    chats = conversation_store(settings, settings.data_dir / "c.sqlite3")
    verdicts = verdict_store(settings, settings.data_dir / "audit.sqlite3")
    assert chats.user == LOCAL_USER and [i.conv_id for i in chats.list_recent()] == ["old1"]
    assert [t.turn_id for t in chats.turns("old1")] == ["turn1"] and chats.model("old1") == "m1"
    assert [v.key for v in verdicts.all()] == [("turn1", 1, 0)]
    assert chats.for_user("alice@example.com").list_recent() == []
    assert verdicts.for_user("alice@example.com").all() == []
    chats.add_turn("old1", _answer("Still mine?"))  # the local user goes on writing to it
    assert len(conversation_store(settings, settings.data_dir / "c.sqlite3").turns("old1")) == 2
