"""Chat models by provider: any OpenAI-compatible endpoint, the offline extractive answerer, or
the scripted fake. Each comes with the label the UI and the CLI show. A chat model is given the
prompt (rag.prompts); the offline answerer, no language model, is given values instead."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from langchain_core.language_models import BaseChatModel

from rag.answering.scripted import LABEL as SCRIPTED_LABEL
from rag.answering.scripted import ScriptedChatModel
from rag.offline.extractive import LABEL as EXTRACTIVE_LABEL
from rag.offline.extractive import ExtractiveAnswerer
from rag.questions.read import Question
from rag.types import Evidence


@runtime_checkable
class OfflineAnswerer(Protocol):
    """An answerer that is no language model (rag.offline.extractive.ExtractiveAnswerer): the
    answer stream hands it the question as read and the evidence as values, never a prompt. It is
    not called after a computed figure's line (rag.compute) when the figure is all the question
    asks: the line is its answer."""

    def answer(self, question: Question, evidence: Sequence[Evidence]) -> Iterator[str]:
        """The answer's text deltas."""
        ...


@runtime_checkable
class TakesEvidence(Protocol):
    """A chat model that is handed the evidence as values beside its prompt: the scripted fake
    (rag.answering.scripted), whose unscripted reply cites the first passage's real id."""

    def for_evidence(self, evidence: Sequence[Evidence]) -> BaseChatModel:
        """The model for one prompt of these passages."""
        ...


# What a provider gives the answer stream: a chat model, given the prompt, or the offline answerer.
Answerer = BaseChatModel | OfflineAnswerer


def openai_chat_model(
    *,
    model: str,
    api_key: str | None,
    base_url: str | None = None,
    temperature: float = 0.0,
    max_tokens: int = 800,
    timeout_s: float = 60.0,
) -> BaseChatModel:
    """A streaming ChatOpenAI that never retries by itself (rag.answering.model_stream retries before the
    first token, see why there) and never asks tiktoken for anything (that would try to download it).
    timeout_s is the client's own connect and read timeout."""
    from langchain_openai import ChatOpenAI

    from rag.answering.failures import serializer_warnings_are_errors

    serializer_warnings_are_errors()

    options: dict[str, Any] = {}
    if base_url:
        # ChatOpenAI sends max_tokens as max_completion_tokens, which llama.cpp and other
        # OpenAI-compatible servers ignore; the plain field goes through extra_body.
        options["extra_body"] = {"max_tokens": max_tokens}
    else:
        options["max_tokens"] = max_tokens
    return ChatOpenAI(
        model=model,
        api_key=api_key or "not-needed",  # local servers accept any key; the SDK insists on one
        base_url=base_url or None,
        temperature=temperature,
        timeout=timeout_s,
        max_retries=0,
        streaming=True,
        **options,
    )


def make_chat_model(
    provider: str,
    *,
    model: str = "",
    base_url: str | None = None,
    temperature: float = 0.0,
    max_tokens: int = 800,
    timeout_s: float = 60.0,
    api_key: str | None = None,
    embeddings: Any = None,
) -> tuple[Answerer, str]:
    """The chat model a provider names (openai or fake; for extractive, the offline answerer), and
    its label. The extractive answerer uses the library's embeddings, when given, to find
    sentences that paraphrase the question; the other options apply to openai only."""
    if provider == "openai":
        chat = openai_chat_model(
            model=model,
            api_key=api_key,
            base_url=base_url,
            temperature=temperature,
            max_tokens=max_tokens,
            timeout_s=timeout_s,
        )
        return chat, f"{model} at {base_url or 'OpenAI'}"
    if provider == "fake":
        return ScriptedChatModel(), SCRIPTED_LABEL
    if provider == "extractive":
        return ExtractiveAnswerer(embeddings=embeddings), EXTRACTIVE_LABEL
    raise ValueError(f"unknown llm_provider {provider!r}: use extractive, openai or fake")


@dataclass(frozen=True)
class ModelListing:
    """The model ids an endpoint serves, or why it listed none (problem is then a short reason)."""

    models: tuple[str, ...]
    problem: str = ""


def list_models(base_url: str, api_key: str | None, timeout_s: float = 3.0) -> ModelListing:
    """GET {base_url}/models (OpenAI, Ollama, vLLM, LM Studio and llama.cpp serve it); never raises:
    an endpoint that cannot list models says why, and the caller keeps its configured model."""
    request = urllib.request.Request(
        base_url.rstrip("/") + "/models", headers={"Authorization": f"Bearer {api_key or 'not-needed'}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            body = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return ModelListing((), f"it answered HTTP {exc.code}")
    except (OSError, ValueError) as exc:  # refused, timed out, not JSON
        return ModelListing((), f"it could not be reached or read ({type(exc).__name__})")
    rows = body.get("data") if isinstance(body, dict) else None
    ids = sorted({str(row["id"]) for row in rows or () if isinstance(row, dict) and row.get("id")})
    return ModelListing(tuple(ids), "" if ids else "it listed no models")
