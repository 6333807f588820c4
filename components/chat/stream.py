"""The streamed answer as display-safe markdown: finished citations as inert numbered badges,
an unfinished marker held back, and the lines announcing the search and the sources found before
the model starts. No Streamlit here; the chat page feeds the pieces to st.write_stream."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from components.shared.names import document_name
from components.shared.render import escape_markdown, escape_stream_text, page_range, stream_badge
from rag.answering.answer import build_answer
from rag.answering.events import Cited, Done, Failed, StreamEvent, TextDelta
from rag.types import Answer, CitationSpan, Evidence


def searching_line(documents: int) -> str:
    """What the chat shows the moment a question is sent."""
    return f":material/search: Searching {documents} document{'s' if documents != 1 else ''}…"


def sources_line(evidence: Sequence[Evidence]) -> str:
    """What retrieval found, as one markdown line (titles escaped): passages per document and pages."""
    if not evidence:
        return ":material/search_off: No passages found."
    pages: dict[str, list[str]] = {}
    for item in sorted(evidence, key=lambda e: (e.doc_id, e.page_index)):
        labels = pages.setdefault(document_name(item.title, item.file_name), [])
        label = page_range(item)[0]
        if label not in labels:
            labels.append(label)
    docs = "; ".join(
        f"{escape_markdown(title)} (p. {', '.join(map(escape_markdown, labels))})"
        for title, labels in pages.items()
    )
    n = len(evidence)
    return f":material/library_books: Found {n} passage{'s' if n != 1 else ''} in {docs}. Writing the answer…"


@dataclass
class StreamOutcome:
    """What the stream ended with: the final answer (Done) or the failure, the raw text so far, the
    evidence that citations brought and the citations reported so far. Kept current, and only ever
    replaced (never mutated), so another thread may read it while the stream runs (a rerun that
    takes over a killed stream)."""

    done: Done | None = None
    failed: Failed | None = None
    text: str = ""
    events: int = 0
    cited: tuple[Evidence, ...] = ()
    spans: tuple[CitationSpan, ...] = ()


class BadgeStream:
    """Turns answer events into markdown pieces, reading the citations from the Cited events (no
    parsing here). Text is released up to where the stream says it may be shown, once the Cited
    events for the markers in it have arrived."""

    def __init__(self) -> None:
        self._chunks: list[str] = []
        self._taken = 0  # length of the text already released
        self._shown = 0  # length of the text that may be shown
        self._waiting = 0  # Cited events still to come for the last delta
        self._groups: dict[tuple[int, int], list[int | None]] = {}
        self.outcome = StreamOutcome()

    def pieces(self, events: Iterable[StreamEvent]) -> Iterator[str]:
        """Markdown pieces to append, in order, as the events arrive."""
        for event in events:
            self.outcome.events += 1
            if isinstance(event, TextDelta):
                self._feed(event)
            elif isinstance(event, Cited):
                self._cite(event)
            elif isinstance(event, Done):
                self.outcome.done = event
                self._shown, self._waiting = len(self.outcome.text), 0
                yield from self._release()
                return
            elif isinstance(event, Failed):
                self.outcome.failed = event
            if not self._waiting:
                yield from self._release()
        # Ended without Done (a failure): an unfinished marker at the end stays hidden.

    def answer_so_far(self, question: str, provider: str) -> Answer:
        """The answer to save: the finished one if Done arrived, otherwise the text so far marked
        interrupted (by a failure, Stop, a new question or a reload), with footnotes for the
        evidence its citations brought."""
        outcome = self.outcome
        if outcome.done is not None:
            return outcome.done.answer
        failed = outcome.failed
        return build_answer(
            question,
            outcome.text,
            outcome.cited,
            provider=provider,
            spans=outcome.spans,
            interrupted=True,
            error=f"{failed.cause}: {failed.message}" if failed else None,
        )

    def _feed(self, delta: TextDelta) -> None:
        self._chunks.append(delta.text)
        self.outcome.text = text = "".join(self._chunks)
        self._chunks = [text]
        self._shown = len(text) if delta.shown is None else delta.shown
        self._waiting = delta.cited

    def _cite(self, event: Cited) -> None:
        citation = event.citation
        number = event.number if event.resolved else None
        self._groups.setdefault((citation.group_start, citation.group_end), []).append(number)
        self.outcome.spans = (*self.outcome.spans, citation.span)
        if event.evidence is not None:
            self.outcome.cited = (*self.outcome.cited, event.evidence)
        self._waiting = max(0, self._waiting - 1)

    def _release(self) -> Iterator[str]:
        begin, end = self._taken, self._shown
        if end <= begin:
            return
        text = self.outcome.text
        out: list[str] = []
        pos = begin
        for start, stop in sorted(k for k in self._groups if begin <= k[0] < end):
            numbers = self._groups.pop((start, stop))
            out.append(escape_stream_text(text[pos:start]))
            out.append(" " + " ".join(stream_badge(n) for n in numbers))
            pos = stop
        out.append(escape_stream_text(text[pos:end]))
        self._taken = end
        yield "".join(out)
