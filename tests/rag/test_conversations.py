"""Conversations survive a reopen and render from their saved evidence snapshot."""

from pathlib import Path

from ingest.types import PageLocator
from rag.citations.parser import citation_spans
from rag.citations.table import resolve
from rag.stores.conversations import ConversationStore
from rag.types import Answer, AnswerMetrics, Evidence


def _answer(question: str) -> Answer:
    ev = Evidence(
        "abc1234",
        "abc1234" + "0" * 57,
        "d" * 64,
        "A <b>title</b>",
        "a.pdf",
        "Text.",
        0.5,
        (PageLocator(2, "iii", 10, 40), PageLocator(3, "iv", 0, 12)),
    )
    text = "Claim [abc1234]. Made up [zzz9999]."
    res = resolve(citation_spans(text), [ev])
    return Answer(
        question,
        text,
        res.footnotes,
        res.unresolved,
        (ev,),
        AnswerMetrics(2, 1, 2, 1),
        provider="offline extractive mode",
    )


def test_turns_round_trip_across_reopen(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path / "chats.sqlite3")
    conv = store.create()
    first = store.add_turn(conv, _answer("What is it?"))
    store.add_turn(conv, _answer("And then?"))

    reopened = ConversationStore(tmp_path / "chats.sqlite3")
    turns = reopened.turns(conv)
    assert [t.index for t in turns] == [0, 1]
    assert turns[0].answer == first.answer
    assert turns[0].answer.footnotes[0].evidence.page_end_label == "iv"
    assert turns[0].answer.unresolved == ("zzz9999",)
    assert reopened.get_turn(first.turn_id) == turns[0]
    [info] = reopened.list_recent()
    assert (info.conv_id, info.title, info.turns) == (conv, "What is it?", 2)


def test_empty_conversations_are_not_listed_and_delete_cascades(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path / "c.sqlite3")
    empty = store.create()
    used = store.create()
    store.add_turn(used, _answer("Q"))
    assert [c.conv_id for c in store.list_recent()] == [used]
    assert store.exists(empty)
    store.delete(used)
    assert store.turns(used) == [] and store.all_turns() == []


def test_the_picked_model_is_remembered_per_conversation(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    store = ConversationStore(path)
    first, second = store.create("one"), store.create("two")
    store.set_model(first, "llama3:8b")
    store.set_model("not-yet-created", "qwen2.5:7b")  # a new chat picks before its first question
    reopened = ConversationStore(path)
    assert reopened.model(first) == "llama3:8b" and reopened.model(second) == ""
    assert reopened.model("not-yet-created") == "qwen2.5:7b" and reopened.model("missing") == ""


def test_a_version_1_file_gains_the_model_column(tmp_path: Path) -> None:
    import sqlite3

    from rag.stores.conversations import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # a file written before conversations had a model
        db.executescript(MIGRATIONS[0])
        db.execute("INSERT INTO conversations VALUES ('c1', 'Fog', 't', 't')")
        db.execute("PRAGMA user_version = 1")
    store = ConversationStore(path)
    assert store.model("c1") == ""
    store.set_model("c1", "mistral")
    assert store.model("c1") == "mistral" and [c.conv_id for c in store.list_recent()] == []
