"""The chat column: saved turns drawn from data, the streamed new answer, and the sidebar."""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.runtime.scriptrunner import get_script_run_ctx

from components.chat.answer_view import show_answer
from components.chat.chat_panel import on_footnote_click
from components.chat.stream import BadgeStream, StreamOutcome, searching_line, sources_line
from components.shared import state
from components.shared.names import document_name
from components.shared.render import attribution_notes, escape_markdown, page_range
from ingest.types import Document
from rag.answering.events import Failed, Retrieved, StreamEvent
from rag.retrieval.documents import drew_on
from rag.stores.conversations import ConversationStore
from rag.types import Answer, Turn

CONV_PARAM = "conv"


def current_conversation(store: ConversationStore) -> str | None:
    """The conversation named by ?conv=<id>, if this user has it; an unknown id, or another
    user's, is dropped with the same note (nothing tells the two apart)."""
    conv_id = st.query_params.get(CONV_PARAM)
    if conv_id and not store.exists(conv_id):
        st.toast("That conversation no longer exists; starting a new one.", icon=":material/info:")
        del st.query_params[CONV_PARAM]
        return None
    return conv_id or None


def _open_conversation(conv_id: str | None) -> None:
    state.clear_selection()
    if conv_id is None:
        st.query_params.pop(CONV_PARAM, None)
    else:
        st.query_params[CONV_PARAM] = conv_id


def show_sidebar(
    store: ConversationStore, documents: Sequence[Document], provider: str, k_default: int
) -> None:
    """New chat, recent chats, the document filter, k and the provider in use."""
    with st.sidebar:
        st.button(
            "New chat",
            key="new_chat",
            icon=":material/add_comment:",
            width="stretch",
            on_click=_open_conversation,
            args=(None,),
        )
        recent = store.list_recent(12)
        if recent:
            st.caption("Recent chats")
            current = st.query_params.get(CONV_PARAM)
            for info in recent:
                st.button(
                    escape_markdown((info.title or "Untitled")[:80]),
                    key=f"conv_{info.conv_id}",
                    type="secondary" if info.conv_id == current else "tertiary",
                    width="stretch",
                    on_click=_open_conversation,
                    args=(info.conv_id,),
                )
        st.divider()
        titles = {d.doc_id: document_name(d.title, d.file_name) for d in documents}
        state.prune_doc_filter(set(titles))
        st.multiselect(
            "Limit to documents",
            options=list(titles),
            key=state.DOC_FILTER,
            format_func=lambda doc_id: titles.get(doc_id, doc_id),
            placeholder="All documents",
        )
        state.top_k(k_default)
        st.slider("Sources per question (k)", min_value=1, max_value=max(20, k_default), key=state.TOP_K)
        st.caption(f"Answering with: {escape_markdown(provider)}")


def _labels(answer: Answer) -> None:
    for line in answer.words_only:  # a document searched by words only: its vectors were on the way
        st.caption(":material/hourglass_top: " + escape_markdown(line))
    notes = []
    if answer.unsupported and not answer.interrupted:
        notes.append(":orange-badge[:material/report: Not supported by the documents]")
    if answer.closest:
        notes.append(":violet-badge[:material/format_quote: Closest passages, not a direct answer]")
    if answer.interrupted:
        notes.append(":red-badge[:material/error: Interrupted]")
    if answer.unresolved:
        n = len(answer.unresolved)
        notes.append(f":gray-badge[{n} unresolved citation{'s' if n != 1 else ''}]")
    notes += attribution_notes(answer)
    notes.append(f":gray[{escape_markdown(answer.provider or 'unknown provider')}]")
    st.markdown(" ".join(notes))


def _sources(answer: Answer) -> None:
    if not answer.footnotes:
        return
    lines = []
    for f in answer.footnotes:
        ev = f.evidence
        pages, _indexes = page_range(ev)
        how = " · matched by Footnote" if f.kind == "matched" else ""
        lines.append(f"[{f.number}] {document_name(ev.title, ev.file_name)} · p. {pages}{how}")
    st.text("\n".join(lines))
    st.caption("Drew on: " + "; ".join(escape_markdown(title) for _doc_id, title in drew_on(answer)))


def show_answer_block(turn: Turn) -> None:
    """A saved answer: the interactive text (a footnote click opens the side panel), its sources,
    labels and any error."""
    answer = turn.answer
    if answer.error:
        st.error(f"The answer failed: {escape_markdown(answer.error)}", icon=":material/error:")
    if answer.text:
        show_answer(turn.turn_id, answer, on_footnote_click)
    elif answer.interrupted and not answer.error:
        st.caption("Stopped before the answer began.")
    _sources(answer)
    _labels(answer)


