"""bench answer_check's grouping of squad-dev questions by article."""

from __future__ import annotations

from bench.answer_check import ARTICLES, by_article


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
