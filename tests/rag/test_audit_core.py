"""Citation records, sentences, the automatic support score and the LLM judge's parsing."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage

from rag.audit.records import (
    HIGH,
    MEDIUM,
    citation_records,
    judge_support,
    parse_judgement,
    score_records,
    support_score,
)
from rag.audit.text import emphasis_segments, escape_markdown, escape_report, sentence_spans, strip_markers
from tests.rag.test_audit_fixtures import (
    BIRDS,
    EV_BIRDS,
    EV_ICE,
    EV_WATER,
    WATER,
    boiling_answer,
    make_answer,
    make_turn,
    migration_answer,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two! Three?", ["One.", "Two!", "Three?"]),
        ("Boils at 100 C. [abc1234] Freezes at 0 C.", ["Boils at 100 C. [abc1234]", "Freezes at 0 C."]),
        (
            "It is hot [abc1234]. It is cold [abc1234][def5678].",
            ["It is hot [abc1234].", "It is cold [abc1234][def5678]."],
        ),
        ("- first item [abc1234]\n- second item", ["- first item [abc1234]", "- second item"]),
        ("A claim.\n[abc1234]\nNext one.", ["A claim.\n[abc1234]", "Next one."]),
        (
            "See e.g. the table. Dr. Who wrote it. J. Smith agreed.",
            ["See e.g. the table.", "Dr. Who wrote it.", "J. Smith agreed."],
        ),
        ("Pi is 3.14 roughly. Fine", ["Pi is 3.14 roughly.", "Fine"]),
        ("水は100度で沸騰する。氷は浮く。", ["水は100度で沸騰する。", "氷は浮く。"]),
        ("", []),
    ],
)
def test_sentences(text: str, expected: list[str]) -> None:
    assert [text[a:b] for a, b in sentence_spans(text)] == expected


def test_strip_markers_keeps_words_and_punctuation() -> None:
    assert strip_markers("It is cold [abc1234, def5678] and wet [abc1234].") == "It is cold and wet."


def test_records_attach_each_citation_to_its_sentence() -> None:
    turn = make_turn(boiling_answer(), turn_id="t1", conv_id="c1")
    records = citation_records([turn])
    assert [(r.number, r.occurrence, r.evidence.short_id, r.sentence) for r in records] == [
        (1, 0, "wat1234", "Water boils at 100 degrees Celsius at sea level."),
        (2, 0, "ice5678", "Ice floats because it is less dense than water."),
    ]
    assert records[1].raw_sentence.endswith("[ice5678, zzz9999].")
    assert records[0].key == ("t1", 1, 0)
    assert records[0].question == "Why does ice float?"


def test_records_number_repeated_citations_by_occurrence() -> None:
    records = citation_records([make_turn(migration_answer(), turn_id="t2")])
    assert [(r.key, r.sentence) for r in records] == [
        (("t2", 1, 0), "Birds migrate south in autumn."),
        (("t2", 1, 1), "Salt raises the boiling point."),
    ]


def test_unresolved_only_answer_has_no_records() -> None:
    answer = make_answer("q", "Nothing here [zzz9999].", (EV_WATER,))
    assert citation_records([make_turn(answer)]) == []


def test_overlap_score_and_meaning() -> None:
    high = support_score("Water boils at 100 degrees.", WATER)
    assert high.overlap == 1.0 and high.cosine is None and high.level == "high"
    assert high.meaning == "high support"
    assert set(high.matched) == {"water", "boil", "100", "degre"}
    low = support_score("Salt raises the boiling point.", BIRDS)
    assert (low.score, low.level, low.matched) == (0.0, "low", ())
    # 2 of the 4 content words (salt, boil / fish, mountain) are in the passage.
    medium = support_score("Salt boiling fish mountains", WATER)
    assert medium.overlap == 0.5 and MEDIUM <= medium.score < HIGH and medium.level == "medium"


class TableEmbeddings:
    """Fixed vectors per text: a fake for the cosine half of the score."""

    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table, self.calls = table, 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [self.table[t] for t in texts]


def test_embedding_cosine_is_averaged_with_overlap() -> None:
    sentence = "Birds migrate."
    fake = TableEmbeddings({sentence: [1.0, 0.0], BIRDS: [1.0, 1.0]})
    scored = support_score(sentence, BIRDS, fake)
    assert scored.cosine == pytest.approx(1 / math.sqrt(2), abs=1e-4)
    assert scored.score == pytest.approx(0.5 * 1.0 + 0.5 / math.sqrt(2), abs=1e-4)


def test_cosine_is_the_best_match_among_the_passage_sentences() -> None:
    passage = "Salt is cheap. Water boils at 100 degrees."
    fake = TableEmbeddings(
        {"Water boils.": [1.0, 0.0], "Salt is cheap.": [0.0, 1.0], "Water boils at 100 degrees.": [0.8, 0.6]}
    )
    assert support_score("Water boils.", passage, fake).cosine == pytest.approx(0.8)


def test_score_records_embeds_each_distinct_text_once() -> None:
    records = citation_records([make_turn(migration_answer())])
    texts = {r.sentence for r in records} | {EV_BIRDS.text}
    fake = TableEmbeddings({t: [1.0, float(i)] for i, t in enumerate(sorted(texts))})
    scores = score_records(records, fake)
    assert fake.calls == 1 and len(scores) == 2
    plain = score_records(records)
    assert plain[("t1", 1, 1)].level == "low" and plain[("t1", 1, 0)].level == "high"


def test_emphasis_marks_matching_words_only() -> None:
    stems = support_score("Ice floats on water", EV_ICE.text).matched
    segments = emphasis_segments("Ice is less dense than liquid water, so it floats.", stems)
    assert [piece for piece, hit in segments if hit] == ["Ice", "water", "floats"]
    assert "".join(piece for piece, _ in segments) == "Ice is less dense than liquid water, so it floats."


def test_markdown_escaping_makes_untrusted_text_inert() -> None:
    raw = "**bold** [link](http://x) <b>x</b> $x$ :red[x] # h"
    escaped = escape_markdown(raw)
    for token in ("**", "](", "<b>", "$x$", ":red["):
        assert token not in escaped
    assert escaped.endswith(" \\# h")
    assert escaped.replace("\\", "") == raw


def test_report_escaping_keeps_text_readable() -> None:
    assert escape_report("1. Use *care* with <tags>") == "1\\. Use \\*care\\* with \\<tags\\>"
    assert escape_report("- item\n# heading") == "\\- item\n\\# heading"
    assert escape_report("A plain, simple (sentence).") == "A plain, simple (sentence)."


@pytest.mark.parametrize(
    ("reply", "verdict", "reason"),
    [
        ("Supported\nThe passage states it.", "supported", "The passage states it."),
        ("**Partially supported.**\nOnly the temperature.", "partially_supported", "Only the temperature."),
        ("not supported: wrong topic\nIt is about birds.", "not_supported", "It is about birds."),
        ("Unsupported\nNo.", "not_supported", "No."),
        ("I cannot tell.", "unclear", "I cannot tell."),
        ("", "unclear", "The judge gave no answer."),
    ],
)
def test_parse_judgement(reply: str, verdict: str, reason: str) -> None:
    assert parse_judgement(reply) == (verdict, reason)


class ScriptedChat:
    """A fake chat model: records the messages, replies with a fixed text."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.seen: list[BaseMessage] = []

    def invoke(self, messages: list[BaseMessage]) -> AIMessage:
        self.seen = messages
        return AIMessage(content=self.reply)


