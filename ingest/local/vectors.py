"""FAISS half of the library: an exact inner-product index keyed by chunk vector ids, on disk.

Saved with ``faiss.write_index`` (never pickle) to a temporary file that replaces the old one
atomically, so a crash leaves either the old or the new index, never half of one.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import faiss
import numpy as np
from langchain_core.embeddings import Embeddings

from ingest.embeddings import INGEST_BATCH
from ingest.errors import EmbeddingFailed, UnreadableText
from ingest.text import first_invalid

log = logging.getLogger(__name__)


def new_index(dim: int) -> faiss.Index:
    """An empty id-mapped flat inner-product index (exact; ids allow deleting)."""
    return faiss.IndexIDMap2(faiss.IndexFlatIP(dim))


DAMAGED = "the vector index is damaged or incomplete"


def load_index(path: Path) -> faiss.Index | None:
    """The index saved at ``path``; None when absent or unreadable (the check repairs it). Users are
    told so in our words (``DAMAGED``); FAISS's own message, C++ and all, goes to the log only."""
    if not path.exists():
        return None
    try:
        return faiss.read_index(str(path))
    except RuntimeError as exc:
        log.warning("%s: %s and is not used (FAISS: %s)", path, DAMAGED, exc)
        return None


def save_index(
    index: faiss.Index, path: Path, *, before_replace: Callable[[str], None] | None = None
) -> None:
    """Write atomically: temporary file, fsync, rename, fsync the folder. ``before_replace`` gets
    the new file's sha256 just before the rename (ingest.local.reindex records it)."""
    tmp = path.with_name(path.name + ".tmp")
    faiss.write_index(index, str(tmp))
    with open(tmp, "rb+") as handle:
        fsync_file(handle)
        if before_replace is not None:
            handle.seek(0)
            before_replace(hashlib.file_digest(handle, "sha256").hexdigest())
    os.replace(tmp, path)
    fsync_dir(path.parent)


def fsync_file(handle: BinaryIO) -> None:
    """Make a file's contents durable."""
    handle.flush()
    os.fsync(handle.fileno())


def fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def index_ids(index: faiss.Index) -> np.ndarray:
    """Every id stored in an id-mapped index."""
    return faiss.vector_to_array(index.id_map).astype(np.int64)


def embed_in_batches(
    embeddings: Embeddings, texts: list[str], batch_size: int, label: str, report: Callable[[int, int], None]
) -> np.ndarray:
    """Unit-length vectors of ``texts``, embedded ``batch_size`` at a time, reporting progress after
    each group; any failure of the model or endpoint becomes EmbeddingFailed naming ``label``
    (callers embed before they write, so nothing is changed)."""
    parts: list[np.ndarray] = []
    report(0, len(texts))
    bad = first_invalid(texts)
    if bad is not None:  # the file's text, not the model: said as such, before any call
        raise UnreadableText(label, f"passage {bad + 1} of {len(texts)}")
    for start in range(0, len(texts), batch_size):
        group = texts[start : start + batch_size]
        token = INGEST_BATCH.set(start // batch_size)
        try:
            parts.append(as_matrix(embeddings.embed_documents(group)))
        except Exception as exc:  # any client's errors (openai, httpx, onnxruntime): one message
            raise EmbeddingFailed(label, embedding_cause(exc)) from exc
        finally:
            INGEST_BATCH.reset(token)
        report(min(start + len(group), len(texts)), len(texts))
    if not parts:
        return np.zeros((0, 1), dtype=np.float32)
    return np.concatenate(parts)


def embedding_cause(exc: BaseException) -> str:
    """Why an embedding call failed, in words a user can act on (no class names)."""
    kind = type(exc).__name__.lower()
    status = getattr(exc, "status_code", None)
    first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    if "timeout" in kind or isinstance(exc, TimeoutError):
        return "the embedding endpoint did not answer in time"
    if "connect" in kind or isinstance(exc, ConnectionError):
        return "the embedding endpoint could not be reached"
    if isinstance(status, int):
        return f"the embedding endpoint answered {status}" + (f": {first}" if first else "")
    return first or "the embedding model gave no reason"


def as_matrix(vectors: object) -> np.ndarray:
    """Float32, C-contiguous, unit-length rows (inner product = cosine)."""
    matrix = np.ascontiguousarray(np.asarray(vectors, dtype=np.float32))
    if matrix.ndim == 1:
        matrix = matrix.reshape(1, -1)
    if matrix.size:
        faiss.normalize_L2(matrix)
    return matrix


def add_vectors(index: faiss.Index, vectors: np.ndarray, ids: list[int]) -> None:
    """Add rows under the given ids."""
    if ids:
        index.add_with_ids(vectors, np.asarray(ids, dtype=np.int64))


def remove_vectors(index: faiss.Index, ids: list[int]) -> int:
    """Remove ids; returns how many were present."""
    if not ids:
        return 0
    return int(index.remove_ids(np.asarray(ids, dtype=np.int64)))


def search(
    index: faiss.Index, query: np.ndarray, k: int, allowed: list[int] | None = None
) -> list[tuple[int, float]]:
    """(vector id, score) best first, optionally only among ``allowed`` ids."""
    if index.ntotal == 0 or k <= 0:
        return []
    params = None
    if allowed is not None:
        if not allowed:
            return []
        params = faiss.SearchParameters(sel=faiss.IDSelectorBatch(np.asarray(allowed, dtype=np.int64)))
    # The app searches one query at a time; FAISS's OpenMP threads then mostly wait for each other
    # on a busy 2-core machine (bench/README.md, retrieval: 10k chunks p50 10.5 ms with the default
    # threads, 0.58 ms with one). Set per call: the setting belongs to the calling thread, and
    # every Streamlit session is a thread of its own.
    faiss.omp_set_num_threads(1)
    scores, ids = index.search(query, min(k, index.ntotal), params=params)
    return [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if i >= 0]
