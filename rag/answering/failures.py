"""What went wrong with the model, in words a user can act on. One place maps SDK errors to causes:
unreachable, broken, timeout, stall, deadline, length, empty, bad_reply, auth, rate_limit,
server_error, http_error, error."""

from __future__ import annotations

import email.utils
import math
import re
import time
import warnings


class ModelFailure(Exception):
    """The chat model failed; cause is a short keyword, message a sentence naming the cause."""

    def __init__(self, cause: str, message: str) -> None:
        super().__init__(message)
        self.cause = cause
        self.message = message


# The SDK builds response objects without validating them; langchain-openai then calls
# model_dump() on each chunk, and a field of the wrong type only warns (a multi-line warning on
# stderr, the answer going on). As an error, classify() names it. The filter is process-wide, as
# warnings filters are; pydantic warns so only for values that do not match their model.
_SERIALIZER_WARNING = "Pydantic serializer warnings"


def serializer_warnings_are_errors() -> None:
    """Turn pydantic's serializer warnings (a model reply in the wrong shape) into exceptions."""
    warnings.filterwarnings("error", message=_SERIALIZER_WARNING, category=UserWarning)


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def is_retryable(exc: BaseException) -> bool:
    """429 and 5xx are worth another try (before the first token only)."""
    status = _status(exc)
    return status is not None and (status == 429 or status >= 500)


def retry_after_s(exc: BaseException, now: float | None = None) -> float | None:
    """Seconds the endpoint asked to wait (Retry-After in seconds or as an HTTP date, or
    retry-after-ms), or None when it did not say."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        try:
            seconds = float(value) * scale if value is not None else None
        except ValueError:
            continue
        if seconds is not None and math.isfinite(seconds):
            return max(seconds, 0.0)
    try:
        when = email.utils.parsedate_to_datetime(headers.get("retry-after") or "")
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - (time.time() if now is None else now), 0.0)


def rate_limited(tries: int, asked_s: float | None, cap_s: float | None = None) -> ModelFailure:
    """The failure after giving up on a rate-limiting endpoint."""
    plural = "try" if tries == 1 else "tries"
    message = f"The model endpoint is rate limiting (HTTP 429); gave up after {tries} {plural}"
    if asked_s is not None:
        message += f", it asked to wait {asked_s:.3g} s"
    if cap_s is not None:
        message += f", longer than the {cap_s:g} s we wait (FOOTNOTE_LLM_RETRY_AFTER_CAP_S)"
    return ModelFailure("rate_limit", message + ".")


def given_up(exc: BaseException, tries: int, cap_s: float | None = None) -> ModelFailure:
    """The failure for the last error before the first token, after `tries` tries; cap_s when the
    endpoint asked to wait longer than that."""
    if _status(exc) == 429:
        return rate_limited(tries, retry_after_s(exc), cap_s)
    return classify(exc)


def broken_off(received: int) -> ModelFailure:
    """The failure for a stream whose connection closed before the answer ended."""
    return ModelFailure(
        "broken",
        f"The model's answer broke off after {received} characters "
        "(the connection to the endpoint closed before the answer ended).",
    )


def _detail(exc: BaseException) -> str:
    text = " ".join(str(getattr(exc, "message", "") or exc).split())
    return text[:200]


def _from_openai(exc: BaseException) -> bool:
    """Whether the exception was raised inside the OpenAI SDK or langchain-openai (parsing a reply)."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_globals.get("__name__", "").startswith(("openai", "langchain_openai")):
            return True
        tb = tb.tb_next
    return False


def _bad_reply(exc: BaseException) -> ModelFailure | None:
    """A reply that is not OpenAI chat-completion chunks: wrong field types or nesting, or no
    server-sent events at all (an HTML page, a reply that was not streamed)."""
    from pydantic import ValidationError

    text = str(exc)
    if isinstance(exc, UserWarning) and _SERIALIZER_WARNING in text:
        fields = sorted(set(re.findall(r"field_name='(\w+)'", text)))
        where = f"unexpected values in: {', '.join(fields)}"
    elif isinstance(exc, ValueError) and "No generation chunks" in text:  # langchain-core's words
        where = "no stream events: an HTML page, or a reply that was not streamed"
    elif isinstance(exc, (ValidationError, KeyError, TypeError, AttributeError)) and _from_openai(exc):
        where = type(exc).__name__
    else:
        return None
    return ModelFailure(
        "bad_reply",
        "The model endpoint's reply is not in the OpenAI chat-completion "
        f"format ({where}); "
        "check that FOOTNOTE_LLM_BASE_URL is an OpenAI-compatible /v1 URL.",
    )


def classify(exc: BaseException, received: int = 0) -> ModelFailure:
    """A ModelFailure for an exception raised while streaming from the model, after `received`
    characters of answer had arrived."""
    if isinstance(exc, ModelFailure):
        return exc
    import openai

    status = _status(exc)
    if received and isinstance(exc, openai.APIConnectionError):
        return broken_off(received)
    if isinstance(exc, openai.APITimeoutError):
        return ModelFailure("timeout", "The model endpoint timed out before answering.")
    if isinstance(exc, openai.APIConnectionError):
        where = getattr(getattr(exc, "request", None), "url", None)
        place = f" at {where.scheme}://{where.host}:{where.port}" if where is not None else ""
        return ModelFailure("unreachable", f"Could not reach the model endpoint{place}.")
    if status in (401, 403):
        return ModelFailure(
            "auth",
            f"The model endpoint refused the API key (HTTP {status}); "
            "check FOOTNOTE_LLM_API_KEY or OPENAI_API_KEY.",
        )
    if status == 429:
        return ModelFailure("rate_limit", f"The model endpoint is rate limiting (HTTP 429): {_detail(exc)}")
    if status is not None and status >= 500:
        return ModelFailure("server_error", f"The model endpoint failed (HTTP {status}): {_detail(exc)}")
    if status is not None:
        return ModelFailure("http_error", f"The model endpoint answered HTTP {status}: {_detail(exc)}")
    return _bad_reply(exc) or ModelFailure("error", f"The model failed: {type(exc).__name__}: {_detail(exc)}")
