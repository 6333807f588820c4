"""The chat page's side panel as a fragment: a footnote click, and the panel's own controls, rerun
the panel alone, so the saved turns on screen are neither run again nor sent again.

A click in an answer is a widget outside the fragment, which Streamlit answers with a full run;
its callback selects the footnote and then narrows that run to this fragment with
``st.rerun(scope=PANEL_FRAGMENT)`` (Streamlit 1.67: a fragment key from a callback replaces the
interaction's full run). Only after a full run of the chat page that reached its end: a run cut
off midway (a stream stopped by the click, say) left a chat on screen that a full run must finish.
The callback's run ends before the fragment's begins, which is why .streamlit/config.toml turns
off Streamlit's forced garbage collection after each run (0.13-0.38 s here, on every click).
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from components import answer_view, resources, side_panel, state
from ingest.local.library import Library
from rag.types import Turn

PANEL_FRAGMENT = "chat_side_panel"  # the fragment's key, named by the click's st.rerun


def on_footnote_click(turn_id: str) -> None:
    """Callback of a turn's answer component: select the clicked footnote, then rerun the panel
    alone when the chat on screen is whole (else the click's full run goes ahead)."""
    if state.on_cite(turn_id) and state.chat_drawn():
        st.rerun(scope=PANEL_FRAGMENT)


@st.fragment(key=PANEL_FRAGMENT)
def show_chat_panel(turns: Mapping[str, Turn], library: Library) -> None:
    """The panel column of the chat: the selected footnote's source, or the hint (a fragment)."""
    picked = side_panel.selected_footnote(turns)
    # The answers are not drawn again: a style rule highlights the footnote in its answer.
    st.html(answer_view.active_style(state.selection()))
    if picked is None:
        side_panel.show_hint()
        return
    turn, footnote = picked
    side_panel.show_panel(
        turn,
        footnote,
        resources.passage_picture(library),
        resources.page_text(library),
        resources.pdf_excerpt(library),
        library.pdf_bytes,
    )
