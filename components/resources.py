"""Every st.cache_* wrapper around the core lives here; sections are owned per issue.

Cached resources are shared by all sessions: never mutate what they return.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

import streamlit as st
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from components import state
from components.render import render_answer_html
from ingest.backend import library_class
from ingest.embeddings import LocalEmbeddings, make_embeddings
from ingest.errors import NoLibrary, SchemaTooOld
from ingest.library import IngestProgress, Library
from rag.backend import conversation_store
from rag.conversations import ConversationStore
from rag.models import make_chat_model
from rag.retrieve import warm_lexical
from rag.types import Answer
from settings import Settings

log = logging.getLogger(__name__)

# --- Library and embeddings (issue 3, ingestion) ------------------------------------------
# One Library per data dir and settings, shared by every session: its own file lock guards
# writes and it reloads itself when another process changes the folder, so sessions may call
# add_pdf/delete on it; never replace its attributes. The chat reads through get_reader(), which
# never takes the lock, so it keeps answering while the Library page ingests or re-indexes.


@st.cache_resource(show_spinner=False)
def get_embeddings(provider: str, model: str, batch_size: int, precision: str) -> tuple[Embeddings, str]:
    """The embedding model and the name the index records for it (loaded once per process)."""
    settings = state.settings().model_copy(update={
        "embedding_provider": provider, "embedding_model": model, "embed_batch_size": batch_size,
        "local_precision": precision,
    })
    embeddings, name = make_embeddings(settings)
    if isinstance(embeddings, LocalEmbeddings):  # load the model while the user is still reading
        threading.Thread(target=_warm_up, args=(embeddings,), name="embeddings-warm-up", daemon=True).start()
    return embeddings, name


def _warm_up(embeddings: LocalEmbeddings) -> None:
    try:
        embeddings.warm_up()
    except Exception:  # noqa: BLE001 - the first real use raises it again, with its message
        log.warning("loading the local embedding model failed", exc_info=True)


def _library_options(s: Settings) -> tuple:
    return (str(s.data_dir), s.embedding_provider, s.embedding_model, s.embed_batch_size, s.local_precision,
            s.chunk_size, s.chunk_overlap, s.max_file_mb, s.max_pages)


@st.cache_resource(show_spinner=False)
def _library(data_dir: str, provider: str, model: str, batch_size: int, precision: str, chunk_size: int,
             chunk_overlap: int, max_file_mb: float, max_pages: int) -> Library:
    embeddings, name = get_embeddings(provider, model, batch_size, precision)
    return library_class(state.settings()).open(Path(data_dir), embeddings, embedding_name=name, chunk_size=chunk_size,
                        chunk_overlap=chunk_overlap, max_file_mb=max_file_mb, max_pages=max_pages,
                        batch_size=batch_size, repair=False)  # the Library page offers the repair


def get_library() -> Library:
    """The library the settings point at; raises IndexMismatch when it needs re-indexing.

    Also starts building the BM25 index in the background when the library is new to this
    process or changed (an upload, a delete), so the next question does not wait for it."""
    library = _library(*_library_options(state.settings()))
    warm_lexical(library)
    return library


@st.cache_resource(show_spinner=False)
def _reader(data_dir: str, provider: str, model: str, batch_size: int, precision: str, chunk_size: int,
            chunk_overlap: int) -> Library:
    embeddings, name = get_embeddings(provider, model, batch_size, precision)
    try:
        return library_class(state.settings()).open_reader(Path(data_dir), embeddings, embedding_name=name, chunk_size=chunk_size,
                                   chunk_overlap=chunk_overlap)
    except (NoLibrary, SchemaTooOld):  # a new folder, or an older file: the writer creates or migrates it
        _library(*_library_options(state.settings()))
        return library_class(state.settings()).open_reader(Path(data_dir), embeddings, embedding_name=name, chunk_size=chunk_size,
                                   chunk_overlap=chunk_overlap)


def get_reader() -> Library:
    """The library for answering: read-only, never waits for a writer (see ``Library.open_reader``)."""
    options = _library_options(state.settings())
    library = _reader(*options[:7])
    warm_lexical(library)
    return library


def repair_library(progress: Callable[[IngestProgress], None] | None = None) -> list[str]:
    """Re-embed chunks whose vectors are missing (after an interrupted re-index); what was done."""
    actions = get_library().check(progress)
    _library.clear()  # reopened, its report no longer lists the repaired chunks
    return actions


def rebuild_library(progress: Callable[[IngestProgress], None] | None = None) -> int:
    """Re-index every document with the current settings; returns the number of chunks."""
    data_dir, provider, model, batch_size, precision, chunk_size, overlap, max_mb, max_pages = _library_options(
        state.settings())
    embeddings, name = get_embeddings(provider, model, batch_size, precision)
    library = library_class(state.settings()).rebuild(Path(data_dir), embeddings, embedding_name=name, progress=progress,
                              chunk_size=chunk_size, chunk_overlap=overlap, max_file_mb=max_mb,
                              max_pages=max_pages, batch_size=batch_size)
    _library.clear()  # the next get_library() opens the re-indexed folder
    return library.chunk_count()


# --- Chat page (issue 5) ------------------------------------------------------------------

CONVERSATIONS_FILE = "conversations.sqlite3"


@st.cache_resource(show_spinner=False)
def get_conversations(data_dir: str) -> ConversationStore:
    """The conversation store under the data directory (one per process; it opens a connection per call)."""
    return conversation_store(state.settings(), Path(data_dir) / CONVERSATIONS_FILE)


@st.cache_resource(show_spinner=False)
def _chat_model(fingerprint: str, _settings: Settings) -> tuple[BaseChatModel, str]:
    embeddings = None
    if _settings.llm_provider == "extractive":  # it ranks sentences with the library's embeddings
        embeddings, _name = get_embeddings(_settings.embedding_provider, _settings.embedding_model,
                                           _settings.embed_batch_size, _settings.local_precision)
    return make_chat_model(_settings, embeddings)


def get_chat_model(settings: Settings) -> tuple[BaseChatModel, str]:
    """The configured chat model and its label, built once per distinct model configuration."""
    fingerprint = "|".join(
        str(v) for v in (settings.llm_provider, settings.llm_model, settings.llm_base_url,
                         settings.llm_temperature, settings.llm_max_tokens, settings.llm_timeout_s,
                         settings.api_key() is not None, settings.embedding_provider,
                         settings.embedding_model, settings.embed_batch_size, settings.local_precision)
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


@st.cache_data(max_entries=512, show_spinner=False)
def _answer_html(turn_id: str, answer_text: str, _answer: Answer) -> str:
    return render_answer_html(_answer)


def answer_html(turn_id: str, answer: Answer) -> str:
    """A saved answer's sanitised HTML, rendered once per turn (a saved answer never changes)."""
    return _answer_html(turn_id, answer.text, answer)


