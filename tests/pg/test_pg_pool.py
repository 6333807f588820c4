"""pg_connect.connect hands out pooled connections: reused, one per thread at a time, read-only
where asked, replaced when the server drops them, and closed by close_pools."""

from __future__ import annotations

import os
import threading
import time

import psycopg
import pytest

from ingest.team import connect as pg_connect


def backend_pid(url: str, **options) -> int:
    with pg_connect.connect(url, vectors=False, **options) as conn:
        return conn.execute("SELECT pg_backend_pid()").fetchone()[0]


def open_connections(url: str) -> int:
    """Connections to this test's database, other than the one asking."""
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()[0]


def connections_after_close(url: str, within_s: float = 120.0) -> int:
    """Open connections once the server has let closed ones go: a server process ends a moment
    after its client hangs up, so pg_stat_activity may list it briefly (seen at load 4). The
    deadline is only for a real leak: a loaded machine may take its time, the wait ends at 0."""
    deadline = time.monotonic() + within_s
    while (count := open_connections(url)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return count


def test_a_connection_is_reused_and_closed_with_the_pools(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pool of one, so that which connection serves a call is not up to the pool's background
    # filling (psycopg-pool may open a second one at any moment while the first is being made).
    monkeypatch.setattr(pg_connect, "POOL_MAX_SIZE", 1)
    backend_pid(pg_url)  # the first use is direct and opens the pool
    # Unpooled, each call would be a new server process.
    assert len({backend_pid(pg_url) for _ in range(10)}) == 1
    assert open_connections(pg_url) >= 1
    pg_connect.close_pools()
    assert connections_after_close(pg_url) == 0


def test_threads_holding_connections_at_once_get_one_each(pg_url: str) -> None:
    backend_pid(pg_url)
    together = threading.Barrier(3, timeout=30)
    pids: list[int] = []

    def hold() -> None:
        with pg_connect.connect(pg_url, vectors=False) as conn:
            pids.append(conn.execute("SELECT pg_backend_pid()").fetchone()[0])
            together.wait()

    threads = [threading.Thread(target=hold) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(set(pids)) == 3


def test_read_only_and_writing_connections_keep_their_mode(pg_url: str) -> None:
    with pg_connect.connect(pg_url, vectors=False) as conn:
        conn.execute("CREATE TABLE notes (t text)")
    for _ in range(2):  # the second round is served by the pools
        with (
            pg_connect.connect(pg_url, vectors=False, read_only=True) as conn,
            pytest.raises(psycopg.errors.ReadOnlySqlTransaction),
        ):
            conn.execute("INSERT INTO notes VALUES ('x')")
        with pg_connect.connect(pg_url, vectors=False) as conn:
            conn.execute("INSERT INTO notes VALUES ('x')")
    assert backend_pid(pg_url, read_only=True) != backend_pid(pg_url)


def test_a_transaction_left_open_by_an_error_is_rolled_back_before_reuse(pg_url: str) -> None:
    with pg_connect.connect(pg_url, vectors=False) as conn:
        conn.execute("CREATE TABLE notes (t text)")
    with pytest.raises(RuntimeError), pg_connect.connect(pg_url, vectors=False) as conn:
        conn.execute("BEGIN")
        conn.execute("INSERT INTO notes VALUES ('half')")
        raise RuntimeError("the caller failed mid-transaction")
    with pg_connect.connect(pg_url, vectors=False) as conn:
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        assert conn.execute("SELECT COUNT(*) FROM notes").fetchone()[0] == 0


def test_a_connection_the_server_dropped_is_replaced(pg_url: str) -> None:
    backend_pid(pg_url)
    dropped = backend_pid(pg_url)
    with psycopg.connect(pg_url, autocommit=True) as admin:
        # With a timeout it returns once the server process is gone (PostgreSQL 14+): without one,
        # the next call could still be served by the dying process, before it saw the signal.
        assert admin.execute("SELECT pg_terminate_backend(%s, 60000)", (dropped,)).fetchone()[0]
    assert backend_pid(pg_url) != dropped


def test_vector_connections_have_the_vector_type_registered(pg_url: str) -> None:
    with pg_connect.connect(pg_url) as conn:  # a writer creates the extension
        conn.execute("CREATE TABLE v (e vector(2))")
        conn.execute("INSERT INTO v VALUES ('[1,2]')")
    for _ in range(2):
        with pg_connect.connect(pg_url, read_only=True) as conn:
            assert conn.execute("SELECT e FROM v").fetchone()[0].to_list() == [
                1.0,
                2.0,
            ]  # not the text "[1,2]"


def test_with_every_pooled_connection_taken_a_direct_one_serves(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pg_connect, "POOL_MAX_SIZE", 1)
    backend_pid(pg_url)  # opens the pool, of one connection
    pooled = backend_pid(pg_url)  # waits for it
    monkeypatch.setattr(pg_connect, "POOL_WAIT_S", 0.2)
    with pg_connect.connect(
        pg_url, vectors=False
    ) as outer:  # a caller holding it, calling code that connects
        assert outer.execute("SELECT pg_backend_pid()").fetchone()[0] == pooled
        assert backend_pid(pg_url) != pooled  # served, not stuck
    assert backend_pid(pg_url) == pooled  # and the pooled one went back


def test_a_forked_child_opens_its_own_connection_and_leaves_the_parents_alone(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pool of one: its connection is the only one a call can get, so "the parent's pooled
    # connection" is known for certain. (With a larger pool, three calls sample some of its
    # connections and the pool may open another at any moment: issue 26 saw 13280 in {13281}.)
    monkeypatch.setattr(pg_connect, "POOL_MAX_SIZE", 1)
    backend_pid(pg_url)  # the first use is direct (and gone), and opens the pool
    pooled = backend_pid(pg_url)  # the pool's one connection
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the child: a connection of its own, then close "every" pool, as at exit
        try:
            os.write(writer, str(backend_pid(pg_url)).encode())
            pg_connect.close_pools()
        finally:
            os._exit(0)
    os.close(writer)
    child_backend = int(os.read(reader, 64).decode() or 0)
    os.waitpid(child, 0)
    os.close(reader)
    assert child_backend and child_backend != pooled
    # The child forgot the parent's pools at the fork, so closing its pools did not end the
    # parent's connection (a Terminate message on the shared socket would have: the server would
    # have ended it, and the pool's check would have replaced it with a new one).
    assert pooled in pooled_backends(pg_url)
    assert backend_pid(pg_url) == pooled


def pooled_backends(url: str) -> set[int]:
    """The server processes of this database's connections, other than the one asking."""
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return {r[0] for r in rows}
