"""Settings: described fields, FOOTNOTE_ environment variables, secrets never printed."""

import pytest

from settings import Settings, load_settings


def test_every_field_is_described() -> None:
    missing = [name for name, f in Settings.model_fields.items() if not f.description]
    assert missing == []


def test_environment_and_overrides(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("FOOTNOTE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("FOOTNOTE_RETRIEVAL_K", "9")
    monkeypatch.setenv("FOOTNOTE_LLM_API_KEY", "sk-secret")
    s = load_settings(llm_provider="openai", llm_model=None)
    assert (s.data_dir, s.retrieval_k, s.llm_provider, s.llm_model) == (tmp_path, 9, "openai", "gpt-4o-mini")
    assert s.api_key() == "sk-secret"
    assert "sk-secret" not in repr(s)


def test_defaults_are_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(__import__("os").environ):
        if name.startswith("FOOTNOTE_"):
            monkeypatch.delenv(name)
    s = Settings()
    assert (s.embedding_provider, s.llm_provider) == ("local", "extractive")
    with pytest.raises(ValueError):
        Settings(retrieval_k=0)
