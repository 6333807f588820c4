"""The side panel's text for a footnote, as plain strings (components/panel/preview.py)."""

from __future__ import annotations

from components.panel.preview import panel_meta
from ingest.types import PageLocator
from rag.types import Evidence


def _evidence(score: float | None) -> Evidence:
    return Evidence(
        "abc1234", "a" * 64, "d" * 64, "Doc", "doc.pdf", "Text.", score, (PageLocator(4, "5", 0, 5),)
    )


def test_meta_shows_the_similarity_or_says_the_passage_was_found_by_words_only() -> None:
    assert panel_meta(_evidence(0.4567)) == "Page 5 (index 4) · id abc1234 · similarity 0.46"
    assert panel_meta(_evidence(None)) == "Page 5 (index 4) · id abc1234 · words only, no similarity yet"