def test_judge_sends_passage_and_sentence_and_parses_the_reply() -> None:
    chat = ScriptedChat("partially supported\nThe passage does not mention pressure.")
    verdict, reason = judge_support(chat, "Water boils at 100 C at any pressure.", WATER)
    assert (verdict, reason) == ("partially_supported", "The passage does not mention pressure.")
    prompt = chat.seen[-1].content
    assert WATER in prompt and "Water boils at 100 C at any pressure." in prompt


def test_cosines_are_cached_per_method(tmp_path) -> None:
    from rag.stores.verdicts import VerdictStore

    records = citation_records([make_turn(migration_answer())])
    texts = {r.sentence for r in records} | {EV_BIRDS.text}
    fake = TableEmbeddings({t: [1.0, float(i)] for i, t in enumerate(sorted(texts))})
    store = VerdictStore(tmp_path / "audit.sqlite3")
    first = score_records(records, fake, store, "fake:table")
    again = score_records(records, fake, VerdictStore(tmp_path / "audit.sqlite3"), "fake:table")
    assert fake.calls == 1 and again == first
    score_records(records, fake, store, "another-model")
    assert fake.calls == 2


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "Water boils",
                " at 100 C",
                ".",
                "!",
                " ",
                "\n",
                "e.g.",
                " Dr.",
                "[wat1234]",
                "[ice5678, zzz9999]",
                "[zzz9999]",
                "3.5",
                "- item",
                "\u3002",
                "?",
            ]
        ),
        max_size=30,
    )
)
def test_every_citation_lands_in_exactly_one_sentence(pieces: list[str]) -> None:
    text = "".join(pieces)
    spans = sentence_spans(text)
    assert all(a < b for a, b in spans) and all(b1 <= a2 for (_, b1), (a2, _) in itertools.pairwise(spans))
    answer = make_answer("q", text, (EV_WATER, EV_ICE))
    for record in citation_records([make_turn(answer)]):
        assert sum(a <= record.span.group_start < b for a, b in spans) == 1
        assert record.raw_sentence.strip() and record.span.group_end <= len(text)