def show_history(turns: Iterable[Turn]) -> None:
    """Every saved turn, from data: the model is never called here."""
    for turn in turns:
        with st.chat_message("user"):
            st.text(turn.answer.question)
        with st.chat_message("assistant"):
            show_answer_block(turn)


class _LiveStream:
    """The answer one session's run is streaming; saved exactly once, by whichever comes first:
    that run (finished, failed, or stopped), or the session's next run taking it over."""

    def __init__(self, question: str, provider: str, save: Callable[[Answer], Turn]) -> None:
        self.question, self.provider, self._save = question, provider, save
        self.badges = BadgeStream()
        self._lock = threading.Lock()
        self._saved = False

    def save_once(self) -> Turn | None:
        """Save the answer so far (the whole answer once Done arrived); None if already saved."""
        with self._lock:
            if self._saved:
                return None
            self._saved = True
            return self._save(self.badges.answer_so_far(self.question, self.provider))


# session id -> the stream that session's latest run started. With runner.fastReruns (the
# default) a widget event starts the next run in a new thread at once and only asks the old run
# to stop; the old thread notices at its next write (the next model token, or seconds later on a
# stalled model), so the next run saves the cut-off answer itself before reading the turns.
_LIVE: dict[str, _LiveStream] = {}
_LIVE_LOCK = threading.Lock()


def _session_id() -> str:
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else ""


def saved_turns(store: ConversationStore, conv_id: str | None) -> list[Turn]:
    """The conversation's turns, after saving an answer that this session's previous run was
    streaming when it was cut off (Stop, a new question, any widget event)."""
    with _LIVE_LOCK:
        live = _LIVE.pop(_session_id(), None)
    if live is not None:
        live.save_once()
    return store.turns(conv_id) if conv_id else []


def stream_answer(
    question: str,
    events: Callable[[], Generator[StreamEvent, None, None]],
    save: Callable[[Answer], Turn],
    provider: str,
    documents: int,
) -> StreamOutcome:
    """Ask, say at once what is happening (searching `documents` documents, then the sources
    found), stream with inert badges, then swap in the interactive answer in the same run. A
    failure is saved too (question and cause), so the chat keeps it after a rerun or reload; so
    is the text so far when the run is cut off (see saved_turns), marked interrupted."""
    live = _LiveStream(question, provider, save)
    session = _session_id()
    with _LIVE_LOCK:
        _LIVE[session] = live
    try:
        with st.chat_message("user"):
            st.text(question)
        with st.chat_message("assistant"):
            status, stop_slot, slot = st.empty(), st.empty(), st.empty()
            status.caption(searching_line(documents))
            stop_slot.button("Stop", key=state.STOP_STREAM, icon=":material/stop_circle:", type="tertiary")
            _write_stream(slot, live.badges, events, status)
            if live.badges.outcome.done is None and live.badges.outcome.failed is None:
                live.badges.outcome.failed = Failed("no answer", "the answer stream ended without a result")
            turn = live.save_once()
            status.empty()
            stop_slot.empty()
            if turn is not None:
                with slot.container():
                    show_answer_block(turn)
    finally:
        # A Streamlit control exception (a BaseException: this run was stopped) lands here too.
        live.save_once()
        with _LIVE_LOCK:
            if _LIVE.get(session) is live:
                del _LIVE[session]
    return live.badges.outcome


def _write_stream(
    slot: DeltaGenerator,
    badges: BadgeStream,
    events: Callable[[], Generator[StreamEvent, None, None]],
    status: DeltaGenerator,
) -> None:
    """Write the pieces into the slot, the sources found into status; an error from the library
    or model becomes the outcome."""
    source = events()
    shown = _show_sources(source, status)
    pieces = badges.pieces(shown)
    try:
        with slot.container():
            st.write_stream(pieces)
    except Exception as exc:
        badges.outcome.failed = Failed(type(exc).__name__, str(exc) or "no details")
    finally:
        pieces.close()
        shown.close()
        source.close()  # GeneratorExit in answer_stream: its model thread stops


def _show_sources(events: Iterator[StreamEvent], status: DeltaGenerator) -> Iterator[StreamEvent]:
    for event in events:
        if isinstance(event, Retrieved):
            status.caption(sources_line(event.evidence))
        else:
            yield event
