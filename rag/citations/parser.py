"""The parser of the citation grammar (rag/citations/grammar.py defines it): CitationStream, fed
answer deltas as they stream, and citation_spans / extract_citations, the same parse fed once.

CitationStream looks at each character once, so total work is linear in the answer's length.
"""

from __future__ import annotations

from collections.abc import Iterable

from rag.citations import grammar
from rag.types import CitationEvent, CitationSpan


class CitationStream:
    """Feed answer deltas; get each citation marker exactly once, with offsets in the whole text.
    known: the ids of this answer's evidence, which the loose styles (parentheses, bare words)
    must name to count; without them only the bracket styles are markers."""

    def __init__(self, known: Iterable[str] = ()) -> None:
        self._known = frozenset(k.lower() for k in known)
        self._special = grammar.SPECIAL_LOOSE if self._known else grammar.SPECIAL
        self._chunks: list[str] = []
        self._joined: str | None = ""
        self._length = 0
        self._seen: set[str] = set()
        self._prev = ""  # the character before the one being read
        # plain-text state
        self._escaped = False
        self._ticks = 0
        self._code = 0
        # marker-in-progress state
        self._start: int | None = None
        self._close = ""
        self._kind = ""
        self._state = ""
        self._tok_start = 0
        self._tokens: list[tuple[int, int]] = []
        self._marker: list[str] = []  # the characters of the marker in progress
        self._labels = 0
        self._colon = self._caret = False
        self._pending: grammar.Found | None = None  # closed by `]`: a link if `(` follows
        self._link: tuple[grammar.Found, int, bool] | None = None  # (marker, where "(" is, "#" seen)
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
        if self._link is not None:
            return self._link[0][0]
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
                found = self._special.search(delta, i)
                if found is None:
                    self._escaped = False
                    break
                if found.start() > i:
                    self._escaped = False
                    i = found.start()
                    self._prev = delta[i - 1]
            self._step(delta[i], base + i, events)
            self._prev = delta[i]
            i += 1
        self._prev = delta[-1]
        return events

    def finish(self) -> list[CitationEvent]:
        """End of the answer: confirm a marker that closed on the last character."""
        events: list[CitationEvent] = []
        if self._pending is not None:
            self._emit(self._pending, events)
            self._pending = None
        if self._start is not None and self._kind == "bare" and self._state == "tok":
            self._end_bare(self._length, events)
        self._start = self._link = None
        self._finished = True
        return events

    # --- the state machine --------------------------------------------------------------

    def _is_idle(self) -> bool:
        return (
            self._start is None
            and self._pending is None
            and self._link is None
            and not self._ticks
            and not self._code
        )

    def _step(self, ch: str, pos: int, events: list[CitationEvent]) -> None:
        if self._link is not None and self._link_step(ch, pos, events):
            return
        if self._pending is not None:
            pending, self._pending = self._pending, None
            if ch == "(":
                self._link = (pending, pos, False)  # `[id](#...)` is a marker, `[id](url)` a link
                return
            self._emit(pending, events)
        if self._start is not None:
            outcome = self._marker_step(ch, pos)
            if outcome in ("more", "closed"):
                self._marker.append(ch)
            if outcome == "closed":
                found = (self._start, pos + 1, self._tokens, "".join(self._marker), self._kind)
                if self._close == "]":
                    self._pending = found
                else:
                    self._emit(found, events)
                self._start = None
                return
            if outcome == "more":
                return
            if outcome == "ended":  # a bare marker's id ended at this character, which is text
                self._end_bare(pos, events)
            self._start = None  # abandoned or ended: the character is plain text
        self._plain_step(ch, pos)

    def _link_step(self, ch: str, pos: int, events: list[CitationEvent]) -> bool:
        """A character after `[id](`: True when it belongs to a `(#...)` or `()` destination."""
        assert self._link is not None
        found, opened, fragment = self._link
        if ch == ")" and (fragment or pos == opened + 1):
            self._link = None
            self._emit((found[0], pos + 1, found[2], found[3], found[4]), events)
            return True
        if pos == opened + 1 and ch == "#":
            self._link = (found, opened, True)
            return True
        if fragment and pos - opened <= grammar.MAX_FRAGMENT and not ch.isspace() and ch not in "()[]":
            return True
        self._link = None  # a real link: its bracket and destination are text
        return False

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
        if not self._escaped:
            if ch in grammar.CLOSE_FOR and (ch != "(" or self._known):
                self._open(pos, grammar.CLOSE_FOR[ch], "paren" if ch == "(" else "strict", "start", ch)
            elif ch in "sS" and self._known and not grammar.is_word_char(self._prev):
                self._open(pos, "", "bare", "tok", ch)
        self._escaped = False

    def _open(self, pos: int, close: str, kind: str, state: str, ch: str) -> None:
        self._start, self._close, self._kind, self._state = pos, close, kind, state
        self._tok_start, self._tokens, self._marker = pos, [], [ch]
        self._labels, self._colon, self._caret = 0, False, False

    def _marker_step(self, ch: str, pos: int) -> str:
        """Advance a marker in progress: 'more', 'closed', 'ended' (bare) or 'abandon'."""
        assert self._start is not None
        if pos - self._start > grammar.MAX_MARKER:
            return "abandon"
        state = self._state
        if state == "tok":
            if grammar.is_id_char(ch):
                return "more" if pos - self._tok_start < grammar.MAX_ID else "abandon"
            return self._end_token(ch, pos)
        if state in ("start", "label", "id"):
            if grammar.is_id_char(ch):
                self._tok_start, self._state = pos, "tok"
                return "more"
            if state == "start" and ch == "^" and self._close == "]" and not self._caret:
                self._caret = True
                return "more"
            if state == "label" and ch == ":" and not self._colon:
                self._colon = True
                return "more"
            return "more" if ch == " " and state != "start" else "abandon"
        # after_id: spaces after an id, before a separator
        if ch == " ":
            return "more"
        if ch in grammar.SEPARATORS:
            self._state = "id"
            return "more"
        return "abandon"

    def _end_token(self, ch: str, pos: int) -> str:
        """A run of letters and digits ended at ch: a label word ("Source", "ID") or an id."""
        word = "".join(self._marker[self._tok_start - self._start :]).lower()
        labels = grammar.BARE_LABELS if self._kind == "bare" and not self._labels else grammar.LABELS
        if (
            not self._tokens
            and not self._caret
            and ch in " :"
            and word in labels
            and self._labels < grammar.MAX_LABELS
        ):
            self._labels += 1
            self._state, self._colon = "label", ch == ":"
            return "more"
        if not grammar.MIN_ID <= pos - self._tok_start <= grammar.MAX_ID or (
            self._kind == "bare" and not self._labels
        ):
            return "abandon"
        if self._kind == "bare":
            return "ended"
        self._tokens.append((self._tok_start, pos))
        if len(self._tokens) > grammar.MAX_IDS:
            return "abandon"
        if ch == self._close:
            return "closed"
        if ch in grammar.SEPARATORS:
            self._state = "id"
            return "more"
        if ch == " ":
            self._state = "after_id"
            return "more"
        return "abandon"

    def _end_bare(self, end: int, events: list[CitationEvent]) -> None:
        assert self._start is not None
        if self._labels and grammar.MIN_ID <= end - self._tok_start <= grammar.MAX_ID:
            tokens = [(self._tok_start, end)]
            self._emit((self._start, end, tokens, "".join(self._marker), "bare"), events)

    def _emit(self, found: grammar.Found, events: list[CitationEvent]) -> None:
        start, end, tokens, marker, kind = found
        ids = [marker[a - start : b - start] for a, b in tokens]
        if kind != "strict" and not all(cid.lower() in self._known for cid in ids):
            return  # parentheses and bare words hold ordinary text unless they name this answer's ids
        single = len(tokens) == 1
        for cid, (tok_start, tok_end) in zip(ids, tokens):
            first = cid not in self._seen
            self._seen.add(cid)
            span_start, span_end = (start, end) if single else (tok_start, tok_end)
            events.append(CitationEvent(cid, span_start, span_end, start, end, first))


def citation_spans(text: str | None, known: Iterable[str] = ()) -> list[CitationSpan]:
    """Every cited id in text, in order, with its span (see CitationSpan); known: as CitationStream."""
    if not text:
        return []
    stream = CitationStream(known)
    events = stream.feed(text) + stream.finish()
    return [e.span for e in events]


def extract_citations(text: str | None, known: Iterable[str] = ()) -> list[str]:
    """The cited ids in order of appearance, duplicates kept."""
    return [span.id for span in citation_spans(text, known)]
