"""Saved conversations in SQLite: each turn keeps its answer and evidence snapshot as JSON,
so reloads render from data and old footnotes open the right passage after a re-index."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from pathlib import Path

from rag.serialize import answer_from_dict, answer_to_dict
from rag.sqlite import open_store, transaction, utc_now
from rag.types import Answer, Turn

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    conv_id TEXT PRIMARY KEY,
    title TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS turns (
    turn_id TEXT PRIMARY KEY,
    conv_id TEXT NOT NULL REFERENCES conversations(conv_id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    question TEXT NOT NULL,
    answer_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (conv_id, idx)
);
"""
# The chat model picked for a conversation ('' until one is picked: the configured model).
_MODEL_COLUMN = "ALTER TABLE conversations ADD COLUMN model TEXT NOT NULL DEFAULT '';"
# Entry n takes the file from schema version n-1 to n: add a migration by appending one.
MIGRATIONS: tuple[str, ...] = (_SCHEMA, _MODEL_COLUMN)


@dataclass(frozen=True)
class ConversationInfo:
    """A conversation as listed in "recent chats"."""

    conv_id: str
    title: str
    created_at: str
    updated_at: str
    turns: int


class ConversationStore:
    """Conversations and their turns in one SQLite file (a connection per call: thread-safe)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        open_store(self.path, MIGRATIONS)

    def create(self, title: str = "") -> str:
        """Start a conversation; return its id (safe in a URL)."""
        conv_id = uuid.uuid4().hex[:12]
        now = utc_now()
        with transaction(self.path) as db:
            db.execute(
                "INSERT INTO conversations (conv_id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (conv_id, title, now, now),
            )
        return conv_id

    def exists(self, conv_id: str) -> bool:
        with transaction(self.path) as db:
            row = db.execute("SELECT 1 FROM conversations WHERE conv_id = ?", (conv_id,)).fetchone()
        return row is not None

    def model(self, conv_id: str) -> str:
        """The chat model picked for a conversation, or '' (none picked, or no such conversation)."""
        with transaction(self.path) as db:
            row = db.execute("SELECT model FROM conversations WHERE conv_id = ?", (conv_id,)).fetchone()
        return row[0] if row else ""

    def set_model(self, conv_id: str, model: str) -> None:
        """Remember the chat model picked for a conversation (created if missing)."""
        now = utc_now()
        with transaction(self.path) as db:
            db.execute(
                "INSERT INTO conversations (conv_id, title, created_at, updated_at, model) VALUES (?, '', ?, ?, ?) "
                "ON CONFLICT (conv_id) DO UPDATE SET model = excluded.model",
                (conv_id, now, now, model),
            )

    def list_recent(self, limit: int = 20) -> list[ConversationInfo]:
        """Conversations with at least one turn, most recently updated first."""
        with transaction(self.path) as db:
            rows = db.execute(
                "SELECT c.conv_id, c.title, c.created_at, c.updated_at, COUNT(t.turn_id) "
                "FROM conversations c JOIN turns t ON t.conv_id = c.conv_id "
                "GROUP BY c.conv_id ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [ConversationInfo(*row) for row in rows]

    def add_turn(self, conv_id: str, answer: Answer) -> Turn:
        """Append a finished answer to a conversation (created if missing); the first question titles it."""
        now = utc_now()
        turn_id = uuid.uuid4().hex
        payload = json.dumps(answer_to_dict(answer), ensure_ascii=False)
        with transaction(self.path) as db:
            db.execute(
                "INSERT OR IGNORE INTO conversations (conv_id, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
                (conv_id, "", now, now),
            )
            (index,) = db.execute(
                "SELECT COALESCE(MAX(idx) + 1, 0) FROM turns WHERE conv_id = ?", (conv_id,)
            ).fetchone()
            db.execute(
                "INSERT INTO turns VALUES (?, ?, ?, ?, ?, ?)",
                (turn_id, conv_id, index, answer.question, payload, now),
            )
            db.execute(
                "UPDATE conversations SET updated_at = ?, "
                "title = CASE WHEN title = '' THEN ? ELSE title END WHERE conv_id = ?",
                (now, answer.question[:80], conv_id),
            )
        return Turn(turn_id=turn_id, conv_id=conv_id, index=index, answer=answer, created_at=now)

    def turns(self, conv_id: str) -> list[Turn]:
        """A conversation's turns in order."""
        return self._select("WHERE conv_id = ? ORDER BY idx", (conv_id,))

    def all_turns(self) -> list[Turn]:
        """Every saved turn, oldest first."""
        return self._select("ORDER BY created_at, conv_id, idx", ())

    def get_turn(self, turn_id: str) -> Turn | None:
        found = self._select("WHERE turn_id = ?", (turn_id,))
        return found[0] if found else None

    def delete(self, conv_id: str) -> None:
        with transaction(self.path) as db:
            db.execute("DELETE FROM conversations WHERE conv_id = ?", (conv_id,))

    def _select(self, where: str, args: tuple[object, ...]) -> list[Turn]:
        with transaction(self.path) as db:
            rows = db.execute(
                f"SELECT turn_id, conv_id, idx, answer_json, created_at FROM turns {where}", args
            ).fetchall()
        return [
            Turn(turn_id=t, conv_id=c, index=i, answer=answer_from_dict(json.loads(a)), created_at=ts)
            for t, c, i, a, ts in rows
        ]
