"""Suite-wide rules: no network beyond loopback; the real corpus is required in CI."""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
REQUIRE_CORPUS = os.environ.get("FOOTNOTE_REQUIRE_CORPUS") == "1"

_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address: object) -> object:
    if self.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple):
        host = address[0]
        try:
            ok = host == "localhost" or ipaddress.ip_address(host).is_loopback
        except ValueError:
            ok = False
        if not ok:
            raise OSError(f"tests may only use loopback, not {address!r}")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket.socket, "connect", _loopback_only)


@pytest.fixture(scope="session")
def corpus() -> Path:
    """../shared/corpus: skipped when absent, a failure when FOOTNOTE_REQUIRE_CORPUS=1 (CI)."""
    if not CORPUS.is_dir():
        if REQUIRE_CORPUS:
            pytest.fail(f"FOOTNOTE_REQUIRE_CORPUS=1 but the corpus is missing at {CORPUS}")
        pytest.skip(f"no corpus at {CORPUS}")
    return CORPUS
