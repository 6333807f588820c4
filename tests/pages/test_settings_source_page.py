"""The app reads .streamlit/secrets.toml through the same settings source as the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.conftest import ROOT
from tests.test_settings_secrets import write_secrets

UNUSED_URL = "http://127.0.0.1:9/v1"  # never called: the page only shows which model would answer


def _caption(at: AppTest) -> str:
    at.run()
    assert not at.exception, at.exception
    return " ".join(c.value for c in at.caption).replace("\\", "")  # markdown escapes


def test_chat_page_names_the_model_from_secrets_then_from_env(
    app_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("FOOTNOTE_LLM_PROVIDER")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    project = tmp_path / "project"
    write_secrets(
        project,
        f'[footnote]\nllm_provider = "openai"\nllm_model = "model-from-secrets"\n'
        f'llm_base_url = "{UNUSED_URL}"\nllm_api_key = "sk-test"\n',
    )
    monkeypatch.chdir(project)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    assert "model-from-secrets" in _caption(at)
    monkeypatch.setenv("FOOTNOTE_LLM_MODEL", "model-from-env")
    caption = _caption(AppTest.from_file(str(ROOT / "app.py"), default_timeout=60))
    assert "model-from-env" in caption and "model-from-secrets" not in caption
