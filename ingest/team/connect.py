"""PostgreSQL connections for team mode: pooled per process, URL and mode, with errors that say
why a server cannot be used, and the URL with its password hidden for logs and messages.

A caller's ``with connect(url)`` gets a pooled connection when one is free, else one direct
connection; the first use of a URL and mode makes a direct one (its errors are the clear ones)
and starts the pool. A forked child forgets the parent's pools; every pool closes at exit.
"""

from __future__ import annotations

import atexit
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from urllib.parse import urlsplit, urlunsplit

import psycopg
from pgvector.psycopg import register_vector
from psycopg_pool import ConnectionPool, PoolTimeout

from ingest.errors import DatabaseUnavailable, NoVectorExtension
from ingest.team.store import SCHEMA_LOCK


def masked(url: str) -> str:
    """The URL with any password replaced by ***, safe to log or show."""
    parts = urlsplit(url)
    if parts.password:
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{parts.username or ''}:***@{host}")
        url = urlunsplit(parts)
    return re.sub(r"(password\s*=\s*)('[^']*'|\S+)", r"\1***", url)


def scrub(text: str, url: str) -> str:
    """``text`` with the URL's password removed wherever it appears."""
    password = urlsplit(url).password
    return text.replace(password, "***") if password else text


# Connections are pooled per process, database URL and mode (read-only, vectors): opening one costs
# about 7.6 ms, more than most of the queries made on it. A pool keeps at least one open and at
# most POOL_MAX_SIZE; with three modes in use per app process (library reader, library writer,
# conversations), N instances hold at most 3 * POOL_MAX_SIZE * N, against PostgreSQL's default
# max_connections of 100. Idle connections above the first close after POOL_MAX_IDLE_S.
POOL_MAX_SIZE = 8
POOL_MAX_IDLE_S = 60.0
# How long a caller waits for a pooled connection before one direct connection either works (all
# pooled ones were busy) or says why the server cannot be used (it went away after the pool was made).
POOL_WAIT_S = 5.0

_pools: dict[tuple[str, bool, bool], ConnectionPool] = {}
_pools_lock = threading.Lock()


@contextmanager
def connect(url: str, *, read_only: bool = False, vectors: bool = True) -> Iterator[psycopg.Connection]:
    """A pooled autocommit connection (use ``conn.transaction()``), read-only on the server when
    ``read_only``, with pgvector's type registered unless ``vectors`` is False; DatabaseUnavailable
    naming the masked URL when the server cannot be used. Safe across threads: each ``with``
    gets a connection of its own."""
    key = (url, read_only, vectors)
    with _pools_lock:
        pool = _pools.get(key)
    conn = None
    if pool is not None:
        with suppress(PoolTimeout):
            conn = pool.getconn(timeout=POOL_WAIT_S)
    if conn is None:  # the first use of this URL and mode, or no pooled connection came in time
        conn = _direct(url, read_only=read_only, vectors=vectors)  # the clear errors come from here
        if pool is None:
            _start_pool(key)
        try:
            yield conn
        finally:
            conn.close()
        return
    try:
        yield conn
    finally:
        pool.putconn(conn)  # rolled back first if a transaction was left open


def close_pools() -> None:
    """Close every pooled connection of this process (at exit; tests between databases)."""
    with _pools_lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.close(timeout=5)


def _direct(url: str, *, read_only: bool, vectors: bool) -> psycopg.Connection:
    """One unpooled connection, checked as the pool's are, with errors that say what is wrong."""
    try:
        conn = psycopg.connect(url, **_connection_options(read_only))
    except psycopg.Error as exc:
        reason = scrub(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__, url)
        raise DatabaseUnavailable(
            masked(url),
            f"cannot connect to PostgreSQL at {masked(url)} ({reason}); "
            "check FOOTNOTE_DATABASE_URL and that the server is running",
        ) from None
    try:
        if vectors:
            _register_vector(conn, url, create=not read_only)
    except BaseException:
        conn.close()
        raise
    return conn


def _connection_options(read_only: bool) -> dict[str, object]:
    options = "-c default_transaction_read_only=on" if read_only else None
    return {"autocommit": True, "connect_timeout": 10, "options": options}


def _start_pool(key: tuple[str, bool, bool]) -> None:
    """A pool for this URL and mode, once a direct connection has shown that the server works."""
    url, read_only, vectors = key
    with _pools_lock:
        if key in _pools:
            return
        _pools[key] = ConnectionPool(
            url,
            kwargs=_connection_options(read_only),
            min_size=1,
            max_size=POOL_MAX_SIZE,
            max_idle=POOL_MAX_IDLE_S,
            configure=register_vector if vectors else None,
            check=ConnectionPool.check_connection,  # a connection the server dropped is replaced
            name="footnote",  # pools log under this name; the URL (with its password) never
            open=True,
        )


def _forget_pools() -> None:
    # A forked child must not use (or close: that would end them for the parent) the parent's
    # connections, and the pools' worker threads did not survive the fork.
    _pools.clear()


os.register_at_fork(after_in_child=_forget_pools)
atexit.register(close_pools)


def _register_vector(conn: psycopg.Connection, url: str, *, create: bool) -> None:
    found = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone()
    if found is None and create:
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            found = (1,)
        except psycopg.Error as exc:
            detail = scrub(str(exc).strip().splitlines()[0], url)
            raise NoVectorExtension(
                masked(url),
                f"the database at {masked(url)} has no pgvector extension and "
                f"it could not be created ({detail}); install pgvector and run "
                "`CREATE EXTENSION vector` as its owner",
            ) from None
    if found is None:
        raise NoVectorExtension(
            masked(url),
            f"the database at {masked(url)} has no pgvector extension "
            "(no Footnote library is there yet; `python -m cli.ingest PDF...` creates one)",
        )
    register_vector(conn)
