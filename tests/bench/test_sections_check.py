"""bench/sections_check: the section questions on the topology book are well formed, and each gold
title is printed in the book: a title question's on its gold page, a subsection's on a page of the
chapter its question names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pypdf import PdfReader

from bench.real_docs import normalize
from bench.sections_check.__main__ import BOOK, QUESTIONS

ROWS = [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_questions_are_well_formed() -> None:
    assert len(ROWS) >= 12 and len({r["id"] for r in ROWS}) == len(ROWS)
    for row in ROWS:
        assert row["doc_file"] == BOOK.name and row["kind"] == "section" and row["answerable"] is True
        assert row["gold_page_indexes"] and row["gold_values"]


@pytest.mark.corpus
def test_each_gold_title_is_printed_where_the_question_says(corpus: Path) -> None:
    texts = [
        normalize(page.extract_text() or "")
        for page in PdfReader(corpus / "sample-files" / BOOK.parent.name / BOOK.name).pages
    ]
    for row in ROWS:
        first = row["gold_page_indexes"][0]
        # a title on its gold page; a subsection within the chapter's next 20 pages
        pages = texts[first : first + 1] if len(row["gold_values"]) == 1 else texts[first : first + 20]
        for value in row["gold_values"]:
            assert any(normalize(value) in text for text in pages), (row["id"], value)
