"""The chat column: saved turns drawn from data, the streamed new answer, and the sidebar."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

import streamlit as st

from components import state
from components.answer_view import show_answer
from components.render import escape_markdown, page_range
from components.stream import BadgeStream, StreamOutcome
from ingest.types import Document
from rag.conversations import ConversationStore
from rag.documents import drew_on
from rag.types import Answer, Failed, StreamEvent, Turn

CONV_PARAM = "conv"


def current_conversation(store: ConversationStore) -> str | None:
    """The conversation named by ?conv=<id>, if it exists; an unknown id is dropped with a note."""
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


def show_sidebar(store: ConversationStore, documents: Sequence[Document], provider: str,
                 k_default: int) -> None:
    """New chat, recent chats, the document filter, k and the provider in use."""
    with st.sidebar:
        st.button("New chat", key="new_chat", icon=":material/add_comment:", width="stretch",
                  on_click=_open_conversation, args=(None,))
        recent = store.list_recent(12)
        if recent:
            st.caption("Recent chats")
            current = st.query_params.get(CONV_PARAM)
            for info in recent:
                st.button(escape_markdown((info.title or "Untitled")[:80]), key=f"conv_{info.conv_id}",
                          type="secondary" if info.conv_id == current else "tertiary", width="stretch",
                          on_click=_open_conversation, args=(info.conv_id,))
        st.divider()
        titles = {d.doc_id: d.title or d.file_name for d in documents}
        state.prune_doc_filter(set(titles))
        st.multiselect("Limit to documents", options=list(titles), key=state.DOC_FILTER,
                       format_func=lambda doc_id: titles.get(doc_id, doc_id), placeholder="All documents")
        state.top_k(k_default)
        st.slider("Sources per question (k)", min_value=1, max_value=max(20, k_default), key=state.TOP_K)
        st.caption(f"Answering with: {escape_markdown(provider)}")


def _labels(answer: Answer) -> None:
    notes = []
    if answer.unsupported:
        notes.append(":orange-badge[:material/report: Not supported by the documents]")
    if answer.interrupted:
        notes.append(":red-badge[:material/error: Interrupted]")
    if answer.unresolved:
        n = len(answer.unresolved)
        notes.append(f":gray-badge[{n} unresolved citation{'s' if n != 1 else ''}]")
    notes.append(f":gray[{escape_markdown(answer.provider or 'unknown provider')}]")
    st.markdown(" ".join(notes))


def _sources(answer: Answer) -> None:
    if not answer.footnotes:
        return
    lines = []
    for f in answer.footnotes:
        ev = f.evidence
        pages, _indexes = page_range(ev)
        lines.append(f"[{f.number}] {' '.join((ev.title or ev.file_name).split())} · p. {pages}")
    st.text("\n".join(lines))
    st.caption("Drew on: " + "; ".join(escape_markdown(title) for _doc_id, title in drew_on(answer)))


def show_answer_block(turn: Turn, active: int | None) -> None:
    """A saved answer: the interactive text, its sources, labels and any error."""
    answer = turn.answer
    if answer.error:
        st.error(f"The answer failed: {escape_markdown(answer.error)}", icon=":material/error:")
    if answer.text:
        show_answer(turn.turn_id, answer, active)
    _sources(answer)
    _labels(answer)


def show_history(turns: Iterable[Turn], selected: tuple[str, int] | None) -> None:
    """Every saved turn, from data: the model is never called here."""
    for turn in turns:
        with st.chat_message("user"):
            st.text(turn.answer.question)
        with st.chat_message("assistant"):
            active = selected[1] if selected and selected[0] == turn.turn_id else None
            show_answer_block(turn, active)


def stream_answer(question: str, events: Callable[[], Iterator[StreamEvent]],
                  save: Callable[[Answer], Turn], provider: str) -> StreamOutcome:
    """Ask, stream with inert badges, then swap in the interactive answer in the same run. A
    failure is saved too (question and cause), so the chat keeps it after a rerun or reload."""
    with st.chat_message("user"):
        st.text(question)
    with st.chat_message("assistant"):
        slot = st.empty()
        badges = BadgeStream()
        try:
            with slot.container():
                st.write_stream(badges.pieces(events()))
        except Exception as exc:  # the chat must survive whatever the library or model raised
            badges.outcome.failed = Failed(type(exc).__name__, str(exc) or "no details")
        outcome = badges.outcome
        if outcome.done is not None:
            answer = outcome.done.answer
        else:
            failed = outcome.failed or Failed("no answer", "the answer stream ended without a result")
            answer = Answer(question, "", (), (), (), interrupted=True, provider=provider,
                            error=f"{failed.cause}: {failed.message}")
        turn = save(answer)
        with slot.container():
            show_answer_block(turn, None)
    return outcome
