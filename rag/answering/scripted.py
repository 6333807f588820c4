"""A chat model with queued, scripted streamed replies: the fake provider for tests and demos. It
stands in for a language model: it is given the prompt, and beside it the evidence as values
(for_evidence), from which its unscripted reply quotes and cites a real id."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field

from rag.passages.units import split_sentences
from rag.prompts import NOT_IN_DOCUMENTS
from rag.types import Evidence

LABEL = "scripted test model"
MAX_CALLS_KEPT = 50


def default_reply(evidence: Sequence[Evidence]) -> str:
    """With no reply queued: the first sentence of the first passage, cited by its id."""
    if not evidence:
        return NOT_IN_DOCUMENTS
    text = evidence[0].text.strip()
    first = (split_sentences(text) or [text])[0]
    return f"{first} [{evidence[0].short_id}]"


class ScriptedChatModel(BaseChatModel):
    """Replays queued replies. A reply is a string (streamed word by word), a list of deltas (a
    number in the list sleeps that many seconds, an exception in it is raised there), or an
    exception raised before any token. Every call's messages are kept in `calls`."""

    replies: list[Any] = Field(default_factory=list)
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    evidence: tuple[Evidence, ...] = Field(default=(), repr=False, exclude=True)
    """The passages of the prompt it is given (for_evidence), for the unscripted reply."""

    @property
    def _llm_type(self) -> str:
        return "footnote-scripted"

    def for_evidence(self, evidence: Sequence[Evidence]) -> ScriptedChatModel:
        """This model for one prompt of these passages (rag.answering.models.TakesEvidence); it
        shares the queued replies and the calls kept with this one."""
        return self.model_copy(update={"evidence": tuple(evidence)})

    def _next_reply(self, messages: list[BaseMessage]) -> list[Any]:
        self.calls.append(list(messages))
        del self.calls[:-MAX_CALLS_KEPT]  # a long-running demo app must not grow without bound
        reply = self.replies.pop(0) if self.replies else default_reply(self.evidence)
        if isinstance(reply, BaseException):
            raise reply
        if isinstance(reply, str):
            return [t for t in re.split(r"(?<=\s)", reply) if t]
        return list(reply)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        text = "".join(str(chunk.message.content) for chunk in self._stream(messages))
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        for item in self._next_reply(messages):
            if isinstance(item, BaseException):
                raise item
            if isinstance(item, (int, float)):
                time.sleep(item)
                continue
            yield ChatGenerationChunk(message=AIMessageChunk(content=str(item)))
