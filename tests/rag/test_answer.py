"""answer_stream over a real library with the scripted and extractive models (those that depend on
what is retrieved on both backends: ``garden_library``); answer metrics."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from ingest.local.library import Library
from ingest.types import LibraryReader, PageLocator
from rag.answering.answer import answer_stream, build_answer, stream_answer
from rag.answering.events import Cited, Done, Failed, Retrieved, TextDelta
from rag.answering.failures import retry_after_s
from rag.answering.metrics import measure
from rag.answering.model_stream import JITTER, PUMP_THREAD
from rag.answering.scripted import ScriptedChatModel
from rag.citations.parser import citation_spans
from rag.citations.table import resolve
from rag.offline.extractive import ExtractiveAnswerer
from rag.prompts import NOT_IN_DOCUMENTS
from rag.questions.read import read_question
from rag.retrieval.retrieve import Retrieval, search_evidence
from rag.types import Answer, Evidence
from settings import load_settings
from wiring import stream_options


class StatusError(Exception):
    """Stands in for an SDK error that carries an HTTP status."""

    def __init__(self, status_code: int) -> None:
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code


# Timeouts far beyond what a loaded machine needs: only a scripted stall meets one.
FAST = {"backoff_s": 0.01, "first_token_timeout_s": 60.0, "stall_timeout_s": 60.0}


def ask(library: LibraryReader, question: str, model, **options) -> list:
    """The stream's events after Retrieved (tests/pages/test_stream.py checks that it comes first)."""
    events = list(
        answer_stream(
            question, library=library, chat_model=model, provider_label="test", k=3, **{**FAST, **options}
        )
    )
    return [e for e in events if not isinstance(e, Retrieved)]


def test_an_unrelated_question_never_reaches_the_model(garden_library: LibraryReader) -> None:
    model = ScriptedChatModel()
    events = ask(garden_library, "Which violinist played Paganini caprices?", model, min_dense=0.99)
    assert model.calls == []
    assert [type(e) for e in events] == [TextDelta, Done]
    answer = events[-1].answer
    assert answer.unsupported and answer.text == NOT_IN_DOCUMENTS and answer.footnotes == ()


def test_a_cited_answer_carries_evidence_on_the_first_citation_only(garden_library: LibraryReader) -> None:
    model = ScriptedChatModel()  # with nothing queued it quotes the first source and cites it
    events = ask(garden_library, "When was the greenhouse built?", model)
    cited = [e for e in events if isinstance(e, Cited)]
    assert len(cited) == 1 and cited[0].resolved and cited[0].number == 1
    answer = events[-1].answer
    assert not answer.unsupported and answer.provider == "test"
    assert cited[0].evidence == answer.footnotes[0].evidence == answer.evidence[0]
    assert answer.uncited == answer.evidence[1:]
    assert "Source ID [" in model.calls[0][1].content


def test_the_extractive_model_answers_end_to_end_with_the_right_page(garden_library: LibraryReader) -> None:
    answer = ask(garden_library, "When was the greenhouse built?", ExtractiveAnswerer())[-1].answer
    assert "1987" in answer.text and answer.metrics.coverage == 1.0
    assert [f.evidence.page_label for f in answer.footnotes] == ["3"]


def test_follow_ups_see_the_recent_turns(garden_library: LibraryReader) -> None:
    earlier = Answer("When was the greenhouse built?", "In 1987 [aaaa111].", (), (), ())
    assert (
        read_question("And why?", earlier.question).search.text == "When was the greenhouse built? And why?"
    )
    assert read_question("What do diesel engines power?", earlier.question).search.text == (
        "What do diesel engines power?"
    )
    model = ScriptedChatModel()
    ask(garden_library, "What was it built from?", model, history=[earlier])
    prompt = model.calls[0][1].content
    assert "User: When was the greenhouse built?" in prompt
    assert prompt.rstrip().endswith("What was it built from?")


def test_rate_limits_are_retried_before_the_first_token(hash_library: Library) -> None:
    model = ScriptedChatModel(replies=[StatusError(429), StatusError(503)])
    events = ask(hash_library, "When was the greenhouse built?", model, retries=2)
    assert len(model.calls) == 3 and isinstance(events[-1], Done) and not events[-1].answer.unsupported


