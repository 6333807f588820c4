"""The side panel's text for a footnote, as plain strings (components/panel/preview.py)."""

from __future__ import annotations

from dataclasses import replace

from components.panel.preview import footnote_previews, panel_meta, section_line
from ingest.types import PageLocator
from rag.answering.answer import build_answer
from rag.types import Evidence


def _evidence(score: float | None) -> Evidence:
    return Evidence(
        "abc1234", "a" * 64, "d" * 64, "Doc", "doc.pdf", "Text.", score, (PageLocator(4, "5", 0, 5),)
    )


def test_meta_shows_the_similarity_or_says_the_passage_was_found_by_words_only() -> None:
    assert panel_meta(_evidence(0.4567)) == "Page 5 (index 4) · id abc1234 · similarity 0.46"
    assert panel_meta(_evidence(None)) == "Page 5 (index 4) · id abc1234 · words only, no similarity yet"


def test_the_section_line_shortens_a_deep_path_and_names_where_a_passage_starts_and_ends() -> None:
    assert section_line(_evidence(0.5)) == ""  # sections not known
    short = replace(_evidence(0.5), sections=("PART I > Item 3. Legal Proceedings",))
    assert section_line(short) == "In PART I > Item 3. Legal Proceedings"
    deep = replace(_evidence(0.5), sections=("PART II > Item 8. Statements > Notes > Note 10 - Debt",))
    assert section_line(deep) == "In PART II > … > Notes > Note 10 - Debt"
    across = replace(
        _evidence(0.5), sections=("Item 8 > Balance Sheets", "Item 8 > Cash Flows", "Item 8 > Equity")
    )
    assert (
        section_line(across) == "In Item 8 > Balance Sheets, then Item 8 > Equity"
    )  # where it starts and ends


def test_a_footnotes_preview_carries_its_section_line() -> None:
    ev = replace(_evidence(0.5), sections=("PART I > Item 3. Legal Proceedings",))
    answer = build_answer("Q?", f"A suit [{ev.short_id}].", [ev], provider="t")
    [preview] = footnote_previews(answer)
    assert preview["where"] == "In PART I > Item 3. Legal Proceedings"
    assert (
        footnote_previews(build_answer("Q?", "A [abc1234].", [_evidence(0.5)], provider="t"))[0]["where"]
        == ""
    )
