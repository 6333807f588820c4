"""The PostgreSQL plumbing shared by the conversation and verdict stores (team mode): the schema
of their tables in the library's database (``footnote_conversations``, ``footnote_turns``,
``footnote_verdicts``, ``footnote_cosines``), made on open, and the base that binds a store to one
user (rag.stores.users). The stores are rag.stores.postgres_conversations and postgres_verdicts."""

from __future__ import annotations

import copy

from ingest.team import connect as pg_connect
from ingest.team import store as pg_store
from rag.stores.users import LOCAL_USER, check_user

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


class PgStore:
    """A store in the library's PostgreSQL database, bound to one user; the schema is made on open."""

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
