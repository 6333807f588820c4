"""The streamed answer as display-safe markdown: finished citations as inert numbered badges,
an unfinished marker held back, and the lines announcing the search and the sources found before
the model starts. No Streamlit here; the chat page feeds the pieces to st.write_stream."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from components.render import escape_markdown, escape_stream_text, page_range, stream_badge
from rag.answer import build_answer
from rag.citations import CitationStream
from rag.types import Answer, Cited, Done, Evidence, Failed, StreamEvent, TextDelta

def searching_line(documents: int) -> str:
    """What the chat shows the moment a question is sent."""
    return f":material/search: Searching {documents} document{'s' if documents != 1 else ''}…"


def sources_line(evidence: Sequence[Evidence]) -> str:
    """What retrieval found, as one markdown line (titles escaped): passages per document and pages."""
    if not evidence:
        return ":material/search_off: No passages found."
    pages: dict[str, list[str]] = {}
    for item in sorted(evidence, key=lambda e: (e.doc_id, e.page_index)):
        labels = pages.setdefault(" ".join((item.title or item.file_name).split()), [])
        label = page_range(item)[0]
        if label not in labels:
            labels.append(label)
    docs = "; ".join(f"{escape_markdown(title)} (p. {', '.join(map(escape_markdown, labels))})"
                     for title, labels in pages.items())
    n = len(evidence)
    return f":material/library_books: Found {n} passage{'s' if n != 1 else ''} in {docs}. Writing the answer…"


@dataclass
class StreamOutcome:
    """What the stream ended with: the final answer (Done) or the failure, the raw text so far and
    the evidence that citations brought. Kept current, and only ever replaced (never mutated), so
    another thread may read it while the stream runs (a rerun that takes over a killed stream)."""

    done: Done | None = None
    failed: Failed | None = None
    text: str = ""
    events: int = 0
    cited: tuple[Evidence, ...] = ()


@dataclass
class _Chunk:
    start: int
    text: str
    markers: list[tuple[int, int, list[str]]] = field(default_factory=list)


class BadgeStream:
    """Turns answer events into markdown pieces. A piece is released only once every marker in it
    is known to be resolved or not (answer_stream reports that with Cited events)."""

    def __init__(self) -> None:
        self._citations = CitationStream()
        self._numbers: dict[str, int | None] = {}
        self._queue: list[_Chunk] = []
        self._groups: dict[tuple[int, int], list[str]] = {}
        self.outcome = StreamOutcome()

    def pieces(self, events: Iterable[StreamEvent]) -> Iterator[str]:
        """Markdown pieces to append, in order, as the events arrive."""
        for event in events:
            self.outcome.events += 1
            if isinstance(event, TextDelta):
                self._feed(event.text)
            elif isinstance(event, Cited):
                cid = event.citation.id
                if event.resolved and event.number is not None:
                    self._numbers[cid] = event.number
                    if event.evidence is not None:
                        self.outcome.cited = (*self.outcome.cited, event.evidence)
                else:
                    self._numbers.setdefault(cid, None)
            elif isinstance(event, Done):
                self.outcome.done = event
                self._finish()
                yield from self._release(final=True)
                return
            elif isinstance(event, Failed):
                self.outcome.failed = event
            out = "".join(self._release(final=False))
            if out:
                yield out
        # Ended without Done (a failure): an unfinished marker at the end stays hidden.
        self.outcome.text = self._citations.text
        yield from self._release(final=True)

    def answer_so_far(self, question: str, provider: str) -> Answer:
        """The answer to save: the finished one if Done arrived, otherwise the text so far marked
        interrupted (by a failure, Stop, a new question or a reload), with footnotes for the
        evidence its citations brought."""
        outcome = self.outcome
        if outcome.done is not None:
            return outcome.done.answer
        failed = outcome.failed
        return build_answer(question, outcome.text, outcome.cited, provider=provider, interrupted=True,
                            error=f"{failed.cause}: {failed.message}" if failed else None)

    def _feed(self, delta: str) -> None:
        for ev in self._citations.feed(delta):
            self._groups.setdefault((ev.group_start, ev.group_end), []).append(ev.id)
        self.outcome.text = self._citations.text
        self._take()

    def _finish(self) -> None:
        for ev in self._citations.finish():
            self._groups.setdefault((ev.group_start, ev.group_end), []).append(ev.id)
        self._take()
        self.outcome.text = self._citations.text

    def _take(self) -> None:
        start = self._citations.safe_length
        text = self._citations.take_safe()
        if not text:
            return
        begin = start - len(text)
        markers = [(s, e, ids) for (s, e), ids in self._groups.items() if begin <= s < start]
        for key in [(s, e) for s, e, _ in markers]:
            del self._groups[key]
        self._queue.append(_Chunk(begin, text, sorted(markers)))

    def _release(self, final: bool) -> Iterator[str]:
        while self._queue:
            chunk = self._queue[0]
            ids = [cid for _s, _e, group in chunk.markers for cid in group]
            if not final and any(cid not in self._numbers for cid in ids):
                return
            self._queue.pop(0)
            yield self._render(chunk)

    def _render(self, chunk: _Chunk) -> str:
        out: list[str] = []
        pos = 0
        for start, end, ids in chunk.markers:
            out.append(escape_stream_text(chunk.text[pos : start - chunk.start]))
            out.append(" " + " ".join(stream_badge(self._numbers.get(cid)) for cid in ids))
            pos = end - chunk.start
        out.append(escape_stream_text(chunk.text[pos:]))
        return "".join(out)
