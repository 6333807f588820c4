"""``python -m cli.ingest migrate --to URL``: copy a local library into PostgreSQL without re-embedding.

Documents (with their PDFs, pages, chunks and the very vectors in the FAISS index),
conversations (same ids, so old ``?conv=`` links and their footnotes still open) and audit
verdicts, each still belonging to its user. Each document is copied in its own transaction;
what is already in the database is left alone, so an interrupted migration is finished by
running it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ingest.errors import LibraryError, NoLibrary
from ingest.local import queries, store, vectors
from ingest.local.library import Library
from ingest.team.library import PgLibrary


@dataclass(frozen=True)
class Migrated:
    """What a migration copied, and what it found already there."""

    documents: int = 0
    present: int = 0
    chunks: int = 0
    conversations: int = 0
    verdicts: int = 0

    def lines(self, where: str) -> list[str]:
        """The report, one line per kind."""
        return [
            (
                f"copied {self.documents} documents ({self.chunks} chunks with their stored vectors, nothing "
                f"re-embedded) into {where}; {self.present} were already there"
            ),
            f"copied {self.conversations} conversations and {self.verdicts} verdicts",
        ]


def migrate_library(local: Library, target: PgLibrary) -> tuple[int, int, int]:
    """Copy every document not yet in target; returns (documents copied, already there, chunks)."""
    index = vectors.load_index(local.index_path)
    copied = present = chunks_copied = 0
    for doc in local.documents():
        if target.document(doc.doc_id) is not None:
            present += 1
            continue
        with store.connect(local.db_path, read_only=True) as conn:
            rows = queries.ready_chunks(conn, [doc.doc_id])
        if index is None or not rows:
            continue  # no vectors to copy: `python -m cli.ingest --check` on the local library first
        matrix = np.vstack([index.reconstruct(int(vec_id)) for vec_id, _ in rows]).astype(np.float32)
        stored = target.store_document(
            doc, local.pages(doc.doc_id), [c for _, c in rows], matrix, local.pdf_bytes(doc.doc_id)
        )
        copied, chunks_copied = copied + (stored is doc), chunks_copied + len(rows) * (stored is doc)
        present += stored is not doc
    return copied, present, chunks_copied


def migrate_chats(data_dir: Path, url: str) -> tuple[int, int]:
    """Copy conversations and verdicts from the data folder's SQLite files; returns their counts."""
    from rag.stores.conversations import ConversationStore
    from rag.stores.postgres_conversations import PgConversationStore
    from rag.stores.postgres_verdicts import PgVerdictStore
    from rag.stores.verdicts import AUDIT_DB_NAME, VerdictStore

    conversations = verdicts = 0
    if (data_dir / "conversations.sqlite3").exists():
        chats, shared = ConversationStore(data_dir / "conversations.sqlite3"), PgConversationStore(url)
        for user in chats.users():  # each user's own, to the same owner
            source, target = chats.for_user(user), shared.for_user(user)
            for info in source.list_recent(limit=2**62):
                conversations += target.import_conversation(info, source.turns(info.conv_id))
    if (data_dir / AUDIT_DB_NAME).exists():
        judged, shared_verdicts = VerdictStore(data_dir / AUDIT_DB_NAME), PgVerdictStore(url)
        for user in judged.users():
            verdicts += shared_verdicts.for_user(user).import_verdicts(judged.for_user(user).all())
    return conversations, verdicts


def migrate(data_dir: Path, url: str, embeddings) -> Migrated:
    """Copy the library and the chats in ``data_dir`` into the database at ``url``; the target
    takes the local library's recorded settings (IndexMismatch when it holds other ones)."""
    if not (Path(data_dir) / "library.sqlite3").is_file():
        raise NoLibrary(str(data_dir))
    with store.connect(Path(data_dir) / "library.sqlite3", read_only=True) as conn:
        meta = store.read_meta(conn)
    options = {
        "embedding_name": meta["embedding_name"],
        "chunk_size": int(meta["chunk_size"]),
        "chunk_overlap": int(meta["chunk_overlap"]),
    }
    local = Library.open_reader(Path(data_dir), embeddings, **options)
    if local.missing_vectors:
        raise LibraryError(
            str(data_dir),
            f"{local.missing_vectors} chunks in {data_dir} have no vectors to copy; "
            f"repair them first with `python -m cli.ingest --check --data-dir {data_dir}`",
        )
    target = PgLibrary.open(url, embeddings, **options)
    copied, present, chunks = migrate_library(local, target)
    conversations, verdicts = migrate_chats(Path(data_dir), url)
    return Migrated(copied, present, chunks, conversations, verdicts)
