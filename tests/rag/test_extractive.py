"""The offline extractive answerer: reads the prompt back, quotes and cites, abstains plainly."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from ingest.types import PageLocator
from rag.citations import extract_citations
from rag.extractive import ExtractiveChatModel, conflicts, parse_task, split_sentences
from rag.prompts import NOT_IN_DOCUMENTS, build_messages
from rag.types import Answer, Evidence


def evidence(short_id: str, text: str, page: int = 0, title: str = "Doc") -> Evidence:
    return Evidence(short_id, short_id + "0" * 57, "d" * 64, title, "doc.pdf", text, 0.5,
                    (PageLocator(page, str(page + 1), 0, len(text)),))


GARDEN = evidence("aaaa111", "Tomatoes need full sun. "
                  "The greenhouse was built in 1987 from recycled windows.")
ENGINE = evidence("bbbb222", "Diesel engines ignite fuel by compression. They power lorries and ships.", 4)


def ask(question: str, *items: Evidence) -> str:
    return ExtractiveChatModel().invoke(build_messages(question, items)).content


def test_parse_task_reads_back_what_the_prompt_wrote() -> None:
    history = [Answer("Earlier question?", "Earlier answer [aaaa111].", (), (), ())]
    messages = build_messages("  When was the\ngreenhouse built? ", [GARDEN, ENGINE], history)
    sources, question = parse_task(messages)
    assert [(s.short_id, s.text) for s in sources] == [("aaaa111", GARDEN.text), ("bbbb222", ENGINE.text)]
    assert question == "When was the greenhouse built?"


def test_parse_task_without_sources_keeps_the_whole_message_as_question() -> None:
    assert parse_task([HumanMessage(content="Hello there")]) == ([], "Hello there")


def test_it_quotes_the_best_sentence_and_cites_its_source() -> None:
    text = ask("When was the greenhouse built?", ENGINE, GARDEN)
    assert text == "The greenhouse was built in 1987 from recycled windows. [aaaa111]"


def test_every_quoted_sentence_carries_a_listed_id() -> None:
    text = ask("How do diesel engines ignite fuel, and what do diesel engines power?", GARDEN, ENGINE)
    ids = extract_citations(text)
    assert ids and set(ids) == {"bbbb222"}
    assert len(ids) == len(split_sentences(text.replace(" [bbbb222]", "")))


@pytest.mark.parametrize(
    "question",
    [
        "What is the capital of Mongolia?",  # nothing related
        "When was the greenhouse not built?",  # a negation the sentence lacks
        "When was the greenhouse built in 1990?",  # a number the passage lacks
        "When did Napoleon build the greenhouse?",  # a name the passage lacks
    ],
)
def test_it_says_plainly_when_the_documents_do_not_answer(question: str) -> None:
    assert ask(question, GARDEN, ENGINE) == NOT_IN_DOCUMENTS


def test_no_sources_means_no_answer() -> None:
    assert ask("When was the greenhouse built?") == NOT_IN_DOCUMENTS


def test_conflicts_lists_the_words_the_sentence_cannot_stand_for() -> None:
    sentence = "The greenhouse was built in 1987 by Anna."
    assert conflicts("Who never built the greenhouse in 1987?", sentence, sentence) == ["never"]
    assert conflicts("Who built Anna's greenhouse in 1988?", sentence, sentence) == ["1988"]
    assert conflicts("Who built the Greenhouses for Anna?", sentence, sentence) == []


def test_brackets_in_quoted_text_cannot_pose_as_citations() -> None:
    tricky = evidence("cccc333", "The greenhouse [abcdefg] was built in 1987 from windows.")
    text = ask("When was the greenhouse built?", tricky)
    assert extract_citations(text) == ["cccc333"]


def test_it_streams_word_by_word_the_same_text_it_returns() -> None:
    messages = build_messages("When was the greenhouse built?", [GARDEN])
    model = ExtractiveChatModel()
    chunks = [c.content for c in model.stream(messages)]
    assert len(chunks) > 5 and "".join(chunks) == model.invoke(messages).content


def test_split_sentences_joins_pdf_line_breaks_and_soft_hyphens() -> None:
    text = "The recog\u00adnition of\nthe Normans was slow. It took 3.5 centuries! Then it ended."
    assert split_sentences(text) == [
        "The recognition of the Normans was slow.",
        "It took 3.5 centuries!",
        "Then it ended.",
    ]
