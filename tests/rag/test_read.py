"""rag.questions.read: a question read once, and the answer stream that reads each question once."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from ingest.local.library import Library
from rag.answering import answer as answer_module
from rag.answering.answer import answer_stream
from rag.answering.events import Done, Retrieved
from rag.offline.extractive import ExtractiveAnswerer
from rag.questions.periods import Period, carried, read_periods, without_filing
from rag.questions.read import Question, read_question
from rag.retrieval import retriever as retriever_module
from rag.text import stem
from rag.types import Evidence

ANALYST = (
    "Assume that you are an investment analyst. What is the FY2021 capex for PepsiCo? Operating "
    "cash flow ratio is defined as: cash from operations / total current liabilities. Respond by "
    "using the details shown within the statement of cash flows."
)


def test_one_reading_holds_every_part_of_an_analysts_question() -> None:
    question = read_question(ANALYST)
    assert question.text == ANALYST
    assert question.core == "What is the FY2021 capex for PepsiCo?"
    assert question.instructions[0] == "Assume that you are an investment analyst."
    assert question.statements == ("cash_flows",)
    assert question.periods.fiscal == (Period(2021),)
    assert [i.text for i in question.inputs] == ["cash from operations", "total current liabilities"]
    assert question.concepts.years == (2021,) and question.concepts.amount
    assert question.asked.text == question.core and question.asked.names == ("pepsico",)
    assert {stem("capital"), stem("expenditures")} <= question.words  # the shorthand spelled out
    assert "capital expenditures" in question.search.words and "fiscal 2021" not in question.search.words
    assert "fiscal 2021 2021" in question.search.naming.text  # the periods pick among filings
    assert question.search.inputs == question.inputs and question.search.text == ANALYST


def test_a_short_follow_up_is_searched_for_after_the_question_before_it() -> None:
    follow_up = read_question("And in 1066?", "Who ruled England?")
    assert follow_up.search.text == "Who ruled England? And in 1066?"
    assert follow_up.search.names == ("england",)
    assert follow_up.core == "And in 1066?" and follow_up.asked.names == ()  # the answer reads it alone
    assert read_question("Who ruled England in 1066?", "Who ruled France?").search.text == (
        "Who ruled England in 1066?"
    )


def test_the_value_is_frozen() -> None:
    question = read_question("What was Acme's revenue?")
    with pytest.raises(AttributeError):
        question.core = "something else"  # type: ignore[misc]
    assert read_question("What was Acme's revenue?") == question


class Recording:
    """The offline answerer, noting the values the answer stream hands it."""

    def __init__(self) -> None:
        self.given: list[tuple[Question, tuple[Evidence, ...]]] = []

    def answer(self, question: Question, evidence: Sequence[Evidence]) -> Iterator[str]:
        self.given.append((question, tuple(evidence)))
        return ExtractiveAnswerer().answer(question, evidence)


def test_the_answer_stream_reads_each_question_once(hash_library: Library, monkeypatch) -> None:
    calls: list[tuple[str, str | None]] = []
    made: list[Question] = []

    def spy(text: str, previous: str | None = None) -> Question:
        calls.append((text, previous))
        made.append(read_question(text, previous))
        return made[-1]

    # every core module that may read a question's text (tests/test_read_once.py keeps the list)
    for module in (answer_module, retriever_module):
        monkeypatch.setattr(module, "read_question", spy)
    model = Recording()
    retrieved: list[tuple[Evidence, ...]] = []

    def ask(text: str, history: list) -> Done:
        events = list(
            answer_stream(
                text, library=hash_library, chat_model=model, provider_label="t", k=3, history=history
            )
        )
        retrieved.append(next(e.evidence for e in events if isinstance(e, Retrieved)))
        return next(e for e in events if isinstance(e, Done))

    first = ask("When was the greenhouse built?", [])
    ask("And why?", [first.answer])
    assert calls == [("When was the greenhouse built?", None), ("And why?", "When was the greenhouse built?")]
    # the offline answerer answered the stream's reading and the evidence retrieved, as values
    assert [q for q, _ in model.given] == made and all(q is m for (q, _), m in zip(model.given, made))
    assert [e for _, e in model.given] == retrieved
    assert "1987" in first.answer.text and first.answer.question == "When was the greenhouse built?"


@pytest.mark.parametrize(
    "text",
    [
        "What is the FY2018 - FY2020 3 year average of capex as a % of revenue? Answer in percent.",
        "What was the change in gross margin between 2021 and 2022 for the first half of 2023 report?",
        "How much did PepsiCo report for net income for 2019 in its FY2020 10-K, in USD millions?",
        "Using the balance sheet, what is the quick ratio (cash + receivables) / current liabilities "
        "as of December 31, 2022?",
        "What was Q2 FY24 revenue, and how did it compare with the second quarter of 2023?",
        ANALYST,
    ],
)
def test_the_period_reader_reads_each_question_once(text: str) -> None:
    """Every part of the question (its core, the question proper, its inputs, the figure's terms)
    takes the periods read from the whole text, carried to it, rather than reading its own text
    again (issue 52): one text read, the question's."""
    read_periods.cache_clear()
    read_question(text)
    assert read_periods.cache_info().misses == 1


def test_periods_are_carried_to_a_part_of_the_text() -> None:
    """A period the part keeps is at its place in the part, one the part drops is gone, and the
    whole text's readings (a filing named, a count of years) follow the characters they were read
    from."""
    text = "What was the 3 year average net margin for FY2019 to FY2021 in its FY2022 10-K?"
    periods = read_periods(text)
    part = "net margin for FY2019 to FY2021"
    kept = carried(periods, text, part)
    assert [part[m.start : m.end] for m in kept.mentions] == ["FY2019", "FY2021"]
    assert kept.ranges == ((part.index("FY2019"), 2019, 2021),)
    assert (periods.filing_year, periods.count) == (2022, 3)
    assert (kept.filing_year, kept.count) == (None, None)
    assert kept == read_periods(part)
    assert carried(periods, text, without_filing(text)).filing_year is None
