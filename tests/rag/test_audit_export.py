"""Exports: CSV and JSON of verdicts with their context, and the Markdown report of an answer."""

from __future__ import annotations

import csv
import io
import json
import re

from rag.audit.export import COLUMNS, answer_markdown, rows_csv, rows_json, verdict_rows
from rag.audit.records import citation_records, score_records
from rag.stores.verdicts import Verdict
from tests.rag.test_audit_fixtures import (
    BIRDS,
    EV_BIRDS,
    EV_WATER,
    WATER,
    boiling_answer,
    make_answer,
    make_turn,
    migration_answer,
)


def _rows() -> list[dict]:
    turns = [make_turn(boiling_answer(), "t1", "c1"), make_turn(migration_answer(), "t2", "c2")]
    records = citation_records(turns)
    verdicts = [
        Verdict(
            "t2", 1, 1, "brd0001", "wrong_location", "the water book says this", "2026-11-02T09:00:00+00:00"
        ),
        Verdict("gone", 3, 0, "old0000", "supported", '=HYPERLINK("x")', "2026-11-02T09:01:00+00:00"),
    ]
    return verdict_rows(verdicts, records, score_records(records))


def test_rows_carry_the_context_of_each_verdict() -> None:
    row, orphan = _rows()
    assert row["question"] == "When do birds migrate?"
    assert row["sentence"] == "Salt raises the boiling point."
    assert (row["document"], row["page_label"], row["page_index"]) == ("Birds *of* [Europe]", "1", 0)
    assert row["chunk_text"] == BIRDS
    assert (row["verdict"], row["note"], row["auto_level"], row["auto_score"]) == (
        "wrong_location",
        "the water book says this",
        "low",
        0.0,
    )
    assert (row["conv_id"], row["turn_id"], row["footnote"], row["occurrence"]) == ("c2", "t2", 1, 1)
    # A verdict whose conversation was deleted is kept with what it knows.
    assert (orphan["turn_id"], orphan["short_id"], orphan["question"]) == ("gone", "old0000", "")


def test_csv_has_every_column_and_defuses_formulas() -> None:
    text = rows_csv(_rows())
    parsed = list(csv.DictReader(io.StringIO(text)))
    assert tuple(parsed[0]) == COLUMNS and len(parsed) == 2
    assert parsed[0]["chunk_text"] == BIRDS and parsed[0]["verdict"] == "wrong_location"
    assert parsed[1]["note"] == '\'=HYPERLINK("x")'


def test_json_round_trips_values() -> None:
    parsed = json.loads(rows_json(_rows()))
    assert parsed[0]["sentence"] == "Salt raises the boiling point."
    assert parsed[0]["footnote"] == 1 and parsed[0]["auto_score"] == 0.0
    assert parsed[1]["note"] == '=HYPERLINK("x")'


def test_markdown_report_writes_footnotes_out() -> None:
    turn = make_turn(boiling_answer(), "t1", "c1")
    verdicts = {("t1", 1, 0): Verdict("t1", 1, 0, "wat1234", "supported", "exact *match*")}
    md = answer_markdown(turn, verdicts)
    assert md.startswith("## Why does ice float?\n")
    assert "Water boils at 100 degrees Celsius at sea level [^1]." in md
    assert "less dense than water [^2]\\[unresolved: zzz9999\\]." in md
    assert "*Unresolved citations: zzz9999*" in md
    assert "[^1]: *Water Facts*, page iii." in md
    assert "    Audit, citation 1: Supported (exact \\*match\\*)." in md
    assert "    > " + WATER in md
    assert "[^2]: *Water Facts*, page v." in md


def test_markdown_report_escapes_untrusted_text() -> None:
    hostile = make_answer(
        "<img src=x onerror=alert(1)> # why?", "Fine [brd0001]. <script>x</script>", (EV_BIRDS,)
    )
    md = answer_markdown(make_turn(hostile))
    assert re.search(r"(?<!\\)<", md) is None  # every < is escaped or an entity
    assert "## \\<img src=x onerror=alert(1)\\> # why?" in md
    assert "[^1]: *Birds \\*of\\* \\[Europe\\]*, page 1." in md
    assert "&lt;script&gt;" in md


def test_markdown_of_an_answer_without_citations() -> None:
    md = answer_markdown(make_turn(make_answer("q?", "No sources used.", (EV_WATER,))))
    assert md == "## q?\n\nNo sources used.\n"
