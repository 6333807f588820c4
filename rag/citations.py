"""The one citation grammar: short-id markers in answer text, one shot and streaming.

A marker is `[` + 7 or 8 ASCII letters or digits + `]`, case as written. Models also write
several ids in one bracket separated by commas or semicolons (`[abc1234, def5678]`) and
full-width brackets (`【abc1234】`); both count. Not markers: markdown links `[text](url)`
(an ASCII marker is confirmed only once the next character is known not to be `(`),
backslash-escaped brackets, anything inside a backtick code span, and brackets holding
anything else (`[1]`, `[TODO]`, `[abc-1234]`, `[abcdefghi]`). Words that fit the grammar
(`[Appendix]`) are markers; resolve() leaves them unresolved, so they never become footnotes.

Code spans are simplified from CommonMark so that a stream can decide without looking ahead:
a run of n backticks opens code until the next run of exactly n backticks.

CitationStream looks at each character once, so total work is linear in the answer's length.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from rag.types import CitationEvent, CitationSpan, Evidence, Footnote, Resolution

_CLOSE_FOR = {"[": "]", "\u3010": "\u3011"}
_SEPARATORS = ",;"
_MIN_ID, _MAX_ID = 7, 8
_MAX_IDS = 32
_MAX_MARKER = 400
_SPECIAL = re.compile(r"[\[\u3010`\\]")


def _is_id_char(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


class CitationStream:
    """Feed answer deltas; get each citation marker exactly once, with offsets in the whole text."""

    def __init__(self) -> None:
        self._chunks: list[str] = []
        self._joined: str | None = ""
        self._length = 0
        self._seen: set[str] = set()
        # plain-text state
        self._escaped = False
        self._ticks = 0
        self._code = 0
        # marker-in-progress state
        self._start: int | None = None
        self._close = ""
        self._state = ""
        self._tok_start = 0
        self._tokens: list[tuple[int, int]] = []
        self._marker: list[str] = []  # the characters of the marker in progress
        self._pending: tuple[int, int, list[tuple[int, int]], str] | None = None
        # text not yet taken by take_safe(), as pieces: joined only when taken, so feeding
        # without taking stays linear
        self._taken = 0
        self._untaken: list[str] = []
        self._finished = False

    # --- public -------------------------------------------------------------------------

    @property
    def text(self) -> str:
        """Everything fed so far."""
        if self._joined is None:
            self._joined = "".join(self._chunks)
            self._chunks = [self._joined]
        return self._joined

    @property
    def safe_length(self) -> int:
        """Length of the prefix that can be shown: all but an unfinished marker at the end."""
        if self._pending is not None:
            return self._pending[0]
        if self._start is not None:
            return self._start
        return self._length

    def take_safe(self) -> str:
        """The display-safe text that has not been taken yet (for incremental display)."""
        n = self.safe_length - self._taken
        if n == 0:
            return ""
        rest = "".join(self._untaken)
        self._untaken = [rest[n:]] if len(rest) > n else []
        self._taken += n
        return rest[:n]

    def feed(self, delta: str) -> list[CitationEvent]:
        """Add a delta; return the markers it completed."""
        if self._finished:
            raise RuntimeError("CitationStream.feed() after finish()")
        if not delta:
            return []
        events: list[CitationEvent] = []
        base = self._length
        self._chunks.append(delta)
        self._joined = None
        self._length += len(delta)
        self._untaken.append(delta)
        i, n = 0, len(delta)
        while i < n:
            if self._is_idle():
                found = _SPECIAL.search(delta, i)
                if found is None:
                    self._escaped = False
                    break
                if found.start() > i:
                    self._escaped = False
                    i = found.start()
            self._step(delta[i], base + i, events)
            i += 1
        return events

    def finish(self) -> list[CitationEvent]:
        """End of the answer: confirm a marker that closed on the last character."""
        events: list[CitationEvent] = []
        if self._pending is not None:
            self._emit(self._pending, events)
            self._pending = None
        self._start = None
        self._finished = True
        return events

    # --- the state machine --------------------------------------------------------------

    def _is_idle(self) -> bool:
        return self._start is None and self._pending is None and not self._ticks and not self._code

    def _step(self, ch: str, pos: int, events: list[CitationEvent]) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            if ch != "(":
                self._emit(pending, events)
        if self._start is not None:
            outcome = self._marker_step(ch, pos)
            if outcome != "abandon":
                self._marker.append(ch)
            if outcome == "closed":
                found = (self._start, pos + 1, self._tokens, "".join(self._marker))
                if self._close == "]":
                    self._pending = found
                else:
                    self._emit(found, events)
                self._start = None
                return
            if outcome == "more":
                return
            self._start = None  # abandoned: the character is plain text
        self._plain_step(ch, pos)

    def _plain_step(self, ch: str, pos: int) -> None:
        if ch == "`":
            if self._escaped and not self._code and not self._ticks:
                self._escaped = False
                return
            self._ticks += 1
            return
        if self._ticks:
            run, self._ticks = self._ticks, 0
            if not self._code:
                self._code = run
            elif self._code == run:
                self._code = 0
        if self._code:
            self._escaped = False
            return
        if ch == "\\":
            self._escaped = not self._escaped
            return
        if ch in _CLOSE_FOR and not self._escaped:
            self._start, self._close = pos, _CLOSE_FOR[ch]
            self._state, self._tokens, self._marker = "id", [], [ch]
        self._escaped = False

    def _marker_step(self, ch: str, pos: int) -> str:
        """Advance a marker in progress: 'more', 'closed' or 'abandon'."""
        assert self._start is not None
        if pos - self._start > _MAX_MARKER:
            return "abandon"
        state = self._state
        if state == "id":  # expecting the first character of an id
            if _is_id_char(ch):
                self._tok_start, self._state = pos, "in_id"
                return "more"
            if ch == " " and self._tokens:
                return "more"
            return "abandon"
        if state == "in_id":
            if _is_id_char(ch):
                return "more" if pos - self._tok_start < _MAX_ID else "abandon"
            if not _MIN_ID <= pos - self._tok_start <= _MAX_ID:
                return "abandon"
            self._tokens.append((self._tok_start, pos))
            if len(self._tokens) > _MAX_IDS:
                return "abandon"
            if ch == self._close:
                return "closed"
            if ch in _SEPARATORS:
                self._state = "id"
                return "more"
            if ch == " ":
                self._state = "after_id"
                return "more"
            return "abandon"
        # after_id: spaces after an id, before a separator
        if ch == " ":
            return "more"
        if ch in _SEPARATORS:
            self._state = "id"
            return "more"
        return "abandon"

    def _emit(self, found: tuple[int, int, list[tuple[int, int]], str], events: list[CitationEvent]) -> None:
        start, end, tokens, marker = found
        single = len(tokens) == 1
        for tok_start, tok_end in tokens:
            cid = marker[tok_start - start : tok_end - start]
            first = cid not in self._seen
            self._seen.add(cid)
            span_start, span_end = (start, end) if single else (tok_start, tok_end)
            events.append(CitationEvent(cid, span_start, span_end, start, end, first))


def citation_spans(text: str | None) -> list[CitationSpan]:
    """Every cited id in text, in order, with its span (see CitationSpan)."""
    if not text:
        return []
    stream = CitationStream()
    events = stream.feed(text) + stream.finish()
    return [e.span for e in events]


def extract_citations(text: str | None) -> list[str]:
    """The cited ids in order of appearance, duplicates kept."""
    return [span.id for span in citation_spans(text)]


def resolve(
    spans: Iterable[CitationSpan], evidence: Mapping[str, Evidence] | Iterable[Evidence]
) -> Resolution:
    """Map cited ids onto the answer's evidence: footnotes numbered by first appearance with all
    their spans; ids not in the table come back unresolved and never become footnotes."""
    table = evidence if isinstance(evidence, Mapping) else {e.short_id: e for e in evidence}
    order: list[str] = []
    by_id: dict[str, list[CitationSpan]] = {}
    unresolved: list[str] = []
    unresolved_spans: list[CitationSpan] = []
    for span in spans:
        if span.id in table:
            if span.id not in by_id:
                order.append(span.id)
                by_id[span.id] = []
            by_id[span.id].append(span)
        else:
            unresolved_spans.append(span)
            if span.id not in unresolved:
                unresolved.append(span.id)
    footnotes = tuple(
        Footnote(number=n, short_id=sid, evidence=table[sid], spans=tuple(by_id[sid]))
        for n, sid in enumerate(order, start=1)
    )
    return Resolution(footnotes, tuple(unresolved), tuple(unresolved_spans))
