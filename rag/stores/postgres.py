"""Conversations and audit verdicts in PostgreSQL (team mode): the SQLite stores' twins, with
the same methods, in the library's database (tables ``footnote_conversations``, ``footnote_turns``,
``footnote_verdicts``, ``footnote_cosines``). Each store is bound to one user (rag.stores.users), as in SQLite."""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Iterable

from ingest.team import connect as pg_connect
from ingest.team import store as pg_store
from rag.stores.conversations import ConversationInfo
from rag.stores.serialize import answer_from_dict, answer_to_dict
from rag.stores.sqlite import utc_now
from rag.stores.users import LOCAL_USER, check_user
from rag.stores.verdicts import VERDICTS, Verdict
from rag.types import Answer, Turn

SCHEMA = """
CREATE TABLE IF NOT EXISTS footnote_conversations (
    conv_id text PRIMARY KEY, seq bigserial NOT NULL, title text NOT NULL DEFAULT '',
    created_at text NOT NULL, updated_at text NOT NULL
);
CREATE TABLE IF NOT EXISTS footnote_turns (
    turn_id text PRIMARY KEY, conv_id text NOT NULL REFERENCES footnote_conversations ON DELETE CASCADE,
    idx integer NOT NULL, question text NOT NULL, answer_json jsonb NOT NULL, created_at text NOT NULL,
    UNIQUE (conv_id, idx)
);
CREATE TABLE IF NOT EXISTS footnote_verdicts (
    turn_id text NOT NULL, number integer NOT NULL, occurrence integer NOT NULL, seq bigserial NOT NULL,
    short_id text NOT NULL, verdict text NOT NULL, note text NOT NULL DEFAULT '', updated_at text NOT NULL,
    PRIMARY KEY (turn_id, number, occurrence)
);
CREATE TABLE IF NOT EXISTS footnote_cosines (
    method text NOT NULL, pair text NOT NULL, cosine double precision NOT NULL, PRIMARY KEY (method, pair)
);
ALTER TABLE footnote_conversations ADD COLUMN IF NOT EXISTS model text NOT NULL DEFAULT '';
-- Who a conversation or a verdict belongs to: rows from before users existed belong to
-- rag.stores.users.LOCAL_USER (a constant default: PostgreSQL adds the column without rewriting the table).
ALTER TABLE footnote_conversations ADD COLUMN IF NOT EXISTS user_id text NOT NULL DEFAULT 'local';
CREATE INDEX IF NOT EXISTS footnote_conversations_user ON footnote_conversations (user_id, updated_at);
ALTER TABLE footnote_verdicts ADD COLUMN IF NOT EXISTS user_id text NOT NULL DEFAULT 'local'
"""
_TURN = "turn_id, conv_id, idx, answer_json, created_at"
_VERDICT = "turn_id, number, occurrence, short_id, verdict, note, updated_at"


class _PgStore:
    _users_of = ""  # the table whose rows carry the user

    def __init__(self, url: str, user: str = LOCAL_USER) -> None:
        self.url = url
        self.user = check_user(user)
        with self._connect() as db, db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (pg_store.SCHEMA_LOCK,))
            for statement in (s.strip() for s in SCHEMA.split(";")):
                if statement:
                    db.execute(statement)

    def _connect(self):
        return pg_connect.connect(self.url, vectors=False)

    def for_user(self, user: str):
        """The same database as seen by ``user`` (nothing is opened or migrated again)."""
        view = copy.copy(self)
        view.user = check_user(user)
        return view

    def users(self) -> list[str]:
        """Everyone who has rows here."""
        with self._connect() as db:
            rows = db.execute(f"SELECT DISTINCT user_id FROM {self._users_of} ORDER BY user_id").fetchall()
        return [user for (user,) in rows]


