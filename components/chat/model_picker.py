"""The sidebar's model picker: the models an OpenAI-compatible endpoint lists, one per conversation."""

from __future__ import annotations

import streamlit as st

from components.shared import resources, state
from components.shared.render import escape_markdown
from rag.stores.conversations import ConversationStore
from settings import Settings


def pick_model(settings: Settings, store: ConversationStore, conv_id: str | None) -> str | None:
    """The model picked for this conversation, or None to use the configured one (the offline
    answerers, or an endpoint that lists no models, which a caption then says)."""
    if settings.llm_provider != "openai":
        return None
    listing = resources.model_listing(settings)
    with st.sidebar:
        if not listing.models:
            st.caption(
                f"The endpoint lists no models ({escape_markdown(listing.problem)}): "
                f"using the configured {escape_markdown(settings.llm_model)}."
            )
            return None
        default = settings.llm_model if settings.llm_model in listing.models else listing.models[0]
        state.show_model_of(conv_id, store.model(conv_id) if conv_id else "", listing.models, default)
        st.selectbox(
            "Model", options=listing.models, key=state.MODEL_PICK, on_change=_remember, args=(store, conv_id)
        )
    return state.picked_model()


def _remember(store: ConversationStore, conv_id: str | None) -> None:
    """A pick in an existing conversation is saved at once; a new chat saves it with its first question."""
    if conv_id is not None and state.picked_model():
        store.set_model(conv_id, state.picked_model())
