"""Audit verdicts and cached cosines in PostgreSQL (team mode): the twin of rag.stores.verdicts,
with the same methods (tables in rag.stores.postgres's schema)."""

from __future__ import annotations

from collections.abc import Iterable

from rag.stores.postgres import PgStore
from rag.stores.sqlite import utc_now
from rag.stores.verdicts import VERDICTS, Verdict

_VERDICT = "turn_id, number, occurrence, short_id, verdict, note, updated_at"


class PgVerdictStore(PgStore):
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
        """Copy verdicts of this user as they are (``python -m cli.ingest migrate``), keeping any
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
