"""rag.text, the one text toolkit: sentences, words, stems, stopwords, cosine, and one citing
sentence for the side panel, the answer metrics and the audit page."""

from __future__ import annotations

import pytest

from components.panel.passage import _sentence_before, cited_passage
from ingest.types import PageLocator
from rag.answering.answer import build_answer
from rag.answering.metrics import sentence_ranges
from rag.audit.records import turn_records
from rag.retrieval.lexical import LexicalIndex
from rag.text import cosine, sentence_spans, split_sentences, stem, strip_markers, tokenize
from rag.types import Evidence, Turn


def test_tokenize_uses_snowball_stems_and_drops_stopwords() -> None:
    assert tokenize("The gardeners were watering tomatoes") == ["garden", "water", "tomato"]
    assert stem("expenditures") == stem("expenditure") and stem("operates") == stem("operations")
    assert tokenize("recog\u00adnition of 3 cities, a b 42") == ["recognit", "3", "citi", "42"]


def test_bm25_and_the_answerer_share_the_tokenizer() -> None:
    from rag.offline import scoring
    from rag.retrieval import lexical

    assert lexical.tokenize is tokenize and scoring.tokenize is tokenize  # the answerer's, in scoring


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Acme Inc. sells tools, e.g. saws. It grew.", ["Acme Inc. sells tools, e.g. saws.", "It grew."]),
        ("See Fig. 3 and No. 7 there. Done.", ["See Fig. 3 and No. 7 there.", "Done."]),
        (
            "It operates in the U.S. and Canada. Sales rose.",
            ["It operates in the U.S. and Canada.", "Sales rose."],
        ),
        ("Sales rose in the U.S. The rest fell.", ["Sales rose in the U.S.", "The rest fell."]),
        ("Mr. J. Smith won 3.5 points! Why? Luck.", ["Mr. J. Smith won 3.5 points!", "Why?", "Luck."]),
    ],
)
def test_abbreviations_do_not_end_a_sentence(text: str, expected: list[str]) -> None:
    assert [text[a:b] for a, b in sentence_spans(text)] == expected


def test_a_pdf_line_break_wraps_a_sentence_but_an_answer_line_break_ends_one() -> None:
    text = "The recog\u00adnition of\nthe Normans was slow.\n\nA new paragraph"
    assert split_sentences(text) == ["The recognition of the Normans was slow.", "A new paragraph"]
    assert len(sentence_spans("One item\nAnother item")) == 2


def test_cosine() -> None:
    assert cosine([1.0, 0.0], [2.0, 0.0]) == pytest.approx(1.0)
    assert cosine([1.0, 0.0], [0.0, 3.0]) == 0.0 and cosine([0.0], [0.0]) == 0.0


def test_bm25_matches_a_plural_question_with_a_singular_line() -> None:
    from tests.rag.test_retrieve import chunk

    index = LexicalIndex([chunk("a", "Capital expenditure was high."), chunk("b", "Revenue fell.")])
    assert [c.chunk_id[0] for c, _ in index.search("capital expenditures", k=2)] == ["a"]


CHUNK = (
    "Acme Inc. makes tools in the U.S. and sells them, e.g. saws, in 40 countries. "
    "Revenue rose to 1,577 million in 2022."
)


@pytest.mark.parametrize(
    "answer_text",
    [
        (
            "Acme Inc. makes tools in the U.S. and sells them, e.g. saws, in 40 countries [aaaa111]. "
            "Revenue rose to 1,577 million in 2022. [aaaa111]"
        ),
        (
            "Acme Inc. makes tools [aaaa111] in the U.S. and sells them, e.g. saws, in 40 countries.\n"
            "Revenue rose to 1,577 million in 2022.\n[aaaa111]"
        ),
    ],
)
def test_side_panel_metrics_and_audit_pick_the_same_sentence(answer_text: str) -> None:
    ev = Evidence(
        "aaaa111", "a" * 64, "d", "Acme", "acme.pdf", CHUNK, 0.5, (PageLocator(0, "1", 0, len(CHUNK)),)
    )
    answer = build_answer("What does Acme make?", answer_text, [ev], provider="t")
    turn = Turn("t1", "c1", 0, answer)
    records = turn_records(turn)
    spans = [s for f in answer.footnotes for s in f.spans]
    ranges = sentence_ranges(answer.text, spans)
    assert len(records) == len(spans) == 2
    for record in records:
        panel = _sentence_before(answer.text, record.span.group_start, answer.marker_groups)
        metric = next(strip_markers(answer.text[a:b]) for a, b in ranges if a <= record.span.group_start < b)
        assert panel == metric == record.sentence
        assert record.sentence.startswith(("Acme Inc. makes tools", "Revenue rose"))
        assert record.sentence.endswith(("40 countries.", "in 2022."))
    assert answer.metrics.sentences == answer.metrics.cited_sentences == 2
    start, end = cited_passage(answer, answer.footnotes[0])
    assert CHUNK[start:end].startswith("Acme Inc. makes tools in the U.S.")


def test_acronyms_are_the_initials_of_capitalised_runs() -> None:
    from rag.text import acronyms

    assert {"eu", "teu"} <= acronyms("The European Union pays.") and "us" in acronyms("the United States")
    assert acronyms("no capitals here") == set()


def test_employees_and_employ_are_one_word_family() -> None:
    """Snowball stems "employees" to "employe" and "employ" to "employ"; rag.text.JOINED joins them."""
    family = ("employees", "employee", "employ", "employed", "employs", "employment")
    assert {tuple(tokenize(w)) for w in family} == {("employ",)}
