"""Every audit metric on hand-made turns with known answers."""

from __future__ import annotations

import pytest

from rag.audit.metrics import audit_metrics, count_answer
from rag.audit.records import SupportScore, citation_records, score_records
from rag.stores.verdicts import Verdict
from rag.types import AnswerMetrics
from tests.rag.test_audit_fixtures import (
    EV_WATER,
    boiling_answer,
    make_answer,
    make_turn,
    migration_answer,
)


def _turns() -> list:
    return [make_turn(boiling_answer(), "t1", "c1"), make_turn(migration_answer(), "t2", "c2", 0)]


def _verdicts() -> dict:
    found = [
        Verdict("t1", 1, 0, "wat1234", "supported"),  # automatic: high -> agrees
        Verdict("t1", 2, 0, "ice5678", "partially_supported"),  # automatic: high -> disagrees
        Verdict("t2", 1, 1, "brd0001", "wrong_location"),  # automatic: low -> agrees
    ]
    return {v.key: v for v in found}


def test_answer_counts() -> None:
    # 3 sentences, 2 with a resolved citation; 3 markers of which zzz9999 is unknown.
    assert count_answer(boiling_answer()) == AnswerMetrics(3, 2, 3, 1)
    assert count_answer(migration_answer()) == AnswerMetrics(2, 2, 2, 0)
    listed = make_answer("q", "Water:\n- boils at 100 C [wat1234]\n- no source here", (EV_WATER,))
    assert count_answer(listed) == AnswerMetrics(3, 1, 1, 0)


def test_overall_metrics() -> None:
    turns = _turns()
    records = citation_records(turns)
    overall = audit_metrics(turns, records, score_records(records), _verdicts()).overall
    assert (overall.answers, overall.sentences, overall.cited_sentences) == (2, 5, 4)
    assert overall.coverage == pytest.approx(0.8)
    assert overall.dangling_rate == pytest.approx(1 / 5)
    assert overall.citations == 4 and overall.judged == 3
    assert overall.supported_share == pytest.approx(1 / 3)
    assert dict(overall.levels) == {"high": 3, "low": 1}
    assert overall.score_bins == (1, 0, 0, 0, 0, 0, 0, 0, 0, 3)
    assert (overall.compared, overall.agreed) == (3, 2)
    assert overall.agreement == pytest.approx(2 / 3)
    assert dict(overall.confusion) == {
        ("supported", "high"): 1,
        ("partially_supported", "high"): 1,
        ("wrong_location", "low"): 1,
    }


def test_per_conversation_metrics() -> None:
    turns = _turns()
    records = citation_records(turns)
    by_conv = audit_metrics(turns, records, score_records(records), _verdicts(), {"c1": "Ice"}).conversations
    assert [(m.key, m.label) for m in by_conv] == [("c1", "Ice"), ("c2", "c2")]
    first, second = by_conv
    assert (first.coverage, first.dangling_rate) == (pytest.approx(2 / 3), pytest.approx(1 / 3))
    assert (first.supported_share, first.agreement) == (0.5, 0.5)
    assert (second.coverage, second.dangling_rate, second.supported_share, second.agreement) == (
        1.0,
        0.0,
        0.0,
        1.0,
    )
    assert second.citations == 2 and second.judged == 1


def test_per_document_metrics() -> None:
    turns = _turns()
    records = citation_records(turns)
    by_doc = {m.key: m for m in audit_metrics(turns, records, score_records(records), _verdicts()).documents}
    birds, water = by_doc["doc-birds"], by_doc["doc-water"]
    assert birds.label == "Birds *of* [Europe]"
    # Birds: only the migration answer drew on it; both its citations point there.
    assert (birds.answers, birds.coverage, birds.dangling_rate) == (1, 1.0, 0.0)
    assert (birds.citations, birds.judged, birds.supported_share, birds.agreement) == (2, 1, 0.0, 1.0)
    # Water: both answers had its evidence; the two boiling citations point there.
    assert (water.answers, water.coverage, water.dangling_rate) == (2, 0.8, 0.2)
    assert (water.citations, water.supported_share, water.agreement) == (2, 0.5, 0.5)


def test_empty_and_declined_answers() -> None:
    empty = audit_metrics([], [], {}, {}).overall
    assert (empty.coverage, empty.dangling_rate, empty.supported_share, empty.agreement) == (0, 0, 0, 0)
    declined = make_turn(
        make_answer("q", "The documents do not answer this question.", (EV_WATER,), unsupported=True)
    )
    m = audit_metrics([declined], [], {}, {}).overall
    assert (m.answers, m.sentences, m.coverage) == (1, 0, 0.0)


def test_scores_without_verdicts_are_not_compared() -> None:
    turns = _turns()
    records = citation_records(turns)
    scores = {r.key: SupportScore(0.45, 0.45, None, ()) for r in records}
    overall = audit_metrics(turns, records, scores, {}).overall
    assert dict(overall.levels) == {"medium": 4} and overall.score_bins[4] == 4
    assert (overall.compared, overall.agreement, overall.judged) == (0, 0.0, 0)
