"""bench/docs_dev: the team's questions on the non-filing PDFs are well formed, spread over every
PDF and kind, unlike docs-dev's own questions, and each gold value is printed on one of its gold
pages of ../shared/corpus in both text extractions."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench.docs_dev.check import gold_problems, load_questions, schema_problems
from bench.real_docs import normalize

ROWS = load_questions()


def test_the_set_is_well_formed() -> None:
    assert schema_problems(ROWS) == []


def test_the_set_has_the_size_and_spread_the_issue_asks_for() -> None:
    kinds = Counter(r["kind"] for r in ROWS)
    assert len(ROWS) >= 120
    assert min(kinds[k] for k in ("list", "short-line", "table", "section")) >= 25
    assert kinds["fact"] >= 10 and kinds["unanswerable"] >= 10
    assert len({r["doc_file"] for r in ROWS}) == 26


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"kind": "unanswerable", "answerable": False}, "unanswerable question has gold"),
        ({"kind": "caption"}, "unknown kind"),
        ({"gold_values": []}, "no gold page or value"),
        ({"gold_values": ["6"]}, "too short"),
        ({"answerable": False}, "answerable must be false exactly"),
    ],
)
def test_the_schema_check_reports_a_broken_row(change: dict, expected: str) -> None:
    row = {**ROWS[0], **change, "id": "dd-x-001", "question": "A question no row asks?"}
    problems = schema_problems([ROWS[0], row])
    assert any(expected in p for p in problems), problems


@pytest.mark.corpus
def test_no_question_repeats_a_docs_dev_question(corpus: Path) -> None:
    lines = (corpus / "docs-dev" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    theirs = {normalize(json.loads(line)["question"]) for line in lines if line.strip()}
    assert not theirs & {normalize(r["question"]) for r in ROWS}
    assert {r["doc_file"] for r in ROWS} <= {p.name for p in (corpus / "docs-dev" / "pdfs").glob("*.pdf")}


@pytest.mark.corpus
def test_every_gold_value_is_on_a_gold_page(corpus: Path) -> None:
    assert gold_problems(ROWS) == []


@pytest.mark.corpus
def test_the_gold_check_catches_a_value_off_its_page(corpus: Path) -> None:
    row = next(r for r in ROWS if r["answerable"] and len(r["gold_page_indexes"]) == 1)
    moved = {**row, "gold_page_indexes": [(row["gold_page_indexes"][0] + 1) % 5]}
    assert gold_problems([moved]) != []
