"""The document profiles saved with a library, so reopening a large library does not re-read and
re-tokenize every document's first pages (rag/retrieval/documents.py).

Layout: ``data_dir/profiles/<generation>.json`` holds, for one library generation, the profiles'
postings (each term and the positions, in ``docs``, of the documents whose profile has it), what
each document's cover says (``covers``, in ``docs`` order: rag.retrieval.filings.covers), the ready
documents' ids in order, and what the postings were made with: the format, the generation,
the number of first pages read, a fingerprint of the tokenizer (rag/retrieval/lexical_store.py's) and one of
the ready documents (ids, titles, file names, page counts, in order). A saved file is used only
when all of these match the documents just read and the postings are well formed; anything else
(another generation, a file that cannot be read or parsed, a wrong shape) is logged and rebuilt,
never trusted. JSON only. Postings rather than each document's words: reading them back needs
no set per document, which was most of the time a reopen spent on the saved copy.

Who writes: as for the BM25 index, the reader that first needs the profiles of a generation builds
them and saves them here (a temporary file renamed into place) when data_dir is writable; otherwise
they stay in memory. Files of older generations are removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Mapping, Sequence
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from ingest.types import Document
from rag.retrieval.filings.covers import Cover
from rag.retrieval.lexical_store import STALE_TEMP_S, tokenizer_signature

logger = logging.getLogger(__name__)

FOLDER = "profiles"
FORMAT = 3  # 3: the covers' facts beside the postings (2 held the covers' periods as terms)


def documents_signature(documents: Sequence[Document]) -> str:
    """A digest of the ready documents in order (id, title, file name, page count)."""
    digest = hashlib.sha256()
    for doc in documents:
        digest.update(json.dumps([doc.doc_id, doc.title, doc.file_name, doc.pages]).encode() + b"\n")
    return digest.hexdigest()


def expected_meta(generation: int, documents: Sequence[Document], pages: int) -> dict[str, Any]:
    """What a saved file must say for the profiles of these documents at this generation."""
    return {
        "format": FORMAT,
        "generation": generation,
        "pages": pages,
        "count": len(documents),
        "tokenizer": tokenizer_signature(),
        "documents": documents_signature(documents),
    }


def path_for(data_dir: Path, generation: int) -> Path:
    """Where the profiles of one generation are saved."""
    return Path(data_dir) / FOLDER / f"{generation}.json"


def load(
    data_dir: Path, generation: int, documents: Sequence[Document], pages: int
) -> tuple[dict[str, list[int]], list[Cover]] | None:
    """The saved postings and covers of exactly these documents at this generation; None when
    there are none, they are for something else, or the file cannot be read (the caller then
    builds them)."""
    path = path_for(data_dir, generation)
    if not path.is_file():
        return None
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(saved, dict) or saved.get("meta") != expected_meta(generation, documents, pages):
            logger.info("the saved document profiles in %s are for other documents; rebuilding them", path)
            return None
        if saved.get("docs") != [d.doc_id for d in documents]:
            raise ValueError("the saved profiles are not those of the library's documents")
        postings = saved["postings"]
        _check(postings, len(documents))
        covers = [Cover.from_json(c) for c in saved["covers"]]
        if len(covers) != len(documents):
            raise ValueError("the saved covers are not one per document")
    except Exception as exc:  # whatever is wrong with a saved copy, the library still opens: rebuild
        logger.warning("the saved document profiles in %s are unreadable (%s); rebuilding them", path, exc)
        return None
    logger.info("read the saved document profiles of generation %s from %s", generation, path)
    return postings, covers


def _check(postings: Any, count: int) -> None:
    """ValueError unless postings maps words to increasing, non-empty lists of positions < count."""
    if not isinstance(postings, dict):
        raise ValueError("the saved postings are not a mapping")
    lists = list(postings.values())
    if not all(isinstance(t, str) for t in postings) or not all(type(p) is list and p for p in lists):
        raise ValueError("the saved postings are not lists of documents by word")
    if not lists:
        return  # no document has a word (or there are none): nothing more to check
    flat = np.array(list(chain.from_iterable(lists)))  # numpy: one pass in C over every position
    if flat.dtype.kind not in "iu" or int(flat.min()) < 0 or int(flat.max()) >= count:
        raise ValueError("the saved postings hold something other than document positions")
    steps = np.diff(flat)
    steps[np.cumsum([len(p) for p in lists])[:-1] - 1] = 1  # where one word's list ends and the next begins
    if np.any(steps <= 0):
        raise ValueError("the saved postings are out of order or repeat a document")


def save(
    data_dir: Path,
    generation: int,
    documents: Sequence[Document],
    pages: int,
    postings: Mapping[str, Sequence[int]],
    covers: Sequence[Cover],
) -> Path | None:
    """Save the profiles' postings of this generation atomically (temporary file, then rename);
    returns the path, or None when data_dir is not writable or saving failed (they stay in memory)."""
    root = Path(data_dir) / FOLDER
    if not os.access(data_dir, os.W_OK) or (root.exists() and not os.access(root, os.W_OK)):
        return None
    target = path_for(data_dir, generation)
    body = {
        "meta": expected_meta(generation, documents, pages),
        "docs": [d.doc_id for d in documents],
        "postings": {term: list(positions) for term, positions in postings.items()},
        "covers": [c.to_json() for c in covers],
    }
    try:
        root.mkdir(exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=root)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(body, out, ensure_ascii=False, separators=(",", ":"))
            os.replace(temp, target)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp)
        _prune(root, generation)
    except OSError as exc:
        logger.warning("could not save the document profiles to %s (%s); they stay in memory", target, exc)
        return None
    return target


def _prune(root: Path, generation: int) -> None:
    """Remove the files of older generations and temporary files left by a dead process."""
    now = time.time()
    for path in root.iterdir():
        older = path.suffix == ".json" and path.stem.isdigit() and int(path.stem) < generation
        dead = path.name.startswith(".tmp-") and now - path.stat().st_mtime > STALE_TEMP_S
        if older or dead:
            with contextlib.suppress(OSError):
                path.unlink()