_PROBE_SCALE = 0.3  # small renders, only to find where a highlight falls on the page


@st.cache_data(max_entries=256, show_spinner=False)
def _passage_picture(generation: int, doc_id: str, page_index: int, char_start: int, char_end: int,
                     focus: tuple[int, int] | None, _library: Library) -> tuple[bytes | None, bytes] | None:
    from components.picture import crop_to, highlight_box
    from ingest.render import render_page

    full = _page_picture(generation, doc_id, page_index, char_start, char_end, _library)
    if full is None:
        return None
    pdf = _library.pdf_bytes(doc_id)
    plain = render_page(pdf, page_index, scale=_PROBE_SCALE)
    column = highlight_box(plain, render_page(pdf, page_index, [(char_start, char_end)], scale=_PROBE_SCALE))
    band = column
    if focus:
        band = highlight_box(plain, render_page(pdf, page_index, [focus], scale=_PROBE_SCALE))
    return (crop_to(full, band, column) if band else None), full


def passage_picture(library: Library) -> Callable[..., tuple[bytes | None, bytes] | None]:
    """Like page_picture, but (the page cut to the cited passage, else to the highlighted chunk,
    or None; the whole page). `focus` is the cited passage as page offsets, when known."""
    generation = library.generation
    return lambda doc_id, page, start, end, focus=None: _passage_picture(
        generation, doc_id, page, start, end, focus, library)


@st.cache_data(max_entries=256, show_spinner=False)
def _page_text(generation: int, doc_id: str, page_index: int, _library: Library) -> str | None:
    pages = _library.pages(doc_id)
    return pages[page_index].text if 0 <= page_index < len(pages) else None


def page_text(library: Library) -> Callable[[str, int], str | None]:
    """(doc_id, page_index) -> that page's extracted text, or None when it is gone."""
    generation = library.generation
    return lambda doc_id, page: _page_text(generation, doc_id, page, library)


# --- Library search and the original PDF (issue 15) ---------------------------------------

SEARCH_LIMIT = 20  # hits listed per search: a page of results, not a ranking cut-off


@st.cache_resource(max_entries=64, show_spinner=False)
def _search(data_dir: str, generation: int, query: str, limit: int, _library: Library) -> tuple:
    from rag.library_search import search_library
    from rag.retrieve import lexical_index

    return tuple(search_library(_library, query, lexical_index(_library), limit=limit))


def search_library(library: Library, query: str, limit: int = SEARCH_LIMIT) -> tuple:
    """The library search's hits (rag.library_search.SearchHit), cached per query and generation."""
    return _search(str(library.data_dir), library.generation, query, limit, library)


@st.cache_data(max_entries=32, show_spinner=False)
def _excerpt(data_dir: str, generation: int, doc_id: str, first: int, last: int,
             _library: Library) -> bytes | None:
    from ingest.excerpt import excerpt_pages

    try:
        return excerpt_pages(_library.pdf_bytes(doc_id), first, last)
    except FileNotFoundError:
        return None


def pdf_excerpt(library: Library) -> Callable[[str, int, int], bytes | None]:
    """(doc_id, first, last page index) -> those pages of the original as a PDF, or None when gone."""
    key = (str(library.data_dir), library.generation)
    return lambda doc_id, first, last: _excerpt(*key, doc_id, first, last, library)
