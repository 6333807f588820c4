"""Every st.cache_* wrapper around the core lives here, one section per page or feature, but those
for what the side panels draw (page pictures, texts, excerpts, answer HTML: components/panel/page_resources.py).

Cached resources are shared by all sessions: never mutate what they return.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

import streamlit as st
from langchain_core.embeddings import Embeddings

from components.shared import state
from ingest.backend import library_class
from ingest.embeddings import LocalEmbeddings, make_embeddings
from ingest.errors import NoLibrary, SchemaTooOld
from ingest.local.library import IngestProgress, Library
from ingest.worker import BACKGROUND_NICENESS, Worker
from rag.answering.models import Answerer, ModelListing, list_models, make_chat_model
from rag.retrieval.retrieve import warm_lexical
from rag.stores.backend import conversation_store, verdict_store
from rag.stores.conversations import ConversationStore
from rag.stores.verdicts import AUDIT_DB_NAME, VerdictStore
from settings import Settings
from wiring import (
    ChatOptions,
    EmbeddingOptions,
    LibraryOptions,
    cache_key,
    chat_options,
    embedding_options,
    library_options,
    library_settings,
)

log = logging.getLogger(__name__)

# --- Library and embeddings (ingestion) --------------------------------------------------
# One Library per data dir and settings, shared by every session: its own file lock guards
# writes and it reloads itself when another process changes the folder, so sessions may call
# add_pdf/delete on it; never replace its attributes. The chat reads through get_reader(), which
# never takes the lock, so it keeps answering while the Library page ingests or re-indexes.


@st.cache_resource(show_spinner=False)
def _embeddings(key: str, _options: EmbeddingOptions) -> tuple[Embeddings, str]:
    embeddings, name = make_embeddings(**asdict(_options))
    if isinstance(embeddings, LocalEmbeddings):  # load the model while the user is still reading
        threading.Thread(target=_warm_up, args=(embeddings,), name="embeddings-warm-up", daemon=True).start()
    return embeddings, name


def _embeddings_for(options: EmbeddingOptions) -> tuple[Embeddings, str]:
    return _embeddings(cache_key(options), options)


def get_embeddings(settings: Settings) -> tuple[Embeddings, str]:
    """The embedding model and the name the index records for it (one per distinct embedding options)."""
    return _embeddings_for(embedding_options(settings))


def _warm_up(embeddings: LocalEmbeddings) -> None:
    try:
        embeddings.warm_up()
    except Exception:
        log.warning("loading the local embedding model failed", exc_info=True)


@st.cache_resource(show_spinner=False)
def _library(key: str, _options: LibraryOptions, _embedding: EmbeddingOptions) -> Library:
    embeddings, name = _embeddings_for(_embedding)
    opener = library_class(state.settings())  # Library, or PostgreSQL's (database_url is in the key)
    config = library_settings(_options, name)
    return opener.open(_options.data_dir, embeddings, config=config, repair=False)  # the Library page repairs


def _open_library(options: LibraryOptions, embedding: EmbeddingOptions) -> Library:
    return _library(cache_key(options, embedding), options, embedding)


def get_library() -> Library:
    """The library the settings point at; raises IndexMismatch when it needs re-indexing.

    Also starts building the BM25 index in the background when the library is new to this
    process or changed (an upload, a delete), so the next question does not wait for it, and
    starts this process's ingest worker (once) when the settings ask for one."""
    settings = state.settings()
    library = _open_library(library_options(settings), embedding_options(settings))
    warm_lexical(library)
    start_worker()
    return library


# --- The ingest worker: one per server process (not per session), FOOTNOTE_WORKER_JOBS loops --
# It takes the queued uploads of this library (and any another process queued), two at a time;
# sessions only enqueue, so an upload survives leaving the page, a reload or a closed browser.
# Released (stopped, its job handed back) when its cache entry is cleared, as after a re-index.


def _stop_worker(worker: Worker) -> None:
    worker.stop(timeout=0)


@st.cache_resource(show_spinner=False, on_release=_stop_worker)
def _worker(
    key: str, _options: LibraryOptions, _embedding: EmbeddingOptions, lease_s: float, at_once: int
) -> Worker:
    # The worker opens the (cached) writer library in its own thread: a page never waits for the
    # write lock or a repair on its account (the chat reads without the lock).
    worker = Worker(opener=lambda: _open_library(_options, _embedding), lease_s=lease_s, at_once=at_once)
    return worker.start(niceness=BACKGROUND_NICENESS)  # questions go first


def worker_enabled(settings: Settings) -> bool:
    """Whether this app process runs an ingest worker (FOOTNOTE_APP_WORKER; auto: local mode only)."""
    return settings.app_worker == "on" or (settings.app_worker == "auto" and settings.database_url is None)


def start_worker() -> Worker | None:
    """This process's ingest worker, started on first use; None when the settings say the app
    runs none (team mode). It opens the library itself (see Worker), so this never waits."""
    settings = state.settings()
    if not worker_enabled(settings):
        return None
    options, embedding = library_options(settings), embedding_options(settings)
    key = cache_key(options, embedding)
    return _worker(key, options, embedding, settings.job_lease_s, settings.worker_jobs)


