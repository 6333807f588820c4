"""Every st.cache_* wrapper around the core lives here; sections are owned per issue.

Cached resources are shared by all sessions: never mutate what they return.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit as st
from langchain_core.language_models import BaseChatModel

from components import state
from ingest.embeddings import make_embeddings
from ingest.library import Library
from rag.conversations import ConversationStore
from rag.models import make_chat_model
from settings import Settings

# --- Library and embeddings (issue 3, ingestion) ------------------------------------------
# Stand-in written by the chat engineer so the chat page runs; the ingestion engineer owns
# this section and may replace it (keep get_library() with no arguments, or tell the chat page).


@st.cache_resource(show_spinner=False)
def _library(data_dir: str, embedding_provider: str, embedding_model: str, chunk_size: int,
             chunk_overlap: int) -> Library:
    settings = state.settings()
    embeddings, name = make_embeddings(settings)
    return Library.open(Path(data_dir), embeddings, embedding_name=name, chunk_size=chunk_size,
                        chunk_overlap=chunk_overlap, max_file_mb=settings.max_file_mb,
                        max_pages=settings.max_pages, batch_size=settings.embed_batch_size)


def get_library() -> Library:
    """The library the settings point at (one per data dir and embedding/chunk settings)."""
    s = state.settings()
    return _library(str(s.data_dir), s.embedding_provider, s.embedding_model, s.chunk_size, s.chunk_overlap)


# --- Chat page (issue 5) ------------------------------------------------------------------

CONVERSATIONS_FILE = "conversations.sqlite3"


@st.cache_resource(show_spinner=False)
def get_conversations(data_dir: str) -> ConversationStore:
    """The conversation store under the data directory (one per process; it opens a connection per call)."""
    return ConversationStore(Path(data_dir) / CONVERSATIONS_FILE)


@st.cache_resource(show_spinner=False)
def _chat_model(fingerprint: str, _settings: Settings) -> tuple[BaseChatModel, str]:
    return make_chat_model(_settings)


def get_chat_model(settings: Settings) -> tuple[BaseChatModel, str]:
    """The configured chat model and its label, built once per distinct model configuration."""
    fingerprint = "|".join(
        str(v) for v in (settings.llm_provider, settings.llm_model, settings.llm_base_url,
                         settings.llm_temperature, settings.llm_max_tokens, settings.llm_timeout_s,
                         settings.api_key() is not None)
    )
    return _chat_model(fingerprint, settings)


@st.cache_data(max_entries=256, show_spinner=False)
def _page_picture(generation: int, doc_id: str, page_index: int, char_start: int, char_end: int,
                  _library: Library) -> bytes | None:
    from ingest.render import render_page  # pypdfium2 loads only when a panel is first opened

    try:
        pdf = _library.pdf_bytes(doc_id)
    except FileNotFoundError:
        return None
    return render_page(pdf, page_index, highlights=[(char_start, char_end)], scale=1.5)


def page_picture(library: Library) -> Callable[[str, int, int, int], bytes | None]:
    """(doc_id, page_index, char_start, char_end) -> the page as PNG with those characters
    highlighted, or None when the document is gone; cached on those values and the library's
    generation (which changes on every add, delete and re-index)."""
    generation = library.generation
    return lambda doc_id, page, start, end: _page_picture(generation, doc_id, page, start, end, library)
