"""Matching uncited sentences to evidence, flagging unsupported citations, and the list of
sources at the end of an answer (rag.answering.attribution, rag.citations.table.source_list_start)."""

from __future__ import annotations

import pytest

from ingest.types import PageLocator
from rag.answering.answer import build_answer
from rag.answering.attribution import FLAG_BELOW, MATCH_MIN, support
from rag.citations.table import source_list_start
from rag.text import marker_groups
from rag.types import Evidence

A, B = "abc1234", "def5678"
NORMANS = (
    "The Normans were the people who in the 10th and 11th centuries gave their name to Normandy, "
    "a region in France. They were descended from Norse raiders and pirates from Denmark."
)
ROLLO = "Rollo agreed to swear fealty to King Charles III of West Francia in 911 at Saint-Clair-sur-Epte."


def _ev(short_id: str, text: str) -> Evidence:
    return Evidence(
        short_id,
        short_id + "0" * 57,
        "d" * 64,
        "Normans",
        "normans.pdf",
        text,
        0.9,
        (PageLocator(0, "1", 0, len(text)),),
    )


EVIDENCE = (_ev(A, NORMANS), _ev(B, ROLLO))


def answer(text: str, **fields: object):
    return build_answer("Who were the Normans?", text, EVIDENCE, provider="test", **fields)


def kinds(ans) -> list[tuple[int, str, str]]:
    """(number, short id, kind) of every footnote."""
    return [(f.number, f.short_id, f.kind) for f in ans.footnotes]


COPIED = "They were descended from Norse raiders and pirates from Denmark."


def test_a_copied_uncited_sentence_is_matched_to_its_passage() -> None:
    ans = answer(COPIED)
    assert kinds(ans) == [(1, A, "matched")]
    [match] = ans.footnotes[0].matches
    assert (match.start, match.end) == (0, len(ans.text)) and match.score >= MATCH_MIN
    assert not ans.unsupported
    m = ans.metrics
    assert (m.sentences, m.cited_sentences, m.matched_sentences, m.unsourced_sentences) == (1, 0, 1, 0)
    assert m.coverage == 0.0 and m.footnoted_coverage == 1.0


def test_a_sentence_with_a_clause_left_out_is_below_the_threshold() -> None:
    # 4 of its 5 word pairs are in NORMANS ("normans gave" is not): 0.8, under MATCH_MIN.
    assert support("The Normans gave their name to Normandy, a region in France.", NORMANS).phrase == 0.8
    assert answer("The Normans gave their name to Normandy, a region in France.").footnotes == ()


def test_a_sentence_no_passage_holds_stays_unsourced_and_counted() -> None:
    ans = answer("The Normans built many castles across England and Wales.")
    assert ans.footnotes == () and ans.unsupported
    assert (ans.metrics.sentences, ans.metrics.unsourced_sentences) == (1, 1)


def test_reworded_words_in_another_order_are_not_matched() -> None:
    # Every content word is in NORMANS, but not as its phrases: overlap alone would match this.
    ans = answer("France, a region, gave the Normans their name in the 11th and 10th centuries.")
    assert ans.footnotes == ()


def test_a_negated_copy_is_not_matched() -> None:
    ans = answer("They were not descended from Norse raiders and pirates from Denmark.")
    assert support(COPIED, NORMANS).phrase == 1.0
    assert support(ans.text, NORMANS).phrase == 0.0 and ans.footnotes == ()


def test_a_copy_with_another_number_is_not_matched() -> None:
    ans = answer("Rollo agreed to swear fealty to King Charles III of West Francia in 912.")
    assert ans.footnotes == ()
    assert answer("Rollo agreed to swear fealty to King Charles III of West Francia in 911.").footnotes


