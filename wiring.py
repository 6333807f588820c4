"""The edge between settings and the core: the plain values each part needs, built from Settings
in one place for the app's resources, both CLIs and bench. ingest/ and rag/ never see Settings."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.embeddings import Embeddings

from ingest.types import OCR_OFF, LibraryReader, LibrarySettings, OcrOptions
from settings import Settings

if TYPE_CHECKING:
    from rag.answering.models import Answerer


@dataclass(frozen=True)
class EmbeddingOptions:
    """What builds the embedding model (ingest.embeddings.make_embeddings takes these as keywords)."""

    provider: str
    model: str
    precision: str
    batch_size: int
    base_url: str | None
    timeout_s: float
    retries: int
    api_key: str | None = field(default=None, repr=False)  # never printed
    gate: str | None = None  # tests only: ingest.embeddings.GatedEmbeddings


@dataclass(frozen=True)
class ChatOptions:
    """What builds the chat model (rag.answering.models.make_chat_model takes these as keywords)."""

    provider: str
    model: str
    base_url: str | None
    temperature: float
    max_tokens: int
    timeout_s: float
    api_key: str | None = field(default=None, repr=False)  # never printed


@dataclass(frozen=True)
class LibraryOptions:
    """Where the library lives and how it chunks, limits and batches what it ingests."""

    data_dir: Path
    chunk_size: int
    chunk_overlap: int
    max_file_mb: float
    max_pages: int
    batch_size: int
    # Which backend: in the cache key so that a new URL opens a new library; never printed.
    database_url: str | None = field(default=None, repr=False)
    ocr: OcrOptions = OCR_OFF  # how pages without a usable text layer are read


def embedding_options(settings: Settings) -> EmbeddingOptions:
    """The embedding model's options; an OpenAI-compatible one shares the chat model's endpoint,
    key, timeout and retries."""
    return EmbeddingOptions(
        provider=settings.embedding_provider,
        model=settings.embedding_model,
        precision=settings.local_precision,
        batch_size=settings.embed_batch_size,
        base_url=settings.llm_base_url,
        timeout_s=settings.llm_timeout_s,
        retries=settings.llm_retries,
        api_key=settings.api_key(),
        gate=str(settings.fake_embed_gate) if settings.fake_embed_gate else None,
    )


def chat_options(settings: Settings) -> ChatOptions:
    """The chat model's options."""
    return ChatOptions(
        provider=settings.llm_provider,
        model=settings.llm_model,
        base_url=settings.llm_base_url,
        temperature=settings.llm_temperature,
        max_tokens=settings.llm_max_tokens,
        timeout_s=settings.llm_timeout_s,
        api_key=settings.api_key(),
    )


def library_options(settings: Settings) -> LibraryOptions:
    """The library's folder, chunking, limits and embedding batch size."""
    return LibraryOptions(
        data_dir=settings.data_dir,
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
        max_file_mb=settings.max_file_mb,
        max_pages=settings.max_pages,
        batch_size=settings.embed_batch_size,
        database_url=settings.database_url.get_secret_value() if settings.database_url else None,
        ocr=ocr_options(settings),
    )


def library_settings(options: LibraryOptions, embedding_name: str) -> LibrarySettings:
    """The one value every opener of the library is given (``Library.open(..., config=...)``, its
    reader and its rebuild, local or team): what the index records, with the name of the embeddings
    built from the same settings, and the limits, batch size and OCR of what it ingests."""
    return LibrarySettings(
        embedding_name=embedding_name,
        chunk_size=options.chunk_size,
        chunk_overlap=options.chunk_overlap,
        max_file_mb=options.max_file_mb,
        max_pages=options.max_pages,
        batch_size=options.batch_size,
        ocr=options.ocr,
    )


def ocr_options(settings: Settings) -> OcrOptions:
    """Whether and how pages without a usable text layer are read by OCR."""
    data_dir = str(settings.ocr_data_dir) if settings.ocr_data_dir else None
    return OcrOptions(
        settings.ocr,
        settings.ocr_languages,
        data_dir,
        settings.ocr_dpi,
        settings.ocr_max_pages,
        settings.ocr_page_timeout_s,
    )


def cache_key(*options: Any) -> str:
    """A key for caching what these options build: every field counts, secrets included (a new API
    key is a new key), but only as a SHA-256, so the key reveals nothing when printed."""
    payload = json.dumps([asdict(o) for o in options], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def make_embeddings(settings: Settings) -> tuple[Embeddings, str]:
    """The configured embeddings and the name the index records for them."""
    from ingest.embeddings import make_embeddings as build

    return build(**asdict(embedding_options(settings)))


def library_inputs(settings: Settings) -> tuple[Embeddings, LibrarySettings]:
    """The embeddings and the LibrarySettings a library is opened with (``library_class(settings)``
    opens it: ``.open(settings.data_dir, embeddings, config=config)``)."""
    embeddings, name = make_embeddings(settings)
    return embeddings, library_settings(library_options(settings), name)


def open_reader(settings: Settings) -> LibraryReader:
    """The library the settings point at, read-only (no lock, never created or repaired), with its
    embeddings, as the command line and bench answer from it; IngestError when there is none to
    read. What a writer would repair is in its ``open_report``."""
    from ingest.backend import library_class

    embeddings, config = library_inputs(settings)
    return library_class(settings).open_reader(settings.data_dir, embeddings, config=config)


def make_chat_model(settings: Settings, embeddings: Embeddings | None = None) -> tuple[Answerer, str]:
    """The configured chat model and its label (the extractive answerer ranks with `embeddings`)."""
    from rag.answering.models import make_chat_model as build

    return build(**asdict(chat_options(settings)), embeddings=embeddings)


def stream_options(settings: Settings) -> dict[str, Any]:
    """rag.answering.answer.answer_stream's retry, timeout and length options."""
    return {
        "retries": settings.llm_retries,
        "first_token_timeout_s": settings.llm_timeout_s,
        "stall_timeout_s": settings.llm_stall_timeout_s,
        "deadline_s": settings.llm_deadline_s,
        "retry_after_cap_s": settings.llm_retry_after_cap_s,
        # Only a generative model can run on; the offline answerers end by themselves.
        "max_tokens": settings.llm_max_tokens if settings.llm_provider == "openai" else None,
    }
