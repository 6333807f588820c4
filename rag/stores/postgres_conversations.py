"""Conversations and their turns in PostgreSQL (team mode): the twin of rag.stores.conversations,
with the same methods (tables in rag.stores.postgres's schema)."""

from __future__ import annotations

import json
import uuid

from rag.stores.conversations import ConversationInfo
from rag.stores.postgres import PgStore
from rag.stores.serialize import answer_from_dict, answer_to_dict
from rag.stores.sqlite import utc_now
from rag.types import Answer, Turn

_TURN = "turn_id, conv_id, idx, answer_json, created_at"


class PgConversationStore(PgStore):
    """One user's conversations and their turns in PostgreSQL (a connection per call: thread-safe).
    Another user's conversation is, to this store, not there."""

    _users_of = "footnote_conversations"

    def create(self, title: str = "") -> str:
        """Start a conversation; return its id (safe in a URL)."""
        conv_id, now = uuid.uuid4().hex[:12], utc_now()
        with self._connect() as db:
            db.execute(
                "INSERT INTO footnote_conversations (conv_id, title, created_at, updated_at, user_id) "
                "VALUES (%s, %s, %s, %s, %s)",
                (conv_id, title, now, now, self.user),
            )
        return conv_id

    def exists(self, conv_id: str) -> bool:
        """Whether this user has a conversation with that id."""
        with self._connect() as db:
            found = db.execute(
                "SELECT 1 FROM footnote_conversations WHERE conv_id = %s AND user_id = %s",
                (conv_id, self.user),
            ).fetchone()
        return found is not None

    def model(self, conv_id: str) -> str:
        """The chat model picked for a conversation, or '' (none picked, or no such conversation)."""
        with self._connect() as db:
            row = db.execute(
                "SELECT model FROM footnote_conversations WHERE conv_id = %s AND user_id = %s",
                (conv_id, self.user),
            ).fetchone()
        return row[0] if row else ""

    def set_model(self, conv_id: str, model: str) -> None:
        """Remember the chat model picked for a conversation (created if missing; another
        user's conversation is left as it is)."""
        now = utc_now()
        with self._connect() as db:
            db.execute(
                "INSERT INTO footnote_conversations (conv_id, title, created_at, updated_at, model, user_id) "
                "VALUES (%s, '', %s, %s, %s, %s) ON CONFLICT (conv_id) DO UPDATE SET model = excluded.model "
                "WHERE footnote_conversations.user_id = excluded.user_id",
                (conv_id, now, now, model, self.user),
            )

    def list_recent(self, limit: int = 20) -> list[ConversationInfo]:
        """This user's conversations with at least one turn, most recently updated first."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT c.conv_id, c.title, c.created_at, c.updated_at, COUNT(t.turn_id) FROM footnote_conversations c "
                "JOIN footnote_turns t USING (conv_id) WHERE c.user_id = %s GROUP BY c.conv_id "
                "ORDER BY c.updated_at DESC, c.seq DESC LIMIT %s",
                (self.user, limit),
            ).fetchall()
        return [ConversationInfo(*row) for row in rows]

    def add_turn(self, conv_id: str, answer: Answer) -> Turn:
        """Append a finished answer to a conversation (created if missing); the first question
        titles it. LookupError when the id is another user's conversation (nothing is written)."""
        now, turn_id = utc_now(), uuid.uuid4().hex
        payload = json.dumps(answer_to_dict(answer), ensure_ascii=False)
        with self._connect() as db, db.transaction():
            db.execute(
                "INSERT INTO footnote_conversations (conv_id, title, created_at, updated_at, user_id) "
                "VALUES (%s, '', %s, %s, %s) ON CONFLICT (conv_id) DO NOTHING",
                (conv_id, now, now, self.user),
            )
            # Row lock: two instances appending to one conversation take turns for the index.
            (owner,) = db.execute(
                "SELECT user_id FROM footnote_conversations WHERE conv_id = %s FOR UPDATE", (conv_id,)
            ).fetchone()
            if owner != self.user:
                raise LookupError(f"no conversation {conv_id}")
            (index,) = db.execute(
                "SELECT COALESCE(MAX(idx) + 1, 0) FROM footnote_turns WHERE conv_id = %s", (conv_id,)
            ).fetchone()
            db.execute(
                f"INSERT INTO footnote_turns ({_TURN.replace('answer_json', 'question, answer_json')}) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                (turn_id, conv_id, index, answer.question, payload, now),
            )
            db.execute(
                "UPDATE footnote_conversations SET updated_at = %s, "
                "title = CASE WHEN title = '' THEN %s ELSE title END WHERE conv_id = %s",
                (now, answer.question[:80], conv_id),
            )
        return Turn(turn_id=turn_id, conv_id=conv_id, index=index, answer=answer, created_at=now)

    def turns(self, conv_id: str) -> list[Turn]:
        """A conversation's turns in order."""
        return self._select("AND t.conv_id = %s ORDER BY t.idx", (conv_id,))

    def all_turns(self) -> list[Turn]:
        """Every turn of this user, oldest first."""
        return self._select("ORDER BY t.created_at, t.conv_id, t.idx", ())

    def get_turn(self, turn_id: str) -> Turn | None:
        found = self._select("AND t.turn_id = %s", (turn_id,))
        return found[0] if found else None

    def delete(self, conv_id: str) -> None:
        with self._connect() as db:
            db.execute(
                "DELETE FROM footnote_conversations WHERE conv_id = %s AND user_id = %s", (conv_id, self.user)
            )

    def import_conversation(self, info: ConversationInfo, turns: list[Turn]) -> bool:
        """Copy a conversation of this user with its ids and times (``python -m cli.ingest migrate``);
        False when a conversation with that id is already here (then nothing is written)."""
        with self._connect() as db, db.transaction():
            done = db.execute(
                "INSERT INTO footnote_conversations (conv_id, title, created_at, updated_at, user_id) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (conv_id) DO NOTHING",
                (info.conv_id, info.title, info.created_at, info.updated_at, self.user),
            ).rowcount
            if done:
                db.cursor().executemany(
                    f"INSERT INTO footnote_turns ({_TURN.replace('answer_json', 'question, answer_json')}) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    [
                        (
                            t.turn_id,
                            t.conv_id,
                            t.index,
                            t.answer.question,
                            json.dumps(answer_to_dict(t.answer), ensure_ascii=False),
                            t.created_at,
                        )
                        for t in turns
                    ],
                )
        return bool(done)

    def _select(self, where: str, args: tuple[object, ...]) -> list[Turn]:
        with self._connect() as db:
            rows = db.execute(
                f"SELECT {', '.join('t.' + c for c in _TURN.split(', '))} FROM footnote_turns t "
                f"JOIN footnote_conversations c USING (conv_id) WHERE c.user_id = %s {where}",
                (self.user, *args),
            ).fetchall()
        return [
            Turn(turn_id=t, conv_id=c, index=i, answer=answer_from_dict(a), created_at=ts)
            for t, c, i, a, ts in rows
        ]