def test_matching_never_overrides_the_model_and_numbers_new_footnotes_after_its() -> None:
    text = f"Rollo swore fealty to Charles III [{B}]. {COPIED}"
    ans = answer(text)
    assert kinds(ans) == [(1, B, "cited"), (2, A, "matched")]
    assert ans.footnotes[0].matches == () and len(ans.footnotes[0].spans) == 1


def test_a_match_to_a_passage_the_model_cited_elsewhere_joins_its_footnote() -> None:
    text = f"The Normans came from Denmark [{A}]. {COPIED}"
    ans = answer(text)
    assert kinds(ans) == [(1, A, "cited")]
    [match] = ans.footnotes[0].matches
    assert ans.text[match.start : match.end] == COPIED
    assert (ans.metrics.cited_sentences, ans.metrics.matched_sentences) == (1, 1)


def test_short_sentences_and_the_prompts_fixed_sentences_are_not_matched() -> None:
    assert answer("Normandy, France.").footnotes == ()
    assert answer("The documents do not answer this question.", unsupported=True).footnotes == ()


def test_an_interrupted_answer_is_not_matched() -> None:
    ans = answer(COPIED, interrupted=True)
    assert ans.footnotes == () and ans.flags == ()


def test_a_cited_sentence_its_passage_does_not_hold_is_flagged_and_kept() -> None:
    text = f"Rollo swore fealty to Charles III [{B}]. Penguins cannot fly but swim very fast [{A}]."
    ans = answer(text)
    [flag] = ans.flags
    assert ans.text[flag.start : flag.end].startswith("Penguins") and flag.numbers == (2,)
    assert flag.score < FLAG_BELOW
    assert ans.text == text and [f.short_id for f in ans.footnotes] == [B, A]  # nothing rewritten
    assert ans.metrics.flagged_sentences == 1


def test_a_sentence_citing_two_passages_is_judged_by_the_better_one() -> None:
    ans = answer(f"Rollo swore fealty to King Charles III in 911 [{A}][{B}].")
    assert ans.flags == ()


@pytest.mark.parametrize(
    ("text", "start"),
    [
        (f"Normandy is in France.\n\nSources:\n- [{A}]\n- [{B}]", "Sources:"),
        (f"Normandy is in France.\n\n**Sources:** [{A}], [{B}]", "**Sources:**"),
        (f"Normandy is in France.\n\nReferences\n1. [{A}] Normans, page 1\n2. [{B}]", "References"),
        (f"Normandy is in France.\n\n[{A}] [{B}]", f"[{A}] [{B}]"),
        (f"Normandy is in France.\n[{A}]", None),  # one line break: the marker cites that line
        (f"Normandy is in France [{A}].", None),
        (f"[{A}] [{B}]", None),  # nothing before it
        (f"Normandy is in France.\n\n- [{A}] is where it is said", None),  # a sentence, not a list
        ("No markers at all.\n\nSources: none", None),
    ],
)
def test_source_list_start(text: str, start: str | None) -> None:
    found = source_list_start(text, marker_groups(text))
    assert found == (None if start is None else text.index(start))


def test_a_list_of_sources_at_the_end_cites_no_sentence_and_the_sentences_are_matched() -> None:
    text = (
        f"{COPIED}\n"
        "Rollo agreed to swear fealty to King Charles III of West Francia in 911.\n\n"
        f"Sources: [{A}], [{B}]"
    )
    ans = answer(text)
    assert kinds(ans) == [(1, A, "cited"), (2, B, "cited")]  # the model's, from the list
    assert [len(f.matches) for f in ans.footnotes] == [1, 1]
    m = ans.metrics
    assert (m.sentences, m.cited_sentences, m.matched_sentences, m.markers) == (2, 0, 2, 2)


def test_a_numbered_reference_is_text_and_its_sentence_is_matched() -> None:
    ans = answer("Rollo agreed to swear fealty to King Charles III of West Francia in 911 [2].")
    assert kinds(ans) == [(1, B, "matched")] and ans.unresolved == ()
    assert "[2]" in ans.text
