"""Each chunk's BM25 terms, kept with the library, so that the index of a new generation tokenizes
only the chunks it has not seen (a new filing's), not the whole library again.

``data_dir/lexical/terms.sqlite3`` holds one row per chunk: its id, the lengths of its context
and text (as the saved index's fingerprint, rag.retrieval.lexical_store) and its terms joined by
spaces (a term is a stem of a ``\\w+`` word: it never holds white space). A row is used only when
the chunk's lengths and the tokenizer's signature match; the terms are exactly what
``tokenize(indexed_text(context, text))`` gives, so an index built from them is the one a full
rebuild gives. The file is a cache: unreadable, read-only or locked, it is skipped (the terms are
then made here), never trusted over the chunks. Rows of chunks no longer listed are removed when
the file is written. Written by the reader (rag), like the saved index.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from ingest.pdf.context import indexed_text
from rag.retrieval.lexical_store import FOLDER, tokenizer_signature
from rag.text import tokenize

logger = logging.getLogger(__name__)

FILE = "terms.sqlite3"
# (chunk_id, doc_id, context, text), as Library.chunk_words gives them
Row = tuple[str, str, str, str]
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS terms (chunk_id TEXT PRIMARY KEY, context_len INTEGER NOT NULL, "
    "text_len INTEGER NOT NULL, terms TEXT NOT NULL)",
)


def terms_of(context: str, text: str) -> list[str]:
    """The terms BM25 indexes for one chunk."""
    return tokenize(indexed_text(context, text))


def terms_for(data_dir: Path | None, rows: Sequence[Row]) -> list[list[str]]:
    """Each row's terms, in order: those kept in data_dir's terms file, the rest tokenized here
    (and kept, when the folder is writable)."""
    kept = _read(data_dir, rows) if data_dir is not None else {}
    out: list[list[str]] = []
    made: list[tuple[str, int, int, str]] = []
    for chunk_id, _, context, text in rows:
        found = kept.get(chunk_id)
        if found is not None and found[0] == len(context) and found[1] == len(text):
            out.append(found[2].split())
            continue
        terms = terms_of(context, text)
        out.append(terms)
        made.append((chunk_id, len(context), len(text), " ".join(terms)))
    if data_dir is not None and (made or len(kept) > len(rows)):
        _write(Path(data_dir), made, {r[0] for r in rows}, len(kept))
    return out


def _path(data_dir: Path) -> Path:
    return Path(data_dir) / FOLDER / FILE


def _read(data_dir: Path, rows: Sequence[Row]) -> dict[str, tuple[int, int, str]]:
    """The kept terms by chunk id (every row of the file), or none when it is missing, unreadable
    or from another tokenizer."""
    path = _path(data_dir)
    if not path.is_file():
        return {}
    try:
        conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=1)
        try:
            signed = conn.execute("SELECT value FROM meta WHERE key = 'tokenizer'").fetchone()
            if signed is None or signed[0] != tokenizer_signature():
                return {}
            found = conn.execute("SELECT chunk_id, context_len, text_len, terms FROM terms")
            return {chunk_id: (c, t, terms) for chunk_id, c, t, terms in found}
        finally:
            conn.close()
    except sqlite3.Error as exc:
        logger.warning("the kept BM25 terms in %s are unreadable (%s); tokenizing instead", path, exc)
        return {}


def _write(data_dir: Path, made: list[tuple[str, int, int, str]], listed: set[str], kept: int) -> None:
    """Keep the new rows and drop those of chunks no longer listed; a failure is only logged."""
    root = Path(data_dir) / FOLDER
    if not os.access(data_dir, os.W_OK) or (root.exists() and not os.access(root, os.W_OK)):
        return
    for attempt in (1, 2):
        try:
            root.mkdir(exist_ok=True)
            conn = sqlite3.connect(root / FILE, timeout=5, isolation_level=None)
            try:
                _store(conn, made, listed, kept + len(made))
            finally:
                conn.close()
            return
        except sqlite3.DatabaseError as exc:
            if attempt == 2 or isinstance(exc, sqlite3.OperationalError):  # busy or full: next time
                logger.warning("could not keep the BM25 terms in %s (%s)", root / FILE, exc)
                return
            logger.warning(
                "the kept BM25 terms in %s are damaged (%s); starting them again", root / FILE, exc
            )
            for suffix in ("", "-wal", "-shm"):
                Path(f"{root / FILE}{suffix}").unlink(missing_ok=True)
        except OSError as exc:
            logger.warning("could not keep the BM25 terms in %s (%s)", root / FILE, exc)
            return


def _store(
    conn: sqlite3.Connection, made: list[tuple[str, int, int, str]], listed: set[str], rows: int
) -> None:
    conn.execute("PRAGMA journal_mode = WAL")
    for statement in _SCHEMA:
        conn.execute(statement)
    conn.execute("BEGIN IMMEDIATE")
    try:
        signature = tokenizer_signature()
        signed = conn.execute("SELECT value FROM meta WHERE key = 'tokenizer'").fetchone()
        if signed is None or signed[0] != signature:  # another tokenizer's terms: none is kept
            conn.execute("DELETE FROM terms")
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('tokenizer', ?)", (signature,))
        conn.executemany("INSERT OR REPLACE INTO terms VALUES (?, ?, ?, ?)", made)
        if rows > len(listed):  # chunks deleted since: their rows go
            stale = [
                (chunk_id,)
                for (chunk_id,) in conn.execute("SELECT chunk_id FROM terms").fetchall()
                if chunk_id not in listed
            ]
            conn.executemany("DELETE FROM terms WHERE chunk_id = ?", stale)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
