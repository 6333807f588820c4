"""Suite-wide rules: no network beyond loopback; the real corpus is required in CI; property tests
are derandomized in CI (same examples every run) and explore freely elsewhere; the suite's own
PostgreSQL (tests/pg/fixtures.py) for any test that asks for it."""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.pg.fixtures import pg_server, pg_url  # noqa: F401 (fixtures for the whole suite)

ROOT = Path(__file__).resolve().parent.parent
# ../shared/corpus beside the checkout, or FOOTNOTE_CORPUS (a git worktree elsewhere).
CORPUS = Path(os.environ.get("FOOTNOTE_CORPUS") or ROOT.parent / "shared" / "corpus")
REQUIRE_CORPUS = os.environ.get("FOOTNOTE_REQUIRE_CORPUS") == "1"

# CI must never fail by chance: a fixed seed per test (derived from its code), no example database
# carried between runs, and a fixed budget for tests that do not set their own max_examples.
# Both start from Hypothesis' "default": its own import already loads its "ci" profile when it
# sees CI, and a profile registered then would inherit derandomize from it.
settings.register_profile(
    "ci",
    settings.get_profile("default"),
    derandomize=True,
    database=None,
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", settings.get_profile("default"), deadline=None)


def hypothesis_profile(environ: Mapping[str, str]) -> str:
    """The profile for this environment: "ci" when CI is set (CI runs .ci/run with CI=true)."""
    return "ci" if environ.get("CI", "").strip().lower() not in ("", "0", "false", "no") else "dev"


# Loaded here, before any test module is imported: @settings(...) on a test inherits from the
# profile that is current when the decorator runs.
settings.load_profile(hypothesis_profile(os.environ))

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


@pytest.fixture(autouse=True)
def _no_pools_left() -> Iterator[None]:
    """PostgreSQL pools a test opened in this process are closed after it, wherever it lives, so
    no test starts with connections (or a pool's background threads) that an earlier one left."""
    yield
    pg_connect = sys.modules.get("ingest.team.connect")  # never imported just for this
    if pg_connect is not None:
        pg_connect.close_pools()


@pytest.fixture(scope="session")
def corpus() -> Path:
    """../shared/corpus: skipped when absent, a failure when FOOTNOTE_REQUIRE_CORPUS=1 (CI)."""
    if not CORPUS.is_dir():
        if REQUIRE_CORPUS:
            pytest.fail(f"FOOTNOTE_REQUIRE_CORPUS=1 but the corpus is missing at {CORPUS}")
        pytest.skip(f"no corpus at {CORPUS}")
    return CORPUS
