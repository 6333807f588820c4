"""Auditors' verdicts per citation, in SQLite (<data_dir>/audit.sqlite3 by convention).

A verdict is filed under (turn_id, footnote number, occurrence), the key of a CitationRecord.
Verdicts outlive the conversations they judge: deleting a chat keeps its verdicts (exports list
them with the context they still have). Each verdict belongs to the user who filed it, the owner
of the conversation it judges (rag.stores.users); the cosine cache is shared, as the library is.
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rag.stores.sqlite import open_store, transaction, utc_now
from rag.stores.users import LOCAL_USER, check_user

VERDICTS = ("supported", "partially_supported", "not_supported", "wrong_location")
VERDICT_LABELS = {
    "supported": "Supported",
    "partially_supported": "Partially supported",
    "not_supported": "Not supported",
    "wrong_location": "Wrong location",
}
AUDIT_DB_NAME = "audit.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit_verdicts (
    turn_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    occurrence INTEGER NOT NULL,
    short_id TEXT NOT NULL,
    verdict TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL,
    PRIMARY KEY (turn_id, number, occurrence)
);
CREATE TABLE IF NOT EXISTS audit_cosines (
    method TEXT NOT NULL,
    pair TEXT NOT NULL,
    cosine REAL NOT NULL,
    PRIMARY KEY (method, pair)
);
"""
# Who filed the verdict: rows from before users existed belong to rag.stores.users.LOCAL_USER. The key
# stays (turn_id, number, occurrence): a turn belongs to one user, so its citations do too.
_USER_COLUMN = "ALTER TABLE audit_verdicts ADD COLUMN user_id TEXT NOT NULL DEFAULT 'local';"
# Entry n takes the file from schema version n-1 to n: add a migration by appending one.
MIGRATIONS: tuple[str, ...] = (_SCHEMA, _USER_COLUMN)
_COLUMNS = "turn_id, number, occurrence, short_id, verdict, note, updated_at"


@dataclass(frozen=True)
class Verdict:
    """An auditor's judgement of one citation."""

    turn_id: str
    number: int
    occurrence: int
    short_id: str
    verdict: str
    note: str = ""
    updated_at: str = ""

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.turn_id, self.number, self.occurrence)


class VerdictStore:
    """One user's verdicts in one SQLite file shared by all users (a connection per call: safe
    across Streamlit sessions). Another user's verdict is, to this store, not there."""

    def __init__(self, path: Path, user: str = LOCAL_USER) -> None:
        self.path = Path(path)
        self.user = check_user(user)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            open_store(self.path, MIGRATIONS)
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{self.path} is not a usable verdict database: {exc}") from exc

    def for_user(self, user: str) -> VerdictStore:
        """The same file as seen by ``user`` (nothing is opened or migrated again)."""
        view = copy.copy(self)
        view.user = check_user(user)
        return view

    def users(self) -> list[str]:
        """Everyone who has filed a verdict here (``python -m cli.ingest migrate`` copies them all)."""
        with transaction(self.path) as db:
            rows = db.execute("SELECT DISTINCT user_id FROM audit_verdicts ORDER BY user_id").fetchall()
        return [user for (user,) in rows]

    def save(
        self, key: tuple[str, int, int], short_id: str, verdict: str, note: str | None = None
    ) -> Verdict:
        """File or replace the verdict for key; note=None keeps the note already there.
        LookupError when another user filed that key (theirs is left as it is)."""
        if verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {verdict!r}; expected one of {', '.join(VERDICTS)}")
        turn_id, number, occurrence = key
        now = utc_now()
        with transaction(self.path) as db:
            db.execute(
                f"INSERT INTO audit_verdicts ({_COLUMNS}, user_id) VALUES (?, ?, ?, ?, ?, COALESCE(?, ''), ?, ?) "
                "ON CONFLICT (turn_id, number, occurrence) DO UPDATE SET short_id = excluded.short_id, "
                "verdict = excluded.verdict, note = COALESCE(?, note), updated_at = excluded.updated_at "
                "WHERE audit_verdicts.user_id = excluded.user_id",
                (turn_id, number, occurrence, short_id, verdict, note, now, self.user, note),
            )
        found = self.get(key)
        if found is None:
            raise LookupError(f"no citation {key} to judge")
        return found

    def set_note(self, key: tuple[str, int, int], note: str) -> bool:
        """Change the note of an existing verdict; False when there is no verdict to annotate."""
        with transaction(self.path) as db:
            done = db.execute(
                "UPDATE audit_verdicts SET note = ?, updated_at = ? "
                "WHERE turn_id = ? AND number = ? AND occurrence = ? AND user_id = ?",
                (note, utc_now(), *key, self.user),
            )
        return done.rowcount > 0

    def clear(self, key: tuple[str, int, int]) -> None:
        """Forget the verdict for key."""
        with transaction(self.path) as db:
            db.execute(
                "DELETE FROM audit_verdicts WHERE turn_id = ? AND number = ? AND occurrence = ? AND user_id = ?",
                (*key, self.user),
            )

    def get(self, key: tuple[str, int, int]) -> Verdict | None:
        """The verdict filed for key, or None."""
        found = self._select("AND turn_id = ? AND number = ? AND occurrence = ?", key)
        return found[0] if found else None

    def all(self) -> list[Verdict]:
        """Every verdict of this user, in the order they were first filed."""
        return self._select("ORDER BY rowid", ())

    def by_key(self, turn_ids: Iterable[str] | None = None) -> dict[tuple[str, int, int], Verdict]:
        """Verdicts by key, optionally only those of some turns."""
        wanted = None if turn_ids is None else set(turn_ids)
        return {v.key: v for v in self.all() if wanted is None or v.turn_id in wanted}

    def get_cosines(self, method: str, pairs: Iterable[str]) -> dict[str, float]:
        """Embedding cosines already computed with method (an embedding model's name), by pair hash."""
        wanted = set(pairs)
        with transaction(self.path) as db:
            rows = db.execute("SELECT pair, cosine FROM audit_cosines WHERE method = ?", (method,)).fetchall()
        return {pair: cosine for pair, cosine in rows if pair in wanted}

    def put_cosines(self, method: str, values: dict[str, float]) -> None:
        """Remember cosines computed with method, so the page does not embed them again."""
        with transaction(self.path) as db:
            db.executemany(
                "INSERT OR REPLACE INTO audit_cosines VALUES (?, ?, ?)",
                [(method, pair, cosine) for pair, cosine in values.items()],
            )

    def _select(self, where: str, args: tuple[object, ...]) -> list[Verdict]:
        with transaction(self.path) as db:
            rows = db.execute(
                f"SELECT {_COLUMNS} FROM audit_verdicts WHERE user_id = ? {where}", (self.user, *args)
            ).fetchall()
        return [Verdict(*row) for row in rows]
