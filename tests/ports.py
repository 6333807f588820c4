"""Loopback ports for tests: one that is sure to refuse connections for as long as a test needs."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def refused_port() -> Iterator[int]:
    """A loopback port that refuses every connection while the block runs. The port is bound here
    and never listened on, so no other process can start listening on it meanwhile (a port that
    was merely free a moment ago may be taken by then, and answer)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]
