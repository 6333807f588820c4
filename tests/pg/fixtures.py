"""A real PostgreSQL 16 with pgvector (the pgserver package), started once per test session in a
temporary folder and stopped afterwards; each test gets a database of its own. Under pytest-xdist
each worker is a session of its own, with a server of its own: nothing is shared between workers.

Registered suite-wide by tests/conftest.py, so that tests outside tests/pg (the browser test of
team mode) share the one server."""

from __future__ import annotations

import itertools
import os
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

_names = itertools.count()
# The server only ever holds throwaway test databases, so it keeps them in memory where the machine
# has a memory file system (Linux's /dev/shm) and never flushes them. On disk, with PostgreSQL's
# defaults, stopping it after the suite's few hundred databases took longer than pg_ctl waits (the
# server was then killed) and removing its folder took a minute more.
MEMORY = Path("/dev/shm")
THROWAWAY = (
    "ALTER SYSTEM SET fsync = off;"
    "ALTER SYSTEM SET synchronous_commit = off;"
    "ALTER SYSTEM SET full_page_writes = off;"
    "SELECT pg_reload_conf();"
)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[object]:
    """The running server (pgserver.PostgresServer), stopped at the end of the session."""
    from platformdirs.api import RuntimeDirWarning

    with warnings.catch_warnings():
        # pgserver keeps its lock file under platformdirs' runtime folder, which warns and falls
        # back to /tmp/runtime-<uid> when XDG_RUNTIME_DIR is unset (containers, CI): harmless.
        # SEE: https://github.com/tox-dev/platformdirs/blob/main/src/platformdirs/unix.py (user_runtime_dir)
        warnings.filterwarnings("ignore", category=RuntimeDirWarning)
        import pgserver

        # Not under pytest's tmp_path: run as root, pgserver starts postgres as its own user, which
        # cannot enter pytest's private (0700) folder; the server's own folder is made for it.
        memory = MEMORY if MEMORY.is_dir() and os.access(MEMORY, os.W_OK) else None
        with tempfile.TemporaryDirectory(prefix="footnote-pg-", dir=memory) as folder:
            server = pgserver.get_server(Path(folder) / "data", cleanup_mode="stop")
            try:
                server.psql(THROWAWAY)
                yield server
            finally:
                server.cleanup()


def new_database(server) -> str:
    """The URL of a fresh, empty database on the server (pgvector available, not yet created)."""
    name = f"footnote_test_{next(_names)}"
    server.psql(f"CREATE DATABASE {name};")
    return server.get_uri(name)


@pytest.fixture
def pg_url(pg_server) -> str:
    """A fresh, empty database on the test server (pgvector available, not yet created)."""
    return new_database(pg_server)