def enqueue_files(library: Library, files: list[tuple[str, bytes]], password: str | None) -> list:
    """Store each file and queue a job for it (ingest.jobs.Job each), then wake the worker."""
    jobs = [library.jobs.enqueue(data, name, password) for name, data in files]
    worker = start_worker()
    if worker is not None:
        worker.wake()
    return jobs


@st.cache_resource(show_spinner=False)
def _reader(key: str, _options: LibraryOptions, _embedding: EmbeddingOptions) -> Library:
    embeddings, name = _embeddings_for(_embedding)

    def open_reader() -> Library:
        config = library_settings(_options, name)
        return library_class(state.settings()).open_reader(_options.data_dir, embeddings, config=config)

    try:
        return open_reader()
    except (NoLibrary, SchemaTooOld):  # a new folder, or an older file: the writer creates or migrates it
        _open_library(_options, _embedding)
        return open_reader()


def get_reader() -> Library:
    """The library for answering: read-only, never waits for a writer (see ``Library.open_reader``)."""
    settings = state.settings()
    options, embedding = library_options(settings), embedding_options(settings)
    library = _reader(cache_key(options, embedding), options, embedding)
    warm_lexical(library)
    start_worker()
    return library


def repair_library(progress: Callable[[IngestProgress], None] | None = None) -> list[str]:
    """Re-embed chunks whose vectors are missing (after an interrupted re-index); what was done."""
    actions = get_library().check(progress)
    _library.clear()  # reopened, its report no longer lists the repaired chunks
    _worker.clear()  # its worker used the old object
    return actions


def rebuild_library(progress: Callable[[IngestProgress], None] | None = None) -> int:
    """Re-index every document with the current settings; returns the number of chunks."""
    settings = state.settings()
    options = library_options(settings)
    embeddings, name = get_embeddings(settings)
    config = library_settings(options, name)
    library = library_class(settings).rebuild(options.data_dir, embeddings, config=config, progress=progress)
    _library.clear()  # the next get_library() opens the re-indexed folder
    _worker.clear()  # and starts a worker on it, with the new settings
    return library.chunk_count()


# --- Chat page: models, conversations, page pictures -------------------------------------

CONVERSATIONS_FILE = "conversations.sqlite3"


@st.cache_resource(show_spinner=False)
def _conversations(data_dir: str) -> ConversationStore:
    return conversation_store(state.settings(), Path(data_dir) / CONVERSATIONS_FILE)


def get_conversations(data_dir: str, user: str) -> ConversationStore:
    """The user's conversations under the data directory (one store per process, opened and
    migrated once; each call binds it to this run's user, components/shared/identity.py)."""
    return _conversations(data_dir).for_user(user)


def get_verdicts(settings: Settings, user: str) -> VerdictStore:
    """The user's audit verdicts (opened per run, as the audit page always did)."""
    return verdict_store(settings, settings.data_dir / AUDIT_DB_NAME).for_user(user)


@st.cache_resource(show_spinner=False)
def _chat_model(key: str, _options: ChatOptions, _embedding: EmbeddingOptions) -> tuple[Answerer, str]:
    embeddings = None
    if _options.provider == "extractive":  # it ranks sentences with the library's embeddings
        embeddings, _name = _embeddings_for(_embedding)
    return make_chat_model(**asdict(_options), embeddings=embeddings)


def get_chat_model(settings: Settings, model: str | None = None) -> tuple[Answerer, str]:
    """The configured chat model (or the `model` picked instead) and its label, built once per
    distinct chat and embedding options (a new API key in secrets.toml builds a new client on the
    next run, no restart needed)."""
    options, embedding = chat_options(settings), embedding_options(settings)
    if model:
        options = replace(options, model=model)
    return _chat_model(cache_key(options, embedding), options, embedding)


OPENAI_BASE_URL = "https://api.openai.com/v1"
MODEL_LIST_TIMEOUT_S = 3.0  # a sidebar waits this long at most for an endpoint's model list


@st.cache_resource(ttl=60, show_spinner=False)
def _model_listing(base_url: str, api_key: str | None) -> ModelListing:
    return list_models(base_url, api_key, MODEL_LIST_TIMEOUT_S)


def model_listing(settings: Settings) -> ModelListing:
    """The models the configured OpenAI-compatible endpoint lists, asked at most once a minute."""
    return _model_listing(settings.llm_base_url or OPENAI_BASE_URL, settings.api_key())


# --- Library search and the original PDF -------------------------------------------------

SEARCH_LIMIT = 20  # hits listed per search: a page of results, not a ranking cut-off


@st.cache_resource(max_entries=64, show_spinner=False)
def _search(data_dir: str, generation: int, query: str, limit: int, _library: Library) -> tuple:
    from rag.retrieval.library_search import search_library
    from rag.retrieval.retrieve import lexical_index

    return tuple(search_library(_library, query, lexical_index(_library), limit=limit))


def search_library(library: Library, query: str, limit: int = SEARCH_LIMIT) -> tuple:
    """The library search's hits (rag.retrieval.library_search.SearchHit), cached per query and generation."""
    return _search(str(library.data_dir), library.generation, query, limit, library)
