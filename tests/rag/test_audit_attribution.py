"""Footnote's matches and flags in saved answers, the audit records, its metrics and exports."""

from __future__ import annotations

import csv
import io
import json

from rag.answering.answer import build_answer
from rag.audit.export import answer_markdown, rows_csv, verdict_rows
from rag.audit.metrics import audit_metrics, count_answer
from rag.audit.records import citation_records
from rag.stores.serialize import answer_from_dict, answer_to_dict
from rag.stores.verdicts import Verdict
from tests.rag.test_audit_fixtures import make_evidence, make_turn

WATER = "Water boils at 100 degrees Celsius at sea level. Salt raises the boiling point of water slightly."
BIRDS = "Many birds migrate south in autumn to find food."
EV_WATER, EV_BIRDS = make_evidence("wat1234", WATER), make_evidence("brd0001", BIRDS, doc_id="doc-birds")
# The model cites the birds chunk for a water fact (flagged) and leaves a copied sentence uncited.
TEXT = "Salt raises the boiling point of water slightly [brd0001]. Water boils at 100 degrees Celsius at sea level."


def attributed():
    return build_answer("When does water boil?", TEXT, (EV_BIRDS, EV_WATER), provider="t")


def test_the_answer_has_one_cited_flagged_footnote_and_one_matched() -> None:
    answer = attributed()
    assert [(f.number, f.short_id, f.kind) for f in answer.footnotes] == [
        (1, "brd0001", "cited"),
        (2, "wat1234", "matched"),
    ]
    assert [g.numbers for g in answer.flags] == [(1,)]


def test_matches_and_flags_survive_saving_and_old_answers_load_without_them() -> None:
    answer = attributed()
    again = answer_from_dict(json.loads(json.dumps(answer_to_dict(answer))))
    assert again == answer
    old = answer_to_dict(answer)
    del old["flags"]
    for f in old["footnotes"]:
        del f["matches"]
    for key in ("matched_sentences", "flagged_sentences"):
        del old["metrics"][key]
    old["footnotes"] = old["footnotes"][:1]  # before matching there was no matched footnote
    loaded = answer_from_dict(old)
    assert loaded.flags == () and [f.matches for f in loaded.footnotes] == [()]
    assert loaded.metrics.matched_sentences == 0 and loaded.text == TEXT


def test_records_carry_kind_and_flag_and_number_matches_after_markers() -> None:
    records = citation_records([make_turn(attributed(), turn_id="t1")])
    assert [(r.key, r.kind, r.flagged, r.sentence) for r in records] == [
        (("t1", 1, 0), "cited", True, "Salt raises the boiling point of water slightly."),
        (("t1", 2, 0), "matched", False, "Water boils at 100 degrees Celsius at sea level."),
    ]


def test_metrics_have_their_own_counts_for_matched_flagged_and_unsourced() -> None:
    turn = make_turn(attributed())
    m = count_answer(turn.answer)
    assert (
        m.sentences,
        m.cited_sentences,
        m.matched_sentences,
        m.flagged_sentences,
        m.unsourced_sentences,
    ) == (
        2,
        1,
        1,
        1,
        0,
    )
    found = audit_metrics([turn], citation_records([turn]), {}, {})
    o = found.overall
    assert (o.matched_sentences, o.flagged_sentences, o.matched_citations, o.flagged_citations) == (
        1,
        1,
        1,
        1,
    )
    assert o.unsourced_sentences == 0


def test_exports_say_which_kind_each_citation_is() -> None:
    turn = make_turn(attributed(), turn_id="t1")
    records = citation_records([turn])
    verdicts = [
        Verdict("t1", 1, 0, "brd0001", "not_supported", "", "x"),
        Verdict("t1", 2, 0, "wat1234", "supported", "", "x"),
    ]
    rows = list(csv.DictReader(io.StringIO(rows_csv(verdict_rows(verdicts, records, {})))))
    assert [(r["footnote"], r["kind"], r["flagged"]) for r in rows] == [
        ("1", "cited", "True"),
        ("2", "matched", "False"),
    ]
    report = answer_markdown(turn)
    assert "sea level.[^2]" in report and "Matched by Footnote" in report
    assert "Flagged by the automatic check: [^1]" in report
