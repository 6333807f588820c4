"""What went wrong with the model, in words a user can act on. One place maps SDK errors to causes:
unreachable, timeout, stall, auth, rate_limit, server_error, http_error, error."""

from __future__ import annotations


class ModelFailure(Exception):
    """The chat model failed; cause is a short keyword, message a sentence naming the cause."""

    def __init__(self, cause: str, message: str) -> None:
        super().__init__(message)
        self.cause = cause
        self.message = message


def _status(exc: BaseException) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def is_retryable(exc: BaseException) -> bool:
    """429 and 5xx are worth another try (before the first token only)."""
    status = _status(exc)
    return status is not None and (status == 429 or status >= 500)


def _detail(exc: BaseException) -> str:
    text = " ".join(str(getattr(exc, "message", "") or exc).split())
    return text[:200]


def classify(exc: BaseException) -> ModelFailure:
    """A ModelFailure for an exception raised while streaming from the model."""
    if isinstance(exc, ModelFailure):
        return exc
    import openai

    status = _status(exc)
    if isinstance(exc, openai.APITimeoutError):
        return ModelFailure("timeout", "The model endpoint timed out before answering.")
    if isinstance(exc, openai.APIConnectionError):
        where = getattr(getattr(exc, "request", None), "url", None)
        place = f" at {where.scheme}://{where.host}:{where.port}" if where is not None else ""
        return ModelFailure("unreachable", f"Could not reach the model endpoint{place}.")
    if status in (401, 403):
        return ModelFailure("auth", f"The model endpoint refused the API key (HTTP {status}); "
                            "check FOOTNOTE_LLM_API_KEY or OPENAI_API_KEY.")
    if status == 429:
        return ModelFailure("rate_limit", f"The model endpoint is rate limiting (HTTP 429): {_detail(exc)}")
    if status is not None and status >= 500:
        return ModelFailure("server_error", f"The model endpoint failed (HTTP {status}): {_detail(exc)}")
    if status is not None:
        return ModelFailure("http_error", f"The model endpoint answered HTTP {status}: {_detail(exc)}")
    return ModelFailure("error", f"The model failed: {type(exc).__name__}: {_detail(exc)}")
