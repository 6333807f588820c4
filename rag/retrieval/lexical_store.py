"""The BM25 index saved with a library, so reopening a large library does not re-tokenize it.

Layout: ``data_dir/lexical/<generation>/`` holds what ``bm25s.BM25.save`` writes (JSON params and
vocabulary, three .npy arrays, saved and loaded with allow_pickle=False) plus ``footnote.json``:
the generation, the format and a fingerprint of the tokenizer and of the chunk list the index was
built from. A saved index is used only when all of these match the chunks just read; anything else
(another generation, an unreadable or inconsistent file) is ignored and rebuilt, never trusted.

Who writes: the reader (rag), not the library writer (ingest): whoever first needs the index of a
generation builds it and saves it here, written to a temporary folder and renamed into place, when
data_dir is writable; otherwise it stays in memory. Folders of older generations are removed.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import bm25s
import numpy as np

from ingest.types import Chunk
from rag.text import JOINED, STOPWORDS, tokenize

logger = logging.getLogger(__name__)

FOLDER = "lexical"
META = "footnote.json"
FORMAT = 1
# A probe through the tokenizer: a change in stemming or stopwords changes the fingerprint (the
# stems rag.text joins are part of it too).
_PROBE = "The running foxes jumped over 3.5 million re\u00adcognitions of \U0001d465, of which none were \ufb01nally organised."
STALE_TEMP_S = 3600.0  # a temporary folder this old belongs to a process that died while saving


def tokenizer_signature() -> str:
    """A digest of what the tokenizer does (its stopwords, the stems it joins and a probe sentence's
    terms)."""
    joined = " ".join(f"{a}={b}" for a, b in sorted(JOINED.items()))
    text = "\n".join(sorted(STOPWORDS)) + "\n--\n" + joined + "\n--\n" + " ".join(tokenize(_PROBE))
    return hashlib.sha256(text.encode()).hexdigest()


def keys_of(chunks: Sequence[Chunk]) -> list[tuple[str, int, int]]:
    """The keys the fingerprint is made of: each chunk's id and the lengths of what BM25 indexes."""
    return [(c.chunk_id, len(c.context), len(c.text)) for c in chunks]


def chunks_signature(keys: Sequence[tuple[str, int, int]]) -> str:
    """A digest of the chunk list in order (ids and the lengths of context and text)."""
    digest = hashlib.sha256()
    for chunk_id, context_len, text_len in keys:
        digest.update(f"{chunk_id}\t{context_len}\t{text_len}\n".encode())
    return digest.hexdigest()


def expected_meta(generation: int, keys: Sequence[tuple[str, int, int]]) -> dict[str, Any]:
    """What footnote.json must say for an index of these chunks at this generation."""
    return {
        "format": FORMAT,
        "generation": generation,
        "count": len(keys),
        "tokenizer": tokenizer_signature(),
        "chunks": chunks_signature(keys),
    }


def folder_for(data_dir: Path, generation: int) -> Path:
    """Where the index of one generation is saved."""
    return Path(data_dir) / FOLDER / str(generation)


def load(data_dir: Path, generation: int, keys: Sequence[tuple[str, int, int]]) -> bm25s.BM25 | None:
    """The saved index for exactly these chunks at this generation, memory-mapped; None when there
    is none or it does not match or cannot be read (the caller then builds it)."""
    folder = folder_for(data_dir, generation)
    meta_path = folder / META
    if not meta_path.is_file():
        return None
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if meta != expected_meta(generation, keys):
            logger.info("the saved BM25 index in %s is for other chunks; rebuilding it", folder)
            return None
        bm25 = bm25s.BM25.load(folder, mmap=True, allow_pickle=False, show_progress=False)
        _check(bm25, len(keys))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        logger.warning("the saved BM25 index in %s is unreadable (%s); rebuilding it", folder, exc)
        return None
    return bm25


def _check(bm25: bm25s.BM25, count: int) -> None:
    """Raise ValueError unless the loaded arrays form a consistent index over count chunks."""
    scores = bm25.scores
    data, indices, indptr = scores["data"], scores["indices"], scores["indptr"]
    # bm25s adds the empty token to the vocabulary without postings: one offset fewer then.
    if scores["num_docs"] != count or len(indptr) - 1 not in (len(bm25.vocab_dict), len(bm25.vocab_dict) - 1):
        raise ValueError("the saved index's sizes do not match the library")
    if int(indptr[0]) != 0 or int(indptr[-1]) != len(data) or len(data) != len(indices):
        raise ValueError("the saved index's arrays are inconsistent")
    if len(indptr) > 1 and np.any(np.diff(indptr) < 0):
        raise ValueError("the saved index's offsets go backwards")
    if len(indices) and (int(indices.min()) < 0 or int(indices.max()) >= count):
        raise ValueError("the saved index points past the last chunk")
    if set(bm25.vocab_dict.values()) != set(range(len(bm25.vocab_dict))):
        raise ValueError("the saved vocabulary's ids are not 0..n-1")


def save(
    data_dir: Path, generation: int, keys: Sequence[tuple[str, int, int]], bm25: bm25s.BM25
) -> Path | None:
    """Save the index of this generation atomically (temporary folder, then rename); returns the
    folder, or None when data_dir is not writable or saving failed (the index stays in memory)."""
    root = Path(data_dir) / FOLDER
    if not os.access(data_dir, os.W_OK) or (root.exists() and not os.access(root, os.W_OK)):
        return None
    target = folder_for(data_dir, generation)
    try:
        root.mkdir(exist_ok=True)
        temp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=root))
        try:
            bm25.save(temp, allow_pickle=False, show_progress=False)
            (temp / META).write_text(json.dumps(expected_meta(generation, keys)), encoding="utf-8")
            _replace(temp, target)
        finally:
            shutil.rmtree(temp, ignore_errors=True)
        _prune(root, generation)
    except OSError as exc:
        logger.warning("could not save the BM25 index to %s (%s); it stays in memory", target, exc)
        return None
    return target


def _replace(temp: Path, target: Path) -> None:
    """Rename temp to target; a folder already there (damaged, or another process's) goes first."""
    if target.exists():
        aside = Path(tempfile.mkdtemp(prefix=".tmp-old-", dir=target.parent))
        os.replace(target, aside / "old")
        shutil.rmtree(aside, ignore_errors=True)
    os.replace(temp, target)


def _prune(root: Path, generation: int) -> None:
    """Remove the folders of older generations and temporary folders left by a dead process."""
    now = time.time()
    for path in root.iterdir():
        older = path.name.isdigit() and int(path.name) < generation
        dead = path.name.startswith(".tmp-") and now - path.stat().st_mtime > STALE_TEMP_S
        if older or dead:
            shutil.rmtree(path, ignore_errors=True)
