"""Settings: described fields, FOOTNOTE_ environment variables, secrets never printed."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from settings import Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent


def test_every_field_is_described() -> None:
    missing = [name for name, f in Settings.model_fields.items() if not f.description]
    assert missing == []


def _readme_settings() -> dict[str, str]:
    """The README's settings table: each FOOTNOTE_ name and its default as written."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return dict(re.findall(r"^\| `FOOTNOTE_(\w+)` \| ([^|]+?) \|", text, re.MULTILINE))


def _same_default(written: str, default: object) -> bool:
    if written == "unset":
        return default is None
    value = written.strip("`")
    if isinstance(default, int | float) and not isinstance(default, bool):
        return float(value) == default
    return value == str(default)


def test_the_readme_lists_every_setting_with_its_default() -> None:
    table = _readme_settings()
    fields = {
        name.upper(): f
        for name, f in Settings.model_fields.items()
        if not (f.description or "").startswith("Tests only")
    }
    assert sorted(table) == sorted(fields)
    wrong = [name for name, f in fields.items() if not _same_default(table[name], f.default)]
    assert wrong == []


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


OPTIONAL = sorted(name for name, f in Settings.model_fields.items() if f.default is None)
REQUIRED_WITH_DEFAULTS = sorted(name for name, f in Settings.model_fields.items() if f.default is not None)


@pytest.fixture
def no_footnote_env(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """No FOOTNOTE_* or OPENAI_* variables, no secrets.toml (empty home, empty project folder)."""
    for name in [n for n in os.environ if n.startswith(("FOOTNOTE_", "OPENAI_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)


def test_the_optional_settings_are_the_ones_we_know() -> None:
    assert OPTIONAL == [
        "database_url",
        "fake_embed_gate",
        "llm_api_key",
        "llm_base_url",
        "ocr_data_dir",
        "trusted_user_header",
    ]


@pytest.mark.parametrize("blank", ["", "  "], ids=["empty", "spaces"])
@pytest.mark.parametrize("name", OPTIONAL)
def test_a_blank_optional_setting_is_unset(
    no_footnote_env: None, monkeypatch: pytest.MonkeyPatch, name: str, blank: str
) -> None:
    monkeypatch.setenv(f"FOOTNOTE_{name.upper()}", blank)
    assert getattr(load_settings(), name) is None


@pytest.mark.parametrize("name", REQUIRED_WITH_DEFAULTS)
def test_an_empty_variable_means_the_default(
    no_footnote_env: None, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.setenv(f"FOOTNOTE_{name.upper()}", "")
    assert getattr(load_settings(), name) == Settings.model_fields[name].default


def test_a_blank_value_in_secrets_toml_is_unset_too(no_footnote_env: None, tmp_path) -> None:
    (tmp_path / ".streamlit").mkdir()
    (tmp_path / ".streamlit" / "secrets.toml").write_text(
        '[footnote]\ndatabase_url = ""\nllm_base_url = " "\n', encoding="utf-8"
    )
    s = load_settings()
    assert s.database_url is None and s.llm_base_url is None


def test_an_empty_openai_api_key_is_no_key(no_footnote_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "")
    monkeypatch.setenv("FOOTNOTE_LLM_API_KEY", "")
    assert load_settings().api_key() is None


def test_ingest_with_an_empty_database_url_uses_the_local_library(tmp_path) -> None:
    """FOOTNOTE_DATABASE_URL= is how compose and .env files switch team mode off."""
    from tests.ingest.pdfs import PARAGRAPH, make_pdf

    pdf = tmp_path / "guide.pdf"
    pdf.write_bytes(make_pdf([PARAGRAPH]))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOOTNOTE_", "OPENAI_"))}
    env |= {"FOOTNOTE_DATABASE_URL": "", "FOOTNOTE_EMBEDDING_PROVIDER": "fake", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "cli.ingest", "--data-dir", str(tmp_path / "data"), str(pdf)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ") and "PostgreSQL" not in done.stderr
    assert (tmp_path / "data" / "library.sqlite3").is_file()
