"""Saved conversations in SQLite: each turn keeps its answer and evidence snapshot as JSON,
so reloads render from data and old footnotes open the right passage after a re-index."""

from __future__ import annotations

import copy
import json
import uuid
from dataclasses import dataclass
from pathlib import Path

from rag.stores.serialize import answer_from_dict, answer_to_dict
from rag.stores.sqlite import open_store, transaction, utc_now
from rag.stores.users import LOCAL_USER, check_user
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
# Who the conversation belongs to: rows from before users existed belong to rag.stores.users.LOCAL_USER.
_USER_COLUMN = "ALTER TABLE conversations ADD COLUMN user_id TEXT NOT NULL DEFAULT 'local';"
# Entry n takes the file from schema version n-1 to n: add a migration by appending one.
MIGRATIONS: tuple[str, ...] = (_SCHEMA, _MODEL_COLUMN, _USER_COLUMN)


@dataclass(frozen=True)
class ConversationInfo:
    """A conversation as listed in "recent chats"."""

    conv_id: str
    title: str
    created_at: str
    updated_at: str
    turns: int


class ConversationStore:
    """One user's conversations and their turns in one SQLite file shared by all users (a
    connection per call: thread-safe). Another user's conversation is, to this store, not there."""

    def __init__(self, path: Path, user: str = LOCAL_USER) -> None:
        self.path = Path(path)
        self.user = check_user(user)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        open_store(self.path, MIGRATIONS)

    def for_user(self, user: str) -> ConversationStore:
        """The same file as seen by ``user`` (nothing is opened or migrated again)."""
        view = copy.copy(self)
        view.user = check_user(user)
        return view

    def users(self) -> list[str]:
        """Everyone who has a conversation here (``python -m cli.ingest migrate`` copies them all)."""
        with transaction(self.path) as db:
            rows = db.execute("SELECT DISTINCT user_id FROM conversations ORDER BY user_id").fetchall()
        return [user for (user,) in rows]

    def create(self, title: str = "") -> str:
        """Start a conversation; return its id (safe in a URL)."""
        conv_id = uuid.uuid4().hex[:12]
        now = utc_now()
        with transaction(self.path) as db:
            db.execute(
                "INSERT INTO conversations (conv_id, title, created_at, updated_at, user_id) VALUES (?, ?, ?, ?, ?)",
                (conv_id, title, now, now, self.user),
            )
        return conv_id

    def exists(self, conv_id: str) -> bool:
        """Whether this user has a conversation with that id."""
        with transaction(self.path) as db:
            row = db.execute(
                "SELECT 1 FROM conversations WHERE conv_id = ? AND user_id = ?", (conv_id, self.user)
            ).fetchone()
        return row is not None

    def model(self, conv_id: str) -> str:
        """The chat model picked for a conversation, or '' (none picked, or no such conversation)."""
        with transaction(self.path) as db:
            row = db.execute(
                "SELECT model FROM conversations WHERE conv_id = ? AND user_id = ?", (conv_id, self.user)
            ).fetchone()
        return row[0] if row else ""

    def set_model(self, conv_id: str, model: str) -> None:
        """Remember the chat model picked for a conversation (created if missing; another
        user's conversation is left as it is)."""
        now = utc_now()
        with transaction(self.path) as db:
            db.execute(
                "INSERT INTO conversations (conv_id, title, created_at, updated_at, model, user_id) "
                "VALUES (?, '', ?, ?, ?, ?) ON CONFLICT (conv_id) DO UPDATE SET model = excluded.model "
                "WHERE conversations.user_id = excluded.user_id",
                (conv_id, now, now, model, self.user),
            )

    def list_recent(self, limit: int = 20) -> list[ConversationInfo]:
        """This user's conversations with at least one turn, most recently updated first."""
        with transaction(self.path) as db:
            rows = db.execute(
                "SELECT c.conv_id, c.title, c.created_at, c.updated_at, COUNT(t.turn_id) "
                "FROM conversations c JOIN turns t ON t.conv_id = c.conv_id WHERE c.user_id = ? "
                "GROUP BY c.conv_id ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ?",
                (self.user, limit),
            ).fetchall()
        return [ConversationInfo(*row) for row in rows]

    def add_turn(self, conv_id: str, answer: Answer) -> Turn:
        """Append a finished answer to a conversation (created if missing); the first question
        titles it. LookupError when the id is another user's conversation (nothing is written)."""
        now = utc_now()
        turn_id = uuid.uuid4().hex
        payload = json.dumps(answer_to_dict(answer), ensure_ascii=False)
        with transaction(self.path) as db:
            db.execute(
                "INSERT OR IGNORE INTO conversations (conv_id, title, created_at, updated_at, user_id) "
                "VALUES (?, ?, ?, ?, ?)",
                (conv_id, "", now, now, self.user),
            )
            (owner,) = db.execute(
                "SELECT user_id FROM conversations WHERE conv_id = ?", (conv_id,)
            ).fetchone()
            if owner != self.user:
                raise LookupError(f"no conversation {conv_id}")
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
        return self._select("AND t.conv_id = ? ORDER BY t.idx", (conv_id,))

    def all_turns(self) -> list[Turn]:
        """Every turn of this user, oldest first."""
        return self._select("ORDER BY t.created_at, t.conv_id, t.idx", ())

    def get_turn(self, turn_id: str) -> Turn | None:
        found = self._select("AND t.turn_id = ?", (turn_id,))
        return found[0] if found else None

    def delete(self, conv_id: str) -> None:
        with transaction(self.path) as db:
            db.execute("DELETE FROM conversations WHERE conv_id = ? AND user_id = ?", (conv_id, self.user))

    def _select(self, where: str, args: tuple[object, ...]) -> list[Turn]:
        with transaction(self.path) as db:
            rows = db.execute(
                "SELECT t.turn_id, t.conv_id, t.idx, t.answer_json, t.created_at FROM turns t "
                f"JOIN conversations c ON c.conv_id = t.conv_id WHERE c.user_id = ? {where}",
                (self.user, *args),
            ).fetchall()
        return [
            Turn(turn_id=t, conv_id=c, index=i, answer=answer_from_dict(json.loads(a)), created_at=ts)
            for t, c, i, a, ts in rows
        ]
