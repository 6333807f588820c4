"""Conversations survive a reopen and render from their saved evidence snapshot."""

from pathlib import Path

from ingest.types import PageLocator
from rag.citations import citation_spans, resolve
from rag.conversations import ConversationStore
from rag.types import Answer, AnswerMetrics, Evidence


def _answer(question: str) -> Answer:
    ev = Evidence("abc1234", "abc1234" + "0" * 57, "d" * 64, "A <b>title</b>", "a.pdf", "Text.", 0.5,
                  (PageLocator(2, "iii", 10, 40), PageLocator(3, "iv", 0, 12)))
    text = "Claim [abc1234]. Made up [zzz9999]."
    res = resolve(citation_spans(text), [ev])
    return Answer(question, text, res.footnotes, res.unresolved, (ev,), AnswerMetrics(2, 1, 2, 1),
                  provider="offline extractive mode")


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