def test_other_errors_are_not_retried(hash_library: Library) -> None:
    model = ScriptedChatModel(replies=[StatusError(404)])
    events = ask(hash_library, "When was the greenhouse built?", model, retries=2)
    assert len(model.calls) == 1 and len(events) == 1
    assert events[0].cause == "http_error" and "404" in events[0].message


def test_a_failure_mid_answer_keeps_the_partial_text(hash_library: Library) -> None:
    model = ScriptedChatModel(replies=[["Built ", "in 1987 ", StatusError(500), "never"]])
    events = ask(hash_library, "When was the greenhouse built?", model, retries=2)
    assert len(model.calls) == 1  # no retry once text has arrived
    failed = [e for e in events if isinstance(e, Failed)]
    assert failed[0].partial and failed[0].cause == "server_error"
    answer = events[-1].answer
    assert answer.interrupted and answer.text == "Built in 1987 " and answer.unsupported


def test_unknown_options_are_refused(hash_library: Library) -> None:
    with pytest.raises(TypeError, match="stall_timeout"):
        ask(hash_library, "When was the greenhouse built?", ScriptedChatModel(), stall_timeout=1)


EVIDENCE = (
    Evidence("abc1234", "abc1234" + "0" * 57, "d" * 64, "T", "t.pdf", "x", 1.0, (PageLocator(0, "1", 0, 1),)),
)


@pytest.mark.parametrize(
    ("text", "sentences", "cited", "markers", "unresolved"),
    [
        ("One [abc1234]. Two.", 2, 1, 1, 0),
        ("One. [abc1234] Two. [abc1234]", 2, 2, 2, 0),  # a marker after the full stop belongs to it
        ("One [zzz9999]. Two [abc1234].", 2, 1, 2, 1),
        ("- one [abc1234]\n- two [abc1234, zzz9999]\n", 2, 2, 3, 1),
        ("Pi is 3.14 [abc1234]! Really?", 2, 1, 1, 0),
        ("[abc1234]", 0, 0, 1, 0),
        ("", 0, 0, 0, 0),
    ],
)
def test_metrics_count_sentences_and_markers(
    text: str, sentences: int, cited: int, markers: int, unresolved: int
) -> None:
    metrics = measure(text, resolve(citation_spans(text), EVIDENCE))
    assert (metrics.sentences, metrics.cited_sentences, metrics.markers, metrics.unresolved_markers) == (
        sentences,
        cited,
        markers,
        unresolved,
    )


def test_build_answer_marks_answers_without_valid_citations_unsupported() -> None:
    assert build_answer("q", "Fine [abc1234].", EVIDENCE, provider="p").unsupported is False
    assert build_answer("q", "Fine [zzz9999].", EVIDENCE, provider="p").unsupported is True


class RateLimited(StatusError):
    """A 429 carrying response headers, as the SDK's RateLimitError does."""

    def __init__(self, headers: dict[str, str]) -> None:
        super().__init__(429)
        self.response = SimpleNamespace(headers=headers)


