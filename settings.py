"""The one settings object: environment variables prefixed FOOTNOTE_, with every field described."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything a user can configure. Core functions never read this; the edges pass values in."""

    model_config = SettingsConfigDict(env_prefix="FOOTNOTE_", extra="ignore")

    data_dir: Path = Field(Path("data"), description="Folder for the library (SQLite, FAISS, PDFs) and chats.")

    embedding_provider: Literal["local", "openai", "fake"] = Field(
        "local",
        description="local: all-MiniLM-L6-v2 (ONNX, weights from a pip package), no network; "
        "openai: an OpenAI-compatible embeddings endpoint; fake: deterministic hashing, for tests.",
    )
    embedding_model: str = Field(
        "text-embedding-3-small", description="Model name for the openai embedding provider."
    )
    local_precision: Literal["int8", "fp32"] = Field(
        "int8",
        description="Local model weights: int8 (about 1.5x faster, cosine 0.997 to the original vectors) "
        "or fp32 (the original vectors). Changing it asks for a re-index.",
    )
    embed_batch_size: int = Field(
        64, ge=1, le=2048,
        description="Texts per request to an OpenAI-compatible embeddings endpoint (the local model "
        "embeds each text alone, one per core at a time) and per progress step while embedding.",
    )

    llm_provider: Literal["extractive", "openai", "fake"] = Field(
        "extractive",
        description="extractive: offline answerer that quotes and cites evidence sentences; "
        "openai: any OpenAI-compatible chat model; fake: scripted replies, for tests.",
    )
    llm_model: str = Field("gpt-4o-mini", description="Chat model name for the openai provider.")
    llm_base_url: str | None = Field(
        None, description="Base URL of an OpenAI-compatible server (Azure, Ollama, vLLM, llama.cpp); empty for OpenAI."
    )
    llm_api_key: SecretStr | None = Field(
        None, description="API key for the chat model; falls back to OPENAI_API_KEY. Never logged."
    )
    llm_temperature: float = Field(0.0, ge=0.0, le=2.0, description="Sampling temperature of the chat model.")
    llm_max_tokens: int = Field(
        800, ge=16,
        description="Longest answer, in tokens: sent to the endpoint, and enforced on our side too (each "
        "streamed delta counted as a token) for servers that ignore it.",
    )
    llm_timeout_s: float = Field(60.0, gt=0, description="Seconds to wait for the model to start answering.")
    llm_stall_timeout_s: float = Field(20.0, gt=0, description="Seconds of silence mid-answer before giving up.")
    llm_retries: int = Field(
        2, ge=0, le=6,
        description="Retries on 429 and 5xx before the first token: after the Retry-After the endpoint asks "
        "for (up to llm_retry_after_cap_s), else after a backoff of 1, 2, 4 s; with up to 25% jitter. "
        "OpenAI-compatible embeddings retry as many times with the SDK's own policy.",
    )
    llm_retry_after_cap_s: float = Field(
        30.0, ge=0,
        description="Longest Retry-After, in seconds, honoured on a 429 or 5xx; an endpoint asking for "
        "longer gets no retry and the message says how long it asked to wait.",
    )
    llm_deadline_s: float = Field(
        180.0, gt=0,
        description="Longest time for a whole answer, retries included; past it the answer is stopped and "
        "kept as a partial answer, marked interrupted.",
    )

    retrieval_k: int = Field(6, ge=1, le=50, description="Pieces of evidence given to the model per question.")
    chunk_size: int = Field(1000, ge=100, le=8000, description="Target chunk length in characters.")
    chunk_overlap: int = Field(150, ge=0, le=2000, description="Characters shared by neighbouring chunks.")

    max_file_mb: float = Field(100.0, gt=0, description="Largest PDF accepted, in megabytes.")
    max_pages: int = Field(3000, ge=1, description="Most pages accepted in one PDF.")

    def api_key(self) -> str | None:
        """The chat model's API key: FOOTNOTE_LLM_API_KEY, else OPENAI_API_KEY."""
        import os

        if self.llm_api_key is not None:
            return self.llm_api_key.get_secret_value()
        return os.environ.get("OPENAI_API_KEY")


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment, with explicit overrides (for example from st.secrets) on top."""
    return Settings(**{k: v for k, v in overrides.items() if v is not None})
