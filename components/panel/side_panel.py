"""The source side panel: the selected footnote's saved evidence, its page picture(s) with the
chunk highlighted, and previous / next / close controls. All untrusted text goes through st.text."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from components.panel.original import ExcerptFn, OriginalFn, show_original
from components.panel.passage import cited_passage
from components.panel.preview import chunk_parts, panel_meta, section_line
from components.panel.style import PANEL_STYLE
from components.shared import state
from components.shared.names import document_name
from components.shared.render import footnote_kind_label, ocr_note, page_range
from rag.retrieval.library_search import SearchHit
from rag.types import Footnote, Turn

PANEL_HEIGHT = 760

# (doc_id, page_index, char_start, char_end, focus, whole=False) -> (JPEG bytes, whether they are
# the page cut to the passage; with whole=True, the whole page), or None when the document is gone.
# focus: page offsets to centre on.
PictureFn = Callable[..., tuple[bytes, bool] | None]
# (doc_id, page_index) -> the page's extracted text, or None.
PageTextFn = Callable[[str, int], str | None]


def selected_footnote(turns: Mapping[str, Turn]) -> tuple[Turn, Footnote] | None:
    """The selection if it points at a footnote of a turn on screen; a stale selection is cleared."""
    chosen = state.selection()
    if chosen is None:
        return None
    turn_id, number = chosen
    turn = turns.get(turn_id)
    if turn is not None and 1 <= number <= len(turn.answer.footnotes):
        return turn, turn.answer.footnotes[number - 1]
    state.clear_selection()
    return None


def _step(turn_id: str, number: int) -> None:
    state.select(turn_id, number)


@dataclass(frozen=True)
class _Parts:
    """The panel's parts, in the order they are shown."""

    controls: DeltaGenerator
    title: DeltaGenerator
    meta: DeltaGenerator
    pages: DeltaGenerator
    original: DeltaGenerator
    chunk: DeltaGenerator


def _parts() -> _Parts:
    """The panel's parts, empty: filled text first (title, place, chunk), so the text reaches the
    browser before the controls, the original's toggle and the pictures (drawn last)."""
    return _Parts(
        st.container(horizontal=True, vertical_alignment="center", wrap=False, key="panel_controls"),
        st.container(key="panel_title"),
        st.container(key="panel_meta"),
        st.container(key="panel_pages"),
        st.container(),
        st.container(key="panel_chunk"),
    )


def _controls(turn: Turn, footnote: Footnote) -> None:
    count, n = len(turn.answer.footnotes), footnote.number
    st.markdown(f"**Source {n}** of {count}", width="stretch")
    st.button(
        "",
        icon=":material/chevron_left:",
        key="panel_prev",
        help="Previous footnote",
        disabled=n <= 1,
        on_click=_step,
        args=(turn.turn_id, n - 1),
    )
    st.button(
        "",
        icon=":material/chevron_right:",
        key="panel_next",
        help="Next footnote",
        disabled=n >= count,
        on_click=_step,
        args=(turn.turn_id, n + 1),
    )
    st.button(
        "", icon=":material/close:", key="panel_close", help="Close panel", on_click=state.clear_selection
    )


def _focus(
    footnote: Footnote, passage: tuple[int, int] | None, page_text: PageTextFn
) -> tuple[int, int] | None:
    """The cited passage as offsets into its page's text, when the evidence is one exact slice of it."""
    ev = footnote.evidence
    if passage is None or len(ev.locators) != 1:
        return None
    loc = ev.locators[0]
    text = page_text(ev.doc_id, loc.page_index)
    if text is None or text[loc.char_start : loc.char_end] != ev.text:
        return None
    return loc.char_start + passage[0], loc.char_start + passage[1]


def _chunk_text(footnote: Footnote, passage: tuple[int, int] | None) -> None:
    before, inside, after = chunk_parts(footnote.evidence.text, passage)
    if before:
        st.text(before)
    if inside:
        with st.container(key="cited_passage"):
            st.text(inside)
    if after:
        st.text(after)


def _highlight(footnote: Footnote, at: int, focus: tuple[int, int] | None) -> tuple[int, int, Any]:
    """(start, end, focus) a page picture highlights: the chunk, the cited passage; a figure's cell: its label, its number."""
    loc, cell = footnote.evidence.locators[at], footnote.evidence.cell
    if cell is not None and cell.label_end > cell.label_start:
        return cell.label_start, cell.label_end, (loc.char_start, loc.char_end)
    return loc.char_start, loc.char_end, focus


