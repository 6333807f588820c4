"""The answer stream's events, what rag.answering.answer.answer_stream() yields: retrieval done, text deltas, citation markers, the final Answer, a failure."""

from __future__ import annotations

from dataclasses import dataclass

from rag.types import Answer, CitationEvent, Evidence


@dataclass(frozen=True)
class TextDelta:
    """Raw text from the model, as it arrives. shown: how much of the whole text so far may be
    shown (all but an unfinished marker at the end; None: all); cited: how many Cited events follow
    for the markers this delta completed."""

    text: str
    shown: int | None = None
    cited: int = 0


@dataclass(frozen=True)
class Cited:
    """A citation marker in the stream, with its id and span. Every occurrence of a resolved id
    carries its footnote number, the first one also its evidence; unresolved ids carry neither."""

    citation: CitationEvent
    resolved: bool
    number: int | None = None
    evidence: Evidence | None = None


@dataclass(frozen=True)
class Done:
    """The final event: the whole Answer."""

    answer: Answer


@dataclass(frozen=True)
class Failed:
    """The model or endpoint failed. partial is true when some text had already arrived."""

    cause: str
    message: str
    partial: bool = False


@dataclass(frozen=True)
class Retrieved:
    """Retrieval has finished: the evidence the answer will draw on, before the model's first token."""

    evidence: tuple[Evidence, ...]


StreamEvent = Retrieved | TextDelta | Cited | Done | Failed
