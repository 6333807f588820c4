"""The app's cached clients follow the settings: a new API key in secrets.toml builds a new client
on the next run, while unchanged settings reuse the cached one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from components.shared import resources
from settings import load_settings
from wiring import cache_key, chat_options

SECRETS = '[footnote]\nllm_provider = "openai"\nllm_model = "m1"\nllm_api_key = "{key}"\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No FOOTNOTE_* variables, an empty home, cwd = a fresh project folder with .streamlit/."""
    for name in [n for n in os.environ if n.startswith("FOOTNOTE_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / ".streamlit").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _secrets(project: Path, key: str) -> None:
    (project / ".streamlit" / "secrets.toml").write_text(SECRETS.format(key=key), encoding="utf-8")


def test_a_new_api_key_in_secrets_toml_builds_a_new_client(project: Path) -> None:
    _secrets(project, "sk-first-key")
    first, _label = resources.get_chat_model(load_settings())
    assert resources.get_chat_model(load_settings())[0] is first  # unchanged settings: cached
    _secrets(project, "sk-second-key")
    second, _label = resources.get_chat_model(load_settings())
    assert second is not first
    assert (first.openai_api_key.get_secret_value(), second.openai_api_key.get_secret_value()) == (
        "sk-first-key",
        "sk-second-key",
    )


def test_the_cache_key_counts_every_option_but_never_shows_the_key(project: Path) -> None:
    _secrets(project, "sk-secret-value")
    settings = load_settings()
    key = cache_key(chat_options(settings))
    assert "sk-secret-value" not in key and "sk-secret-value" not in repr(chat_options(settings))
    assert key != cache_key(chat_options(settings.model_copy(update={"llm_temperature": 0.5})))
    assert key == cache_key(chat_options(load_settings()))
