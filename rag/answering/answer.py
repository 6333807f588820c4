"""The answer stream: a question in, text deltas, citation events and one final Answer out."""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import replace
from typing import Any

from ingest.embeddings import asking
from ingest.types import LibraryReader
from rag.answering.attribution import attribute
from rag.answering.events import Cited, Done, Failed, Retrieved, StreamEvent, TextDelta
from rag.answering.failures import ModelFailure
from rag.answering.metrics import answer_sentences, measure
from rag.answering.model_stream import Limits, model_deltas
from rag.answering.models import Answerer, OfflineAnswerer, TakesEvidence
from rag.citations.parser import CitationStream, citation_spans
from rag.citations.table import canonical_id, resolve
from rag.compute.gather import gather
from rag.compute.present import Computation, compute_answer
from rag.judgement.figures import judged_figures
from rag.prompts import CLOSEST_PASSAGES, NOT_IN_DOCUMENTS, build_messages
from rag.questions.read import Question, read_question
from rag.relevance import MIN_DENSE, gate_measured_for
from rag.retrieval.pending import with_words_only
from rag.retrieval.retrieve import Retrieval, search_evidence
from rag.types import Answer, CitationEvent, CitationSpan, Computed, Evidence

log = logging.getLogger(__name__)
# Measured on squad-dev (see bench/README.md): below both, retrieval found nothing related.
# MIN_DENSE is a cosine, whose scale belongs to one embedding model (rag.relevance: GATE_MODELS).
# With any other model (unless the caller gives its own min_dense) the cosine is not used: only
# evidence holding none of the question's words is declined before the model is called
# (ANY_WORD), and the model says itself when the documents do not answer.
MIN_COVERAGE = 0.6
ANY_WORD = 1e-9


def library_embedding_name(library: LibraryReader) -> str:
    """The embedding model's own name when it has one, else the name the library's index records."""
    name = getattr(library.embeddings, "name", None)  # only some embedding classes carry a name
    return str(name or library.config.embedding_name or "")


def build_answer(
    question: str,
    text: str,
    evidence: Sequence[Evidence],
    *,
    provider: str,
    spans: Sequence[CitationSpan] | None = None,
    unsupported: bool = False,
    interrupted: bool = False,
    error: str | None = None,
    computed: Computed | None = None,
    fixed: int = 0,
    closest: bool = False,
) -> Answer:
    """The Answer for finished (or interrupted) text: footnotes, unresolved ids and metrics;
    closest when the text opens with CLOSEST_PASSAGES (quotes rather than an answer). A finished
    answer's uncited sentences get footnotes matched by Footnote, and the cited sentences whose
    passages do not support them are flagged (rag.answering.attribution); unsupported: no footnote at all.
    spans: the citations a stream already found in text (parsed here only when not given).
    computed: the figure the answer computed; fixed: the length of the text's computed line,
    which the support check leaves alone (its cells are its proof: rag.compute); closest: the
    answer does not answer directly (a figure refused) whatever its text opens with."""
    known = [e.short_id for e in evidence]
    resolution = resolve(citation_spans(text, known) if spans is None else spans, evidence)
    every = [s for f in resolution.footnotes for s in f.spans] + list(resolution.unresolved_spans)
    sentences = answer_sentences(text, every)
    footnotes, flags, matched = resolution.footnotes, (), 0
    if not (unsupported or interrupted or error):
        found = attribute(text, resolution.footnotes, evidence, sentences, every, fixed)
        footnotes, flags, matched = found.footnotes, found.flags, found.matched_sentences
    return Answer(
        question=question,
        text=text,
        footnotes=footnotes,
        unresolved=resolution.unresolved,
        evidence=tuple(evidence),
        metrics=measure(text, resolution, sentences=sentences, matched=matched, flagged=len(flags)),
        unsupported=unsupported or not footnotes,
        interrupted=interrupted,
        provider=provider,
        error=error,
        closest=closest or text.lstrip().startswith(CLOSEST_PASSAGES),
        unresolved_spans=resolution.unresolved_spans,
        flags=flags,
        computed=computed,
    )


class AnswerCitations:
    """The one parse of a streamed answer: TextDelta events that say how much may be shown, then
    a Cited event per marker completed (resolved ids numbered by first appearance, the evidence on
    the first occurrence only, never on an unresolved id), and the final Answer from those spans."""

    def __init__(self, evidence: Sequence[Evidence], computation: Computation | None = None) -> None:
        self.evidence = tuple(evidence)
        self.computation = computation
        self.table = {e.short_id: e for e in evidence}
        self.numbers: dict[str, int] = {}
        self.spans: list[CitationSpan] = []
        self.stream = CitationStream(known=self.table)

    @property
    def text(self) -> str:
        """The answer text so far."""
        return self.stream.text

    def feed(self, delta: str) -> Iterator[TextDelta | Cited]:
        """The delta, then the citations it completed."""
        events = self.stream.feed(delta)
        yield TextDelta(delta, shown=self.stream.safe_length, cited=len(events))
        yield from self._cited(events)

    def finish(self) -> Iterator[Cited]:
        """The citation that closed on the answer's last character, if any."""
        yield from self._cited(self.stream.finish())

    def answer(self, question: Question, **fields: Any) -> Answer:
        """The Answer for the text so far, from the citations already reported (no second parse),
        with the figure computed and its line left out of the support check."""
        if self.computation is not None:
            # a refusal does not answer directly: closest (a judgement's figures are no refusal)
            refused = self.computation.computed is None and not self.computation.judged
            fields = {"computed": self.computation.computed, "fixed": len(self.computation.line), **fields}
            fields.setdefault("closest", refused)
        return build_answer(question.text, self.text, self.evidence, spans=self.spans, **fields)

    def _cited(self, events: Sequence[CitationEvent]) -> Iterator[Cited]:
        for event in events:
            sid = canonical_id(event.id, self.table)
            if sid is None:
                self.spans.append(event.span)
                yield Cited(event, False)
                continue
            event = replace(event, id=sid)  # an id in another case, as the table spells it
            self.spans.append(event.span)
            first = sid not in self.numbers
            number = self.numbers.setdefault(sid, len(self.numbers) + 1)
            yield Cited(event, True, number, self.table[sid] if first else None)