NOW = datetime(2026, 12, 1, 4, 0, 0, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"retry-after": "7"}, 7.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5),
        ({"retry-after": "Tue, 01 Dec 2026 04:00:20 GMT"}, 20.0),
        ({"retry-after": "Tue, 01 Dec 2026 03:59:00 GMT"}, 0.0),  # already past: no wait
        ({"retry-after": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after_reads_seconds_milliseconds_and_http_dates(headers: dict, seconds: float | None) -> None:
    assert retry_after_s(RateLimited(headers), now=NOW) == seconds


def test_a_retry_after_is_waited_with_jitter_on_top(hash_library: Library) -> None:
    waits: list[float] = []
    model = ScriptedChatModel(replies=[RateLimited({"retry-after": "4"})])
    events = ask(
        hash_library,
        "When was the greenhouse built?",
        model,
        retries=1,
        sleep=waits.append,
        random=lambda: 1.0,
    )
    assert isinstance(events[-1], Done) and waits == [4 * (1 + JITTER)]


def test_the_token_limit_stops_a_model_that_runs_on(hash_library: Library) -> None:
    model = ScriptedChatModel(replies=[["word "] * 500])
    events = ask(hash_library, "When was the greenhouse built?", model, max_tokens=20)
    failed = [e for e in events if isinstance(e, Failed)]
    assert [f.cause for f in failed] == ["length"] and events[-1].answer.text == "word " * 20
    assert events[-1].answer.interrupted


def test_the_deadline_stops_a_slow_endless_answer(hash_library: Library) -> None:
    model = ScriptedChatModel(replies=[["word ", 0.01] * 100_000])
    events = ask(hash_library, "When was the greenhouse built?", model, deadline_s=1.0)
    failed = [e for e in events if isinstance(e, Failed)]
    assert [f.cause for f in failed] == ["deadline"] and failed[0].partial
    assert events[-1].answer.interrupted and events[-1].answer.text.startswith("word ")


def test_stream_options_limit_only_generative_models() -> None:
    openai = stream_options(
        load_settings(llm_provider="openai", llm_max_tokens=99, llm_deadline_s=42, llm_retry_after_cap_s=5)
    )
    assert (openai["max_tokens"], openai["deadline_s"], openai["retry_after_cap_s"]) == (99, 42, 5)
    assert stream_options(load_settings(llm_provider="extractive"))["max_tokens"] is None


def test_closing_the_stream_ends_the_model_thread(hash_library: Library) -> None:
    model = ScriptedChatModel(replies=[["word ", 0.01] * 100_000])
    events = answer_stream(
        "When was the greenhouse built?",
        library=hash_library,
        chat_model=model,
        provider_label="test",
        k=3,
        **FAST,
    )
    assert isinstance(next(events), Retrieved) and isinstance(next(events), TextDelta)
    events.close()
    for thread in [t for t in threading.enumerate() if t.name == PUMP_THREAD]:
        thread.join(10)
        assert not thread.is_alive()


def test_the_relevance_gate_knows_which_embedding_models_it_was_measured_for(
    garden_library: LibraryReader,
) -> None:
    from rag.answering.answer import gate_measured_for, library_embedding_name

    assert gate_measured_for("local:all-MiniLM-L6-v2-fused-int8:384")
    assert not gate_measured_for("openai:text-embedding-3-small")
    assert library_embedding_name(garden_library) == "fake:hash:384" and not gate_measured_for(
        "fake:hash:384"
    )


def test_with_an_unmeasured_embedding_model_only_wordless_evidence_is_declined(
    garden_library: LibraryReader,
) -> None:
    # MIN_DENSE is a MiniLM cosine: with another model a related question must reach the model ...
    related = ScriptedChatModel()
    ask(garden_library, "Which greenhouse did Napoleon paint in Florence?", related)
    assert len(related.calls) == 1
    # ... while evidence holding none of the question's words is still declined without a call.
    unrelated = ScriptedChatModel()
    events = ask(garden_library, "Which violinist played Paganini caprices?", unrelated)
    assert unrelated.calls == [] and events[-1].answer.text == NOT_IN_DOCUMENTS


def test_build_answer_marks_closest_passages_by_their_opening() -> None:
    from rag.prompts import CLOSEST_PASSAGES

    loc = (PageLocator(0, "1", 0, 10),)
    ev = Evidence("aaaa111", "a" * 64, "d", "T", "t.pdf", "Some text.", 0.5, loc)
    closest = build_answer("q", f"{CLOSEST_PASSAGES} Some text. [aaaa111]", [ev], provider="t")
    plain = build_answer("q", "Some text. [aaaa111]", [ev], provider="t")
    assert closest.closest and not closest.unsupported and closest.footnotes
    assert not plain.closest


def test_the_search_runs_with_ingest_embedding_yielding(monkeypatch: pytest.MonkeyPatch) -> None:
    from ingest import embeddings
    from rag.answering import answer as answering

    seen: list[int] = []

    def search(*args, **kwargs):
        seen.append(embeddings._asking)
        raise RuntimeError("no library here")

    monkeypatch.setattr(answering, "search_evidence", search)
    events = list(answer_stream("Anything?", library=None, chat_model=None, provider_label="x", k=3))
    assert seen == [1] and isinstance(events[0], Failed)  # asked while searching, released after
    assert embeddings._asking == 0


def test_an_answer_from_another_period_says_which_filing_it_drew_on(garden_library: LibraryReader) -> None:
    question = read_question("When was the greenhouse built?")
    note = (
        "The library holds no filing for FY2018; this draws on garden.pdf (fiscal year ended May 31, 2017)."
    )
    found = search_evidence(garden_library, question, k=3)
    for retrieval in (
        replace(found, period_note=note),
        Retrieval((), period_note=note),
    ):  # answered, declined
        model = ScriptedChatModel()
        events = list(stream_answer(question, retrieval, chat_model=model, provider_label="t"))
        assert events[-1].answer.text.endswith("\n\n" + note)
