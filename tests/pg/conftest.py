"""Team-mode tests: the server fixtures live in tests/pg/fixtures.py (registered suite-wide)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest import pg_connect


@pytest.fixture(autouse=True)
def _fresh_pools() -> Iterator[None]:
    """Each test's pooled connections are closed after it: every test has a database of its own,
    and idle pools left behind would add up to the server's max_connections."""
    yield
    pg_connect.close_pools()