def stream_answer(
    question: Question,
    retrieval: Retrieval,
    *,
    chat_model: Answerer,
    provider_label: str,
    history: Sequence[Answer] = (),
    check_relevance: bool = True,
    min_dense: float = MIN_DENSE,
    min_coverage: float = MIN_COVERAGE,
    **timing: Any,
) -> Iterator[StreamEvent]:
    """Events for one question whose evidence is already retrieved (see answer_stream)."""
    evidence, limits = retrieval.evidence, Limits(**timing)
    # When the library holds no filing of the period asked, the answer ends saying which it used.
    note = f"\n\n{retrieval.period_note}" if retrieval.period_note else ""
    if not evidence or (check_relevance and not retrieval.is_relevant(min_dense, min_coverage)):
        yield TextDelta(NOT_IN_DOCUMENTS + note)
        text = NOT_IN_DOCUMENTS + note
        yield Done(build_answer(question.text, text, evidence, provider=provider_label, unsupported=True))
        return
    computation = compute_answer(question, evidence, retrieval.picked, retrieval.fy_ends) or judged_figures(
        question, evidence, retrieval.picked, retrieval.fy_ends
    )
    cells = computation.cells if computation is not None else ()
    cites = AnswerCitations((*evidence, *cells), computation)
    if computation is not None:
        yield from cites.feed(computation.line)
        if computation.complete and isinstance(chat_model, OfflineAnswerer):  # the line is its answer
            yield from _ending(cites, note, question, provider_label)
            return
        yield from cites.feed("\n\n")
    try:
        # closed on a Stop too
        with closing(_deltas(chat_model, question, evidence, computation, history, limits)) as deltas:
            for delta in deltas:
                yield from cites.feed(delta)
    except ModelFailure as failure:
        partial = bool(cites.text.strip())
        yield Failed(failure.cause, failure.message, partial=partial)
        if partial:
            yield from cites.finish()
            yield Done(
                cites.answer(question, provider=provider_label, interrupted=True, error=failure.message)
            )
        return
    yield from _ending(cites, note, question, provider_label)


def _deltas(
    chat_model: Answerer,
    question: Question,
    passages: Sequence[Evidence],
    computation: Computation | None,
    history: Sequence[Answer],
    limits: Limits,
) -> Iterator[str]:
    """The answer's text after any computed line. The offline answerer answers the values; a chat
    model is given the prompt (the passages, after the computed figure's block) and is streamed
    within the limits (rag.answering.model_stream)."""
    if isinstance(chat_model, OfflineAnswerer):
        yield from chat_model.answer(question, passages)
        return
    block = computation.block if computation is not None else ""
    messages = build_messages(question.text, passages, history, computed=block)
    model = chat_model.for_evidence(passages) if isinstance(chat_model, TakesEvidence) else chat_model
    yield from model_deltas(model, messages, limits)


def _ending(cites: AnswerCitations, note: str, question: Question, provider: str) -> Iterator[StreamEvent]:
    """A finished answer's end: the period note (if any), the last citation, then Done."""
    if note:
        yield from cites.feed(note)
    yield from cites.finish()
    yield Done(cites.answer(question, provider=provider))


def answer_stream(
    question: str,
    *,
    library: LibraryReader,
    chat_model: Answerer,
    provider_label: str,
    k: int,
    history: Sequence[Answer] = (),
    doc_ids: Sequence[str] | None = None,
    **options: Any,
) -> Iterator[StreamEvent]:
    """Read the question (rag.questions.read: the one reading, which every stage after it takes),
    retrieve evidence for it and stream the cited answer: Retrieved (the evidence, so a UI can show
    the sources before the first token), TextDelta and Cited events, then Done; Failed (then Done
    with interrupted=True if text had arrived) on errors.
    options: min_dense, min_coverage, check_relevance (see ANY_WORD), and the fields of rag.answering.model_stream.Limits (retries, backoff_s,
    first_token_timeout_s, stall_timeout_s, deadline_s, retry_after_cap_s, max_tokens, sleep).
    Closing the generator early (a Stop button) stops the model's thread at its next chunk."""
    read = read_question(question, history[-1].question if history else None)
    try:
        with asking():  # an ingest embedding of this process waits for the search (ingest.embeddings)
            retrieval = gather(library, read, search_evidence(library, read, k=k, doc_ids=doc_ids))
    except Exception as exc:
        log.warning("retrieval failed", exc_info=True)
        yield Failed(
            "retrieval failed",
            f"the library could not be searched ({type(exc).__name__}: {exc}); "
            "if the embeddings come from an endpoint, check that it is up",
        )
        return
    yield Retrieved(retrieval.evidence)
    if "min_dense" not in options and not gate_measured_for(library_embedding_name(library)):
        options = {"min_coverage": ANY_WORD, **options, "min_dense": math.inf}  # cosine means nothing here
    progress = retrieval.vector_progress  # documents searched by words only, read once by the search
    for event in stream_answer(
        read, retrieval, chat_model=chat_model, provider_label=provider_label, history=history, **options
    ):
        yield Done(with_words_only(event.answer, progress)) if progress and isinstance(event, Done) else event
