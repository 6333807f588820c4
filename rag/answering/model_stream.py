"""The model's text deltas for one answer, with the limits the SDK does not enforce: silence
before the first token and mid-answer, an overall deadline, a token limit on our side, an empty
reply, and retries before the first token that honour Retry-After up to a cap, with jitter.

openai-python (3.57, `_base_client.py`) honours Retry-After too, but only up to its fixed
MAX_RETRY_AFTER_DELAY of 120 s, without jitter, sleeping inside the request where neither a Stop
button nor our deadline can reach it; so the client runs with max_retries=0 and retries are here.
"""

from __future__ import annotations

import itertools
import queue
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from rag.answering.failures import ModelFailure, broken_off, classify, given_up, is_retryable, retry_after_s

PUMP_THREAD = "footnote-model-stream"
# A token is at most this many characters on average: OpenAI's tokenizers average about 4 on
# English prose and fewer on numbers and non-Latin scripts, so a correct answer is never cut.
CHARS_PER_TOKEN_CEILING = 10
# Up to this fraction is added to each wait, so that clients told the same Retry-After do not
# all come back in the same instant.
JITTER = 0.25


@dataclass(frozen=True)
class Limits:
    """How long and how much one answer may take; sleep and random are injectable for tests."""

    retries: int = 2
    backoff_s: float = 1.0
    first_token_timeout_s: float = 60.0
    stall_timeout_s: float = 20.0
    deadline_s: float = 180.0
    retry_after_cap_s: float = 30.0
    max_tokens: int | None = None
    sleep: Callable[[float], None] = time.sleep
    random: Callable[[], float] = random.random


def _pump(model: BaseChatModel, messages: list[BaseMessage], out: queue.Queue, stop: threading.Event) -> None:
    """Run the model's stream in a thread so that the caller can time out a silent stream."""
    stream = model.stream(messages)
    api = finished = False
    try:
        for chunk in stream:
            if stop.is_set():
                return
            text = chunk.text if isinstance(chunk.text, str) else str(chunk.content)
            if text:
                out.put(("delta", text))
            api = api or chunk.response_metadata.get("model_provider") == "openai"
            finished = finished or bool(chunk.response_metadata.get("finish_reason"))
        # The SDK ends quietly when the connection closes cleanly before [DONE]; an OpenAI-compatible
        # stream that really ended carries a finish_reason.
        out.put(("cut" if api and not finished else "end", None))
    except BaseException as exc:
        out.put(("error", exc))
    finally:
        stream.close()  # on a stop: closes the HTTP response, so the endpoint stops generating


def _next(out: queue.Queue, limits: Limits, deadline: float, received: int) -> tuple[str, object]:
    """The pump's next item, or the ModelFailure for silence or for the deadline."""
    wait = limits.stall_timeout_s if received else limits.first_token_timeout_s
    left = deadline - time.monotonic()
    try:
        return out.get(timeout=max(min(wait, left), 0.0))
    except queue.Empty:
        pass
    if left <= wait:
        after = f" after {received} characters" if received else ""
        raise ModelFailure(
            "deadline",
            f"The answer took longer than {limits.deadline_s:g} s "
            f"(FOOTNOTE_LLM_DEADLINE_S) and was stopped{after}.",
        )
    raise ModelFailure("stall" if received else "timeout", f"the model sent nothing for {wait:g} s")


def _too_long(limits: Limits, deltas: int, received: int) -> bool:
    """Past the token limit, counting each streamed delta as at least one token (no tokenizer)."""
    if limits.max_tokens is None:
        return False
    return deltas > limits.max_tokens or received > limits.max_tokens * CHARS_PER_TOKEN_CEILING


def _attempt(
    model: BaseChatModel, messages: list[BaseMessage], limits: Limits, deadline: float
) -> Iterator[str]:
    """One model call's deltas. Before the first delta the SDK's own error is raised as is (the
    caller may retry); after it, a ModelFailure."""
    out: queue.Queue = queue.Queue()
    stop = threading.Event()
    threading.Thread(target=_pump, args=(model, messages, out, stop), daemon=True, name=PUMP_THREAD).start()
    received = deltas = 0
    said_something = False
    try:
        while True:
            kind, value = _next(out, limits, deadline, received)
            if kind == "end":
                if not said_something:
                    raise ModelFailure("empty", "The model returned nothing (an empty answer).")
                return
            if kind == "cut":
                raise broken_off(received)
            if kind == "error":
                if received:
                    raise classify(value, received) from value
                raise value
            deltas += 1
            if _too_long(limits, deltas, received + len(value)):
                raise ModelFailure(
                    "length",
                    f"The answer was stopped at the token limit "
                    f"({limits.max_tokens} tokens, FOOTNOTE_LLM_MAX_TOKENS) after {received} "
                    "characters; the model did not stop by itself.",
                )
            received += len(value)
            said_something = said_something or bool(value.strip())
            yield value
    finally:
        stop.set()  # a closed generator (a Stop button) ends the pump at its next chunk


def _retry_wait(exc: Exception, tries: int, limits: Limits, deadline: float) -> float:
    """Seconds to wait before the next try; raises the ModelFailure when it is time to give up."""
    if not is_retryable(exc) or tries > limits.retries:
        raise given_up(exc, tries) from exc
    asked = retry_after_s(exc)
    if asked is not None and asked > limits.retry_after_cap_s:
        raise given_up(exc, tries, limits.retry_after_cap_s) from exc
    base = asked if asked is not None else limits.backoff_s * 2 ** (tries - 1)
    wait = base * (1 + JITTER * limits.random())
    if time.monotonic() + wait > deadline:
        raise given_up(exc, tries) from exc
    return wait


def model_deltas(model: BaseChatModel, messages: list[BaseMessage], limits: Limits) -> Iterator[str]:
    """The model's text deltas; 429/5xx retried before the first token; raises ModelFailure."""
    deadline = time.monotonic() + limits.deadline_s
    for tries in itertools.count(1):
        try:
            yield from _attempt(model, messages, limits, deadline)
            return
        except ModelFailure:
            raise
        except Exception as exc:
            wait = _retry_wait(exc, tries, limits, deadline)
        limits.sleep(wait)
