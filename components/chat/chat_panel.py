"""The chat page's side panel as a fragment: a footnote click, and the panel's own controls, rerun
the panel alone, so the saved turns on screen are neither run again nor sent again.

A footnote click is taken in the browser by the relay, a hidden widget inside the fragment that
listens for the answers' cite event (components/chat/answer_view.py): a widget inside a fragment makes
Streamlit rerun that fragment alone, straight from the click; a click outside it would start a full
run, for which the browser redraws every saved turn. While a run is on its way and has not drawn
the panel again, the relay leaves a click to the answer's own event (a full run, narrowed to the
fragment with ``st.rerun(scope=PANEL_FRAGMENT)``): only a full run that reaches its end makes the
chat on screen whole (a stream stopped by the click must be finished by one), which is also why
the relay's callback asks for a full run when the last one did not reach its end. The relay shows
the clicked footnote's text at once, before the panel's run (components/chat/cite_relay.py).
The callback's run ends before the fragment's begins, which is why .streamlit/config.toml turns
off Streamlit's forced garbage collection after each run. What each step saved: bench/README.md,
"How the rules were found".
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from components.chat import answer_view, cite_relay
from components.panel import page_resources, side_panel
from components.shared import state
from ingest.local.library import Library
from rag.types import Turn

PANEL_FRAGMENT = "chat_side_panel"  # the fragment's key, named by the click's st.rerun


def on_footnote_click(turn_id: str) -> None:
    """Callback of a turn's answer component (a click no relay took): select the clicked
    footnote, then rerun the panel alone when the chat on screen is whole (else the click's full
    run goes ahead)."""
    if state.on_cite(turn_id) and state.chat_drawn():
        st.rerun(scope=PANEL_FRAGMENT)


def on_relayed_click() -> None:
    """Callback of the panel's relay (its run is the panel fragment's): select the clicked
    footnote; a full run instead when the chat on screen is not whole."""
    if state.on_relayed_cite() and not state.chat_drawn():
        st.rerun()


@st.fragment(key=PANEL_FRAGMENT)
def show_chat_panel(turns: Mapping[str, Turn], library: Library) -> None:
    """The panel column of the chat: the selected footnote's source, or the hint (a fragment)."""
    picked = side_panel.selected_footnote(turns)
    cite_relay.show_relay((picked[0].turn_id, picked[1].number) if picked else None, on_relayed_click)
    # The answers are not drawn again: a style rule highlights the footnote in its answer.
    st.html(answer_view.active_style(state.selection()))
    if picked is None:
        side_panel.show_hint()
        return
    turn, footnote = picked
    side_panel.show_panel(
        turn,
        footnote,
        page_resources.passage_picture(library),
        page_resources.page_text(library),
        page_resources.pdf_excerpt(library),
        library.pdf_bytes,
    )
