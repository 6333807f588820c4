"""One settings source: .streamlit/secrets.toml is read by pydantic-settings for the CLI and the
app alike; explicit values beat FOOTNOTE_* variables, which beat secrets.toml, which beats defaults."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from settings import load_settings
from tests.openai_server import ScriptedOpenAIServer, stream
from tests.rag.conftest import GARDEN, make_pdf, open_hash_library

ROOT = Path(__file__).resolve().parent.parent


def write_secrets(folder: Path, body: str) -> None:
    """A project secrets.toml under folder/.streamlit, in the format the example documents."""
    (folder / ".streamlit").mkdir(parents=True, exist_ok=True)
    (folder / ".streamlit" / "secrets.toml").write_text(body, encoding="utf-8")


@pytest.fixture
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No FOOTNOTE_* variables, an empty home (no user secrets.toml), cwd = a fresh project folder."""
    for name in [n for n in os.environ if n.startswith("FOOTNOTE_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    return project


def test_precedence_overrides_env_secrets_defaults(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings().llm_model == "gpt-4o-mini"  # the default, no file yet
    write_secrets(
        clean_env,
        '[footnote]\nllm_provider = "openai"\nllm_model = "model-from-secrets"\n'
        'llm_api_key = "sk-from-secrets"\nretrieval_k = 9\n[other_app]\ntoken = "x"\n',
    )
    s = load_settings()
    assert (s.llm_provider, s.llm_model, s.retrieval_k, s.api_key()) == (
        "openai",
        "model-from-secrets",
        9,
        "sk-from-secrets",
    )
    monkeypatch.setenv("FOOTNOTE_LLM_MODEL", "model-from-env")
    assert load_settings().llm_model == "model-from-env"
    assert load_settings(llm_model="model-explicit").llm_model == "model-explicit"
    assert load_settings(llm_model=None).llm_model == "model-from-env"  # None: not given


def test_user_file_under_project_file(clean_env: Path, tmp_path: Path) -> None:
    write_secrets(tmp_path / "home", '[footnote]\nllm_model = "user-model"\nretrieval_k = 3\n')
    assert (load_settings().llm_model, load_settings().retrieval_k) == ("user-model", 3)
    write_secrets(clean_env, '[footnote]\nllm_model = "project-model"\n')
    assert (load_settings().llm_model, load_settings().retrieval_k) == ("project-model", 3)


def test_a_file_without_the_table_is_ignored_and_a_broken_one_is_named(clean_env: Path) -> None:
    write_secrets(clean_env, '[other_app]\nllm_model = "not ours"\n')
    assert load_settings().llm_model == "gpt-4o-mini"
    write_secrets(clean_env, "[footnote\nllm_model = 1\n")
    with pytest.raises(ValueError, match=r"secrets\.toml is not valid TOML"):
        load_settings()
    write_secrets(clean_env, 'footnote = "gpt-4o"\n')
    with pytest.raises(ValueError, match=r"secrets\.toml: \[footnote\] must be a table"):
        load_settings()


def _ask(project: Path, data_dir: Path, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("FOOTNOTE_", "OPENAI_"))}
    environ.update(
        PYTHONPATH=str(ROOT),
        FOOTNOTE_EMBEDDING_PROVIDER="fake",
        FOOTNOTE_CHUNK_SIZE="400",
        FOOTNOTE_CHUNK_OVERLAP="60",
        **env,
    )
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "cli.rag",
            "ask",
            "--data-dir",
            str(data_dir),
            "--json",
            "When was the greenhouse built?",
        ],
        cwd=project,
        env=environ,
        capture_output=True,
        check=False,
        text=True,
        timeout=120,
    )


def test_cli_asks_the_model_named_in_secrets_unless_env_says_otherwise(
    clean_env: Path, tmp_path: Path
) -> None:
    data_dir = tmp_path / "lib"
    open_hash_library(data_dir).add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    with ScriptedOpenAIServer() as server:
        write_secrets(
            clean_env,
            f'[footnote]\nllm_provider = "openai"\nllm_model = "model-from-secrets"\n'
            f'llm_base_url = "{server.base_url}"\nllm_api_key = "sk-test"\n',
        )
        server.push(stream("Built in 1987."), stream("Built in 1987."))
        first = _ask(clean_env, data_dir, HOME=str(tmp_path / "home"))
        second = _ask(clean_env, data_dir, HOME=str(tmp_path / "home"), FOOTNOTE_LLM_MODEL="model-from-env")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    asked = [r["body"]["model"] for r in server.requests if r["path"].endswith("/chat/completions")]
    assert asked == ["model-from-secrets", "model-from-env"]