class PgConversationStore(_PgStore):
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
        """Copy a conversation of this user with its ids and times (``python -m ingest migrate``);
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


class PgVerdictStore(_PgStore):
    """One user's verdicts in PostgreSQL (a connection per call: safe across sessions and
    instances). Another user's verdict is, to this store, not there."""

    _users_of = "footnote_verdicts"

    def save(
        self, key: tuple[str, int, int], short_id: str, verdict: str, note: str | None = None
    ) -> Verdict:
        """File or replace the verdict for key; note=None keeps the note already there.
        LookupError when another user filed that key (theirs is left as it is)."""
        if verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {verdict!r}; expected one of {', '.join(VERDICTS)}")
        with self._connect() as db:
            db.execute(
                f"INSERT INTO footnote_verdicts ({_VERDICT}, user_id) "
                "VALUES (%s, %s, %s, %s, %s, COALESCE(%s, ''), %s, %s) "
                "ON CONFLICT (turn_id, number, occurrence) DO UPDATE SET short_id = EXCLUDED.short_id, "
                "verdict = EXCLUDED.verdict, note = COALESCE(%s, footnote_verdicts.note), "
                "updated_at = EXCLUDED.updated_at WHERE footnote_verdicts.user_id = EXCLUDED.user_id",
                (*key, short_id, verdict, note, utc_now(), self.user, note),
            )
        found = self.get(key)
        if found is None:
            raise LookupError(f"no citation {key} to judge")
        return found

    def set_note(self, key: tuple[str, int, int], note: str) -> bool:
        """Change the note of an existing verdict; False when there is no verdict to annotate."""
        with self._connect() as db:
            done = db.execute(
                "UPDATE footnote_verdicts SET note = %s, updated_at = %s "
                "WHERE turn_id = %s AND number = %s AND occurrence = %s AND user_id = %s",
                (note, utc_now(), *key, self.user),
            )
        return done.rowcount > 0

    def clear(self, key: tuple[str, int, int]) -> None:
        """Forget the verdict for key."""
        with self._connect() as db:
            db.execute(
                "DELETE FROM footnote_verdicts WHERE turn_id = %s AND number = %s AND occurrence = %s "
                "AND user_id = %s",
                (*key, self.user),
            )

    def get(self, key: tuple[str, int, int]) -> Verdict | None:
        """The verdict filed for key, or None."""
        found = self._select("AND turn_id = %s AND number = %s AND occurrence = %s", key)
        return found[0] if found else None

    def all(self) -> list[Verdict]:
        """Every verdict of this user, in the order they were first filed."""
        return self._select("ORDER BY seq", ())

    def by_key(self, turn_ids: Iterable[str] | None = None) -> dict[tuple[str, int, int], Verdict]:
        """Verdicts by key, optionally only those of some turns."""
        wanted = None if turn_ids is None else set(turn_ids)
        return {v.key: v for v in self.all() if wanted is None or v.turn_id in wanted}

    def get_cosines(self, method: str, pairs: Iterable[str]) -> dict[str, float]:
        """Embedding cosines already computed with method, by pair hash."""
        wanted = set(pairs)
        with self._connect() as db:
            rows = db.execute(
                "SELECT pair, cosine FROM footnote_cosines WHERE method = %s", (method,)
            ).fetchall()
        return {pair: cosine for pair, cosine in rows if pair in wanted}

    def put_cosines(self, method: str, values: dict[str, float]) -> None:
        """Remember cosines computed with method."""
        with self._connect() as db:
            db.cursor().executemany(
                "INSERT INTO footnote_cosines VALUES (%s, %s, %s) ON CONFLICT (method, pair) "
                "DO UPDATE SET cosine = EXCLUDED.cosine",
                [(method, p, c) for p, c in values.items()],
            )

    def import_verdicts(self, verdicts: Iterable[Verdict]) -> int:
        """Copy verdicts of this user as they are (``python -m ingest migrate``), keeping any
        already here; returns how many were added."""
        added = 0
        with self._connect() as db, db.transaction():
            for v in verdicts:
                added += db.execute(
                    f"INSERT INTO footnote_verdicts ({_VERDICT}, user_id) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT DO NOTHING",
                    (
                        v.turn_id,
                        v.number,
                        v.occurrence,
                        v.short_id,
                        v.verdict,
                        v.note,
                        v.updated_at,
                        self.user,
                    ),
                ).rowcount
        return added

    def _select(self, where: str, args: tuple[object, ...]) -> list[Verdict]:
        with self._connect() as db:
            rows = db.execute(
                f"SELECT {_VERDICT} FROM footnote_verdicts WHERE user_id = %s {where}", (self.user, *args)
            ).fetchall()
        return [Verdict(*row) for row in rows]
