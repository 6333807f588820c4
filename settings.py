"""The one settings object: environment variables prefixed FOOTNOTE_, then the [footnote] table of
.streamlit/secrets.toml, with every field described. The app and the CLI both read it this way."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

SECRETS_TABLE = "footnote"


def secrets_files() -> list[Path]:
    """Where Streamlit looks for secrets.toml by default, later files winning: the user's, then the
    project's (relative to the working directory, as `streamlit run` and `python -m cli.rag` see it)."""
    return [Path.home() / ".streamlit" / "secrets.toml", Path(".streamlit") / "secrets.toml"]


class SecretsTomlSource(TomlConfigSettingsSource):
    """The [footnote] table of the secrets.toml files; absent files or table give nothing."""

    def __init__(self, settings_cls: type[BaseSettings]) -> None:
        super().__init__(settings_cls, toml_file=secrets_files(), deep_merge=True)

    def _read_file(self, file_path: Path) -> dict:
        import tomllib

        try:
            table = super()._read_file(file_path).get(SECRETS_TABLE, {})
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{file_path} is not valid TOML ({exc}): fix or remove it") from exc
        if not isinstance(table, dict):
            # ValueError like every other bad setting: the CLI reports those as "bad setting".
            raise ValueError(f"{file_path}: [{SECRETS_TABLE}] must be a table of settings, not a value")
        return table


