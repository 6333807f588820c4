"""bench answer_check's grouping of squad-dev questions by article."""

from __future__ import annotations

from bench.answer_check import ARTICLES, by_article
from rag.offline.check import OFF


def test_questions_are_grouped_by_their_article_in_order() -> None:
    questions = [
        {"id": "a", "title": "Southern_California"},
        {"id": "b", "title": "Normans"},
        {"id": "c", "title": "Normans"},
        {"id": "d", "title": "Computational_complexity_theory"},
    ]
    groups = by_article(questions)
    assert [label for label, _ in groups] == [label for _, label in ARTICLES]
    assert [[q["id"] for q in group] for _, group in groups] == [["b", "c"], ["d"], ["a"]]


def test_off_topic_questions_are_judged_unanswerable_and_counted_when_declined() -> None:
    from bench.answer_check import OFF_TOPIC, measure, off_topic_questions
    from rag.questions.read import read_question
    from rag.retrieval.retrieve import Retrieval

    questions = off_topic_questions()
    assert [q["question"] for q in questions] == list(OFF_TOPIC)
    assert len({q["id"] for q in questions}) == len(OFF_TOPIC)
    read = [read_question(q["question"]) for q in questions[:3]]
    figures = measure(questions[:3], read, [Retrieval(evidence=())] * 3, None, OFF)
    assert figures["unanswerable"] == 3 and figures["answerable"] == 0
    assert figures["not_in_documents"] == 1.0 and figures["answered_unanswerable"] == 0.0
