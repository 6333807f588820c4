"""Property tests are reproducible in CI: the "ci" profile is chosen there and draws the same
examples on every run."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import hypothesis_profile


@pytest.mark.parametrize(
    "environ, expected",
    [({"CI": "true"}, "ci"), ({"CI": "1"}, "ci"), ({}, "dev"), ({"CI": ""}, "dev"), ({"CI": "false"}, "dev")],
)
def test_ci_environment_selects_the_ci_profile(environ: dict[str, str], expected: str) -> None:
    assert hypothesis_profile(environ) == expected


def test_the_profile_this_environment_selects_is_loaded_here() -> None:
    # In the process running the tests: each pytest-xdist worker imports tests/conftest.py itself.
    loaded = hypothesis_profile(os.environ)
    assert settings.get_current_profile_name() == loaded
    assert settings().derandomize is (loaded == "ci")
    assert (settings().database is None) is (loaded == "ci")


def _drawn(profile: str) -> list[str]:
    seen: list[str] = []

    @settings(settings.get_profile(profile), max_examples=25)
    @given(st.text(max_size=12))
    def record(text: str) -> None:
        seen.append(text)

    record()
    return seen


def test_ci_profile_draws_the_same_examples_every_run() -> None:
    assert _drawn("ci") == _drawn("ci")


def test_dev_profile_may_explore() -> None:
    assert _drawn("dev") != _drawn("dev")