def _pages(footnote: Footnote, picture: PictureFn, focus: tuple[int, int] | None) -> None:
    ev = footnote.evidence
    for position, loc in enumerate(ev.locators):
        start, end, marked = _highlight(footnote, position, focus)
        pictures = picture(ev.doc_id, loc.page_index, start, end, marked)
        if pictures is None:
            st.warning(
                "This document is no longer in the library, so its page cannot be drawn. "
                "The passage below is the text saved with this answer.",
                icon=":material/hide_image:",
            )
            return
        jpeg, cut = pictures
        if len(ev.locators) > 1:
            st.text(f"Page {loc.page_label} (index {loc.page_index})")
        st.image(jpeg, width="stretch")
        if cut:
            # Drawn (and encoded) only while open: a closed expander's picture is still sent with
            # every rerun, and fetched and decoded for every new footnote. Opening it reruns the
            # script; it stays open.
            with st.expander("Whole page", key=state.whole_page_key(position), on_change="rerun") as whole:
                if whole.open:
                    full = picture(ev.doc_id, loc.page_index, start, end, marked, True)
                    if full is not None:
                        st.image(full[0], width="stretch")


FOOTNOTE_HINT = "Click a numbered footnote in an answer to open its passage and page here."


# A white pixel, drawn hidden with the hint: Streamlit's browser code for st.image loads on its
# first use, and a first click's page picture waited for it (40-300 ms after the panel's run, load 5-7).
_PIXEL = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00"
    b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)


def show_style() -> None:
    """The panel's look, once per page run in the panel's column (outside the chat's panel
    fragment, so a click does not send it again)."""
    st.html(PANEL_STYLE)


def show_hint(text: str = FOOTNOTE_HINT) -> None:
    """What the panel's column says while nothing is open."""
    with st.container(key="side_panel_hint", border=True):
        st.caption(f":material/touch_app: {text}")
    with st.container(key="panel_warm"):
        st.image(_PIXEL, width=1)


def show_panel(
    turn: Turn,
    footnote: Footnote,
    picture: PictureFn,
    page_text: PageTextFn,
    excerpt: ExcerptFn | None = None,
    original: OriginalFn | None = None,
) -> None:
    """Draw the panel for one footnote of one turn, from that turn's saved evidence snapshot
    (with excerpt and original: a toggle opening the original PDF at the page, and a download)."""
    ev = footnote.evidence
    passage = cited_passage(turn.answer, footnote)
    with st.container(height=PANEL_HEIGHT, key="side_panel", border=True):
        parts = _parts()
    with parts.title:
        st.text(document_name(ev.title, ev.file_name))
    with parts.meta:
        st.text(panel_meta(ev))
        if where := section_line(ev):
            st.text(where)
        with st.container(key=f"panel_kind_{footnote.kind}"):
            st.caption(footnote_kind_label(footnote))
    with parts.chunk:
        _chunk_text(footnote, passage)
    with parts.controls:
        _controls(turn, footnote)
    if excerpt is not None and original is not None:
        with parts.original:
            show_original(ev, excerpt, original)
    with parts.pages:
        _pages(footnote, picture, _focus(footnote, passage, page_text))


# --- Library search hits: the same panel, opened from a search hit ---------------------------


def _hit_controls(query: str, hits: Sequence[SearchHit], position: int) -> None:
    count = len(hits)
    st.markdown(f"**Hit {position + 1}** of {count}", width="stretch")
    st.button(
        "",
        icon=":material/chevron_left:",
        key="panel_prev",
        help="Previous hit",
        disabled=position <= 0,
        on_click=state.open_hit,
        args=(query, hits[max(position - 1, 0)].evidence.chunk_id),
    )
    st.button(
        "",
        icon=":material/chevron_right:",
        key="panel_next",
        help="Next hit",
        disabled=position >= count - 1,
        on_click=state.open_hit,
        args=(query, hits[min(position + 1, count - 1)].evidence.chunk_id),
    )
    st.button("", icon=":material/close:", key="panel_close", help="Close panel", on_click=state.close_hit)


def show_hit_panel(
    query: str,
    hits: Sequence[SearchHit],
    position: int,
    picture: PictureFn,
    page_text: PageTextFn,
    excerpt: ExcerptFn,
    original: OriginalFn,
) -> None:
    """Draw the panel for one search hit: its page with the chunk highlighted (cut to the match),
    the original PDF, and the chunk with the match emphasised."""
    hit = hits[position]
    ev = hit.evidence
    as_footnote = Footnote(position + 1, ev.short_id, ev, ())  # the panel's parts take a footnote
    with st.container(height=PANEL_HEIGHT, key="side_panel", border=True):
        parts = _parts()
    with parts.title:
        st.text(document_name(ev.title, ev.file_name))
    pages, index = page_range(ev)
    with parts.meta:
        st.text(
            f"Match on page {hit.page_label} (index {hit.page_index}) · passage on page {pages} "
            f"(index {index}) · id {ev.short_id} · BM25 {ev.score:.2f}{ocr_note(ev)}"
        )
        if where := section_line(ev):
            st.text(where)
    with parts.chunk:
        _chunk_text(as_footnote, hit.match)
    with parts.controls:
        _hit_controls(query, hits, position)
    with parts.original:
        show_original(ev, excerpt, original, start=(hit.page_index, hit.page_label))
    with parts.pages:
        _pages(as_footnote, picture, _focus(as_footnote, hit.match, page_text))