class Settings(BaseSettings):
    """Everything a user can configure. Core functions never read this; the edges pass values in."""

    # An empty variable means unset (how docker-compose and .env files switch one off): the default.
    model_config = SettingsConfigDict(env_prefix="FOOTNOTE_", extra="ignore", env_ignore_empty=True)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Explicit values, then FOOTNOTE_* variables, then secrets.toml, then the defaults."""
        return init_settings, env_settings, SecretsTomlSource(settings_cls)

    data_dir: Path = Field(
        Path("data"), description="Folder for the library (SQLite, FAISS, PDFs) and chats."
    )

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
        64,
        ge=1,
        le=2048,
        description="Texts per request to an OpenAI-compatible embeddings endpoint (the local model "
        "embeds each text alone, one per core at a time) and per progress step while embedding.",
    )

    fake_embed_gate: Path | None = Field(
        None,
        description="Tests only: with the fake embedding provider, an ingest's embedding waits after its "
        "first batch until this file exists (so a test catches a job mid-embedding without timing luck).",
    )
    app_worker: Literal["auto", "on", "off"] = Field(
        "auto",
        description="Whether the app runs an ingest worker in a thread (one per server process) that "
        "takes the queued uploads: auto is on with a local library and off in team mode "
        "(FOOTNOTE_DATABASE_URL), where `python -m cli.ingest worker` processes embed; on or off to choose.",
    )
    worker_jobs: int = Field(
        2,
        ge=1,
        le=8,
        description="Jobs one ingest worker (the app's, or `python -m cli.ingest worker`) runs at once, each in a "
        "loop of its own: with 2, an upload queued behind a long scan is added while the scan is read by "
        "OCR (on one core); 1 runs the queue strictly one job at a time.",
    )
    job_lease_s: float = Field(
        60.0,
        ge=1.0,
        le=3600.0,
        description="Seconds a worker holds an ingest job without renewing it (it renews every quarter of "
        "this while it works) before another worker takes it over; a worker on the same machine whose "
        "process is gone loses its job at once.",
    )

    llm_provider: Literal["extractive", "openai", "fake"] = Field(
        "extractive",
        description="extractive: offline answerer that quotes and cites evidence sentences; "
        "openai: any OpenAI-compatible chat model; fake: scripted replies, for tests.",
    )
    llm_model: str = Field("gpt-4o-mini", description="Chat model name for the openai provider.")
    llm_base_url: str | None = Field(
        None,
        description="Base URL of an OpenAI-compatible server (Azure, Ollama, vLLM, llama.cpp); empty for OpenAI.",
    )
    llm_api_key: SecretStr | None = Field(
        None, description="API key for the chat model; falls back to OPENAI_API_KEY. Never logged."
    )
    llm_temperature: float = Field(0.0, ge=0.0, le=2.0, description="Sampling temperature of the chat model.")
    llm_max_tokens: int = Field(
        800,
        ge=16,
        description="Longest answer, in tokens: sent to the endpoint, and enforced on our side too (each "
        "streamed delta counted as a token) for servers that ignore it.",
    )
    llm_timeout_s: float = Field(60.0, gt=0, description="Seconds to wait for the model to start answering.")
    llm_stall_timeout_s: float = Field(
        20.0, gt=0, description="Seconds of silence mid-answer before giving up."
    )
    llm_retries: int = Field(
        2,
        ge=0,
        le=6,
        description="Retries on 429 and 5xx before the first token: after the Retry-After the endpoint asks "
        "for (up to llm_retry_after_cap_s), else after a backoff of 1, 2, 4 s; with up to 25% jitter. "
        "OpenAI-compatible embeddings retry as many times with the SDK's own policy.",
    )
    llm_retry_after_cap_s: float = Field(
        30.0,
        ge=0,
        description="Longest Retry-After, in seconds, honoured on a 429 or 5xx; an endpoint asking for "
        "longer gets no retry and the message says how long it asked to wait.",
    )
    llm_deadline_s: float = Field(
        180.0,
        gt=0,
        description="Longest time for a whole answer, retries included; past it the answer is stopped and "
        "kept as a partial answer, marked interrupted.",
    )

    retrieval_k: int = Field(
        6, ge=1, le=50, description="Pieces of evidence given to the model per question."
    )
    chunk_size: int = Field(1000, ge=100, le=8000, description="Target chunk length in characters.")
    chunk_overlap: int = Field(150, ge=0, le=2000, description="Characters shared by neighbouring chunks.")

    max_file_mb: float = Field(100.0, gt=0, description="Largest PDF accepted, in megabytes.")
    max_pages: int = Field(3000, ge=1, description="Most pages accepted in one PDF.")
    ocr: Literal["off", "auto"] = Field(
        "auto",
        description="Pages whose text layer is empty or unusable (scans, mojibake; ingest/pdf/text_layer.py) are "
        "read by OCR (Tesseract, installed from PyPI with the app) when auto; off leaves them out, and a PDF "
        "made only of such pages is refused as having no text layer.",
    )
    ocr_languages: str = Field(
        "eng",
        pattern=r"^[A-Za-z_]+(\+[A-Za-z_]+)*$",
        description="Tesseract languages for OCR, joined with + (eng+deu). English comes with the app; for "
        "another, put its .traineddata file in ocr_data_dir with eng.traineddata and osd.traineddata.",
    )
    ocr_data_dir: Path | None = Field(
        None,
        description="Folder of Tesseract .traineddata files; unset: the one the tessdata packages installed "
        "(<venv>/share/tessdata).",
    )
    # 150 dpi read as well as 200 or 300 and fastest (bench/README.md, "How the rules were found").
    ocr_dpi: int = Field(
        150, ge=72, le=600, description="Resolution pages are rendered at for OCR, in dots per inch."
    )
    # The budget (bench/README.md, "Scanned pages" and "Blank pages and the OCR budget"): Tesseract read
    # 0.41 pages/s on one core of a quiet machine, so 500 pages is about 20 minutes, and a scanned book
    # or report of that length is read whole; a real page took 2.3 s quiet and up to 32 s at load 16.
    ocr_max_pages: int = Field(
        500,
        ge=1,
        le=100_000,
        description="Most pages of one document read by OCR (about 20 minutes at 500 on one core): the first "
        "ones; past it the document is kept with what was read, and its message says how many pages were "
        "skipped. Blank pages never count (they are never read).",
    )
    ocr_page_timeout_s: float = Field(
        60.0,
        gt=0,
        le=3600.0,
        description="Seconds OCR may spend on one page, all its readings together (upright, turned, at twice "
        "the resolution); a page of noise is then given up on and named. A real page takes 2-30 s.",
    )

    database_url: SecretStr | None = Field(
        None,
        description="Team mode: a PostgreSQL URL (postgresql://user:password@host/db) whose database, with the "
        "pgvector extension, holds the shared library instead of data_dir. Unset: the local folder. "
        "Kept secret: shown and logged only with the password masked.",
    )
    # The three HNSW defaults keep recall@10 above 0.95 at 1,000,000 library-like vectors, where
    # pgvector's own defaults do not (bench/README.md, "Team mode, dense search at 1,000,000").
    pg_hnsw_m: int = Field(
        32,
        ge=2,
        le=100,
        description="Team mode: links per vector in the HNSW index (more gives better recall, a larger "
        "index and a slower build; pgvector's default is 16). Used when the index is first built.",
    )
    pg_hnsw_ef_construction: int = Field(
        200,
        ge=4,
        le=1000,
        description="Team mode: candidate list size while building the HNSW index (pgvector's default is 64).",
    )
    pg_hnsw_ef_search: int = Field(
        200,
        ge=1,
        le=1000,
        description="Team mode: candidate list size per query; higher gives better recall for slower "
        "queries (raised to the candidates a search asks for when they are more; pgvector's default is "
        "40).",
    )

    trusted_user_header: str | None = Field(
        None,
        min_length=1,
        max_length=100,
        pattern=r"^[A-Za-z0-9-]+$",
        description="Team mode: the request header that names the user, for example X-Forwarded-Email from "
        "oauth2-proxy; each user then sees only their own conversations and verdicts (the library is "
        "shared). Safe ONLY behind a proxy that authenticates every request and sets or strips this header "
        "itself: anyone who can reach the app directly can send it and be anybody. Unset (the default): "
        "no header is trusted. Streamlit's own OIDC login ([auth] in secrets.toml) takes precedence.",
    )

    @field_validator("*", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object, info: ValidationInfo) -> object:
        """An optional setting given as a blank string (in secrets.toml too) is not set."""
        field = cls.model_fields[info.field_name]
        if field.default is None and isinstance(value, str) and not value.strip():
            return None
        return value

    def api_key(self) -> str | None:
        """The chat model's API key: FOOTNOTE_LLM_API_KEY, else OPENAI_API_KEY (empty: none)."""
        import os

        if self.llm_api_key is not None:
            return self.llm_api_key.get_secret_value()
        return os.environ.get("OPENAI_API_KEY") or None


def load_settings(**overrides: object) -> Settings:
    """Settings from explicit overrides (None means not given), the environment and secrets.toml."""
    return Settings(**{k: v for k, v in overrides.items() if v is not None})
