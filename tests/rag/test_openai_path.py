"""The real ChatOpenAI path (HTTP + SSE) against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import email.utils
import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from ingest.types import PageLocator
from rag.answering.answer import stream_answer
from rag.answering.events import Cited, Done, Failed, TextDelta
from rag.answering.model_stream import JITTER, PUMP_THREAD
from rag.citations.parser import extract_citations
from rag.prompts import SYSTEM_PROMPT
from rag.questions.read import read_question
from rag.retrieval.retrieve import Retrieval
from rag.types import Evidence
from settings import load_settings
from tests.openai_server import Endless, Error, Raw, ScriptedOpenAIServer, sse, stream
from tests.ports import refused_port
from wiring import make_chat_model

NORMANDY = Evidence(
    "abc1234",
    "abc1234" + "0" * 57,
    "d" * 64,
    "Normans",
    "normans.pdf",
    "Normandy is a region in France. The Normans gave it their name.",
    0.9,
    (PageLocator(0, "1", 0, 63),),
)
ROLLO = Evidence(
    "def5678",
    "def5678" + "0" * 57,
    "d" * 64,
    "Normans",
    "normans.pdf",
    "Rollo swore fealty to King Charles III.",
    0.8,
    (PageLocator(1, "2", 10, 49),),
)
RETRIEVAL = Retrieval((NORMANDY, ROLLO), best_dense=0.8, best_coverage=1.0)
# Quick retries; timeouts far beyond what a loaded machine needs, so only a test that scripts a
# stall (and sets its own short timeout for it) ever meets one.
FAST = {"retries": 2, "backoff_s": 0.01, "first_token_timeout_s": 60.0, "stall_timeout_s": 60.0}


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as running:
        yield running


def run(server: ScriptedOpenAIServer, **timing: object) -> list:
    settings = load_settings(
        llm_provider="openai",
        llm_base_url=server.base_url,
        llm_api_key="sk-test",
        llm_model="scripted-model",
        llm_timeout_s=60.0,
        llm_max_tokens=123,
    )
    model, label = make_chat_model(settings)
    assert label == f"scripted-model at {server.base_url}"
    return list(
        stream_answer(
            read_question("Where is Normandy?"),
            RETRIEVAL,
            chat_model=model,
            provider_label=label,
            **{**FAST, **timing},
        )
    )


def text_of(events: list) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def test_a_normal_answer_streams_text_then_one_footnote(server: ScriptedOpenAIServer) -> None:
    server.push(stream("Normandy ", "is in ", "France ", "[abc1234].", " Rollo swore fealty ", "[def5678]."))
    events = run(server)
    done = events[-1]
    assert isinstance(done, Done)
    answer = done.answer
    assert text_of(events) == answer.text == "Normandy is in France [abc1234]. Rollo swore fealty [def5678]."
    assert [(f.number, f.short_id) for f in answer.footnotes] == [(1, "abc1234"), (2, "def5678")]
    assert answer.footnotes[0].evidence == NORMANDY
    assert not answer.unsupported and not answer.interrupted and answer.unresolved == ()
    assert (answer.metrics.sentences, answer.metrics.cited_sentences, answer.metrics.markers) == (2, 2, 2)
    request = server.requests[0]["body"]
    assert request["stream"] is True and request["model"] == "scripted-model"
    assert request["max_tokens"] == 123  # extra_body: servers behind a base URL ignore the new name
    assert request["messages"][0]["role"] == "system"
    assert "Source ID [abc1234]: Normans, page 1" in request["messages"][1]["content"]
    assert server.requests[0]["headers"]["authorization"] == "Bearer sk-test"


def test_an_id_split_across_deltas_is_reported_once_when_complete(server: ScriptedOpenAIServer) -> None:
    server.push(stream("Normandy is in France [ab", "c12", "34", "]", " and more [abc", "1234]."))
    events = run(server)
    cited = [e for e in events if isinstance(e, Cited)]
    assert [(c.citation.id, c.number, c.evidence is not None) for c in cited] == [
        ("abc1234", 1, True),
        ("abc1234", 1, False),  # later occurrences: id, span and number, no evidence
    ]
    text = text_of(events)
    first = cited[0].citation
    assert text[first.start : first.end] == "[abc1234]"
    assert events.index(cited[0]) > 4  # confirmed only after the character following "]"
    assert len(events[-1].answer.footnotes[0].spans) == 2


def test_grouped_and_adjacent_ids_give_one_footnote_each(server: ScriptedOpenAIServer) -> None:
    server.push(stream("Both [abc1234, def5678]. Again [def5678][abc1234]."))
    answer = run(server)[-1].answer
    assert [f.short_id for f in answer.footnotes] == ["abc1234", "def5678"]
    assert [len(f.spans) for f in answer.footnotes] == [2, 2]
    assert answer.metrics.markers == 4 and answer.metrics.coverage == 1.0


def test_invented_ids_are_unresolved_and_never_carry_evidence(server: ScriptedOpenAIServer) -> None:
    server.push(stream("Normandy is in France [abc1234]. Paris is its capital [zzz9999]."))
    events = run(server)
    cited = {e.citation.id: e for e in events if isinstance(e, Cited)}
    assert cited["zzz9999"].resolved is False and cited["zzz9999"].evidence is None
    answer = events[-1].answer
    assert answer.unresolved == ("zzz9999",) and [f.short_id for f in answer.footnotes] == ["abc1234"]
    assert answer.metrics.dangling_rate == 0.5 and answer.metrics.coverage == 0.5
    assert not answer.unsupported


def test_only_invented_ids_leave_the_answer_unsupported(server: ScriptedOpenAIServer) -> None:
    server.push(stream("Normandy is in France [zzz9999]."))
    answer = run(server)[-1].answer
    assert answer.unsupported and answer.footnotes == ()


def test_an_answer_without_citations_is_unsupported(server: ScriptedOpenAIServer) -> None:
    server.push(stream("Normandy is ", "in France, ", "I believe."))
    events = run(server)
    assert not any(isinstance(e, Cited) for e in events)
    answer = events[-1].answer
    assert answer.unsupported and answer.metrics.sentences == 1 and answer.metrics.coverage == 0.0


def test_401_fails_at_once_naming_the_key(server: ScriptedOpenAIServer) -> None:
    server.push(Error(401, "Incorrect API key provided"), stream("never sent"))
    events = run(server)
    assert len(events) == 1 and isinstance(events[0], Failed)
    assert events[0].cause == "auth" and "API key" in events[0].message and not events[0].partial
    assert len(server.requests) == 1  # not retried


def test_429_is_retried_before_the_first_token(server: ScriptedOpenAIServer) -> None:
    server.push(Error(429, "slow down"), stream("Normandy is in France [abc1234]."))
    events = run(server)
    assert not any(isinstance(e, Failed) for e in events)
    assert events[-1].answer.footnotes[0].short_id == "abc1234"
    assert len(server.requests) == 2


def test_5xx_fails_after_the_retries(server: ScriptedOpenAIServer) -> None:
    server.push(Error(500, "boom"), Error(502, "bad gateway"), Error(503, "overloaded"))
    events = run(server, retries=2)
    assert len(events) == 1 and events[0].cause == "server_error" and "503" in events[0].message
    assert len(server.requests) == 3


def test_a_stall_after_the_first_token_keeps_the_partial_answer(server: ScriptedOpenAIServer) -> None:
    server.push(stream("Normandy is in France [abc1234]. ", "Rollo", 30.0, " never arrives"))
    events = run(server, stall_timeout_s=0.5)
    failed = [e for e in events if isinstance(e, Failed)]
    assert len(failed) == 1 and failed[0].cause == "stall" and failed[0].partial
    done = events[-1]
    assert isinstance(done, Done) and events.index(failed[0]) < len(events) - 1
    assert done.answer.interrupted and done.answer.text == "Normandy is in France [abc1234]. Rollo"
    assert done.answer.footnotes[0].short_id == "abc1234" and done.answer.error == failed[0].message


def test_silence_before_the_first_token_times_out(server: ScriptedOpenAIServer) -> None:
    server.push(stream(30.0, "late"))
    events = run(server, first_token_timeout_s=0.5)
    assert len(events) == 1 and events[0].cause == "timeout" and not events[0].partial


def test_an_unreachable_endpoint_is_named() -> None:
    with refused_port() as port:
        settings = load_settings(
            llm_provider="openai",
            llm_base_url=f"http://127.0.0.1:{port}/v1",
            llm_api_key="sk-test",
            llm_timeout_s=30.0,
        )
        model, label = make_chat_model(settings)
        events = list(
            stream_answer(
                read_question("Where is Normandy?"), RETRIEVAL, chat_model=model, provider_label=label, **FAST
            )
        )
    assert len(events) == 1 and events[0].cause == "unreachable"
    assert f"127.0.0.1:{port}" in events[0].message


def test_the_system_prompt_shows_no_real_looking_id() -> None:
    assert extract_citations(SYSTEM_PROMPT) == []
    assert "[<source id>]" in SYSTEM_PROMPT


def test_an_embeddings_endpoint_failure_is_a_clear_failed_event(
    server: ScriptedOpenAIServer, tmp_path
) -> None:
    from ingest.local.library import Library
    from rag.answering.answer import answer_stream
    from rag.answering.scripted import ScriptedChatModel
    from tests.ingest.pdfs import PARAGRAPH, make_pdf
    from wiring import make_embeddings

    settings = load_settings(
        embedding_provider="openai",
        llm_base_url=server.base_url,
        llm_api_key="sk-test",
        llm_retries=0,
        llm_timeout_s=60.0,
    )
    embeddings, name = make_embeddings(settings)
    library = Library.open(tmp_path / "lib", embeddings, embedding_name=name, chunk_size=300, chunk_overlap=0)
    library.add_pdf(make_pdf([PARAGRAPH]), "guide.pdf")
    server.push_embedding_error(Error(503, "embeddings overloaded"))
    model = ScriptedChatModel()
    events = list(
        answer_stream(
            "What does the guide say?", library=library, chat_model=model, provider_label="test", k=3
        )
    )
    assert model.calls == [] and len(events) == 1 and isinstance(events[0], Failed)
    assert events[0].cause == "retrieval failed" and not events[0].partial
    assert "embeddings overloaded" in events[0].message and "check that it is up" in events[0].message


# --- The model misbehaving --------------------------------------------------------------------


def asked_waits(server: ScriptedOpenAIServer, **options: object) -> tuple[list, list[float]]:
    """The events, and the waits answer_stream asked for between tries (nothing really sleeps)."""
    waits: list[float] = []
    return run(server, sleep=waits.append, **options), waits


def test_429_retry_after_in_seconds_is_honoured_with_jitter(server: ScriptedOpenAIServer) -> None:
    server.push(Error(429, "slow down", {"Retry-After": "7"}), stream("Normandy is in France [abc1234]."))
    events, waits = asked_waits(server, retry_after_cap_s=30)
    assert isinstance(events[-1], Done) and not any(isinstance(e, Failed) for e in events)
    assert len(server.requests) == 2 and len(waits) == 1
    assert 7 <= waits[0] <= 7 * (1 + JITTER)


def test_429_retry_after_as_an_http_date_is_honoured(server: ScriptedOpenAIServer) -> None:
    start = datetime.now(UTC)
    when = email.utils.format_datetime(start + timedelta(seconds=20), usegmt=True)
    server.push(Error(429, "slow down", {"Retry-After": when}), stream("Normandy is in France [abc1234]."))
    events, waits = asked_waits(server, retry_after_cap_s=30)
    taken = (datetime.now(UTC) - start).total_seconds()
    assert isinstance(events[-1], Done) and len(server.requests) == 2
    # The date has whole seconds (up to 1 s early), and the client read it some time after start:
    # however long that took on this machine, the wait is what was left of the 20 s.
    assert 19 - taken <= waits[0] <= 20 * (1 + JITTER)


def test_a_retry_after_beyond_the_cap_gives_up_at_once_saying_so(server: ScriptedOpenAIServer) -> None:
    server.push(Error(429, "slow down", {"Retry-After": "120"}), stream("never sent"))
    events, waits = asked_waits(server, retry_after_cap_s=30)
    assert len(events) == 1 and events[0].cause == "rate_limit" and waits == []
    assert "gave up after 1 try, it asked to wait 120 s" in events[0].message
    assert "30 s" in events[0].message and len(server.requests) == 1


def test_a_429_that_persists_gives_up_after_the_retries_saying_so(server: ScriptedOpenAIServer) -> None:
    server.push(*[Error(429, "slow down", {"Retry-After": "2"})] * 3)
    events, waits = asked_waits(server, retries=2)
    assert len(events) == 1 and isinstance(events[0], Failed) and events[0].cause == "rate_limit"
    assert "rate limiting" in events[0].message
    assert "gave up after 3 tries, it asked to wait 2 s" in events[0].message
    assert len(server.requests) == 3 and len(waits) == 2 and all(2 <= w <= 2 * (1 + JITTER) for w in waits)


@pytest.mark.parametrize("deltas", [(), ("  ", "\n")])
def test_an_empty_stream_is_an_error(server: ScriptedOpenAIServer, deltas: tuple) -> None:
    server.push(stream(*deltas))
    events = run(server)
    failed = [e for e in events if isinstance(e, Failed)]
    assert not any(isinstance(e, Done) for e in events)
    assert len(failed) == 1 and failed[0].cause == "empty" and not failed[0].partial
    assert "returned nothing" in failed[0].message


def pump_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == PUMP_THREAD]


def assert_model_thread_ended(server: ScriptedOpenAIServer) -> None:
    """The endpoint saw the client leave, and no thread is left streaming from the model."""
    assert server.client_left.wait(10)
    for thread in pump_threads():
        thread.join(10)
    assert pump_threads() == []


def test_an_endless_stream_stops_at_the_deadline_keeping_what_came(server: ScriptedOpenAIServer) -> None:
    server.push(Endless("more ", 0.005))
    events = run(server, deadline_s=2.0)
    failed = [e for e in events if isinstance(e, Failed)]
    assert len(failed) == 1 and failed[0].cause == "deadline" and failed[0].partial
    assert "FOOTNOTE_LLM_DEADLINE_S" in failed[0].message
    done = events[-1]
    assert isinstance(done, Done) and done.answer.interrupted and done.answer.error == failed[0].message
    assert done.answer.text.startswith("more ")
    assert_model_thread_ended(server)


def test_an_endless_stream_stops_at_the_token_limit(server: ScriptedOpenAIServer) -> None:
    server.push(Endless("more ", 0.0))
    events = run(server, max_tokens=40, deadline_s=60.0)
    failed = [e for e in events if isinstance(e, Failed)]
    assert len(failed) == 1 and failed[0].cause == "length" and "token limit (40 tokens" in failed[0].message
    assert events[-1].answer.interrupted and events[-1].answer.text == "more " * 40
    assert_model_thread_ended(server)


@pytest.mark.parametrize("drop", ["close", "reset"])
def test_a_dropped_connection_says_how_far_the_answer_got(server: ScriptedOpenAIServer, drop: str) -> None:
    server.push(stream("Normandy is in France ", "[abc1234].", drop=drop))
    events = run(server)
    failed = [e for e in events if isinstance(e, Failed)]
    assert len(failed) == 1 and failed[0].cause == "broken" and failed[0].partial
    assert "broke off after 32 characters" in failed[0].message
    assert "Could not reach" not in failed[0].message
    answer = events[-1].answer
    assert answer.interrupted and answer.text == "Normandy is in France [abc1234]."
    assert answer.footnotes[0].short_id == "abc1234" and answer.error == failed[0].message


CHUNK = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m"}


@pytest.mark.parametrize(
    "reply",
    [
        sse(
            {
                **CHUNK,
                "id": 5,
                "created": "yesterday",
                "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None}],
            }
        ),
        sse({**CHUNK, "choices": [{"index": 0, "delta": {"content": 5}, "finish_reason": None}]}),
        sse({**CHUNK, "choices": {"first": {"delta": "Hi"}}}),
    ],
    ids=["wrong-field-types", "number-as-content", "choices-not-a-list"],
)
def test_a_reply_in_the_wrong_shape_is_one_clear_error(server: ScriptedOpenAIServer, reply) -> None:
    server.push(reply)
    events = run(server)
    assert len(events) == 1 and isinstance(events[0], Failed) and events[0].cause == "bad_reply"
    assert "not in the OpenAI chat-completion format" in events[0].message
    assert "\n" not in events[0].message


NOT_STREAMED = json.dumps(
    {
        **CHUNK,
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": "stop"}],
    }
).encode()


@pytest.mark.parametrize(
    "reply",
    [Raw(b"<html><body>Please sign in</body></html>", "text/html"), Raw(NOT_STREAMED)],
    ids=["html-page", "not-streamed"],
)
def test_a_reply_without_stream_events_names_the_base_url(server: ScriptedOpenAIServer, reply: Raw) -> None:
    server.push(reply)
    events = run(server)
    assert len(events) == 1 and events[0].cause == "bad_reply" and "no stream events" in events[0].message
    assert "FOOTNOTE_LLM_BASE_URL" in events[0].message


def test_closing_the_answer_generator_stops_the_model_thread(server: ScriptedOpenAIServer) -> None:
    server.push(Endless("more ", 0.005))
    settings = load_settings(llm_provider="openai", llm_base_url=server.base_url, llm_api_key="sk-test")
    model, label = make_chat_model(settings)
    events = stream_answer(
        read_question("Where is Normandy?"), RETRIEVAL, chat_model=model, provider_label=label, **FAST
    )
    assert isinstance(next(events), TextDelta) and pump_threads()
    events.close()  # what a Stop button does
    assert_model_thread_ended(server)
