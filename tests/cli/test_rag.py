"""`python -m cli.rag ask` end to end in a subprocess, on a real library; model choice from settings."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli.rag import main
from rag.answering.scripted import ScriptedChatModel
from rag.offline.extractive import ExtractiveAnswerer
from settings import load_settings
from tests.openai_server import Error, ScriptedOpenAIServer, sse, stream
from tests.rag.conftest import ENGINES, GARDEN, make_pdf, open_hash_library
from wiring import make_chat_model

ROOT = Path(__file__).resolve().parents[2]
FOOTNOTE_KEYS = {
    "n",
    "kind",
    "matched",
    "short_id",
    "doc_id",
    "file",
    "title",
    "page_index",
    "page_label",
    "page_end_index",
    "char_start",
    "char_end",
    "text",
    "score",
    "ocr_confidence",
    "sections",
}


def run_cli(data_dir: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("FOOTNOTE_", "OPENAI_"))}
    environ.update(
        FOOTNOTE_EMBEDDING_PROVIDER="fake", FOOTNOTE_CHUNK_SIZE="400", FOOTNOTE_CHUNK_OVERLAP="60", **env
    )
    return subprocess.run(
        [sys.executable, "-m", "cli.rag", "ask", "--data-dir", str(data_dir), *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "lib"
    library = open_hash_library(path)
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    return path


def test_json_answer_has_the_documented_keys(data_dir: Path) -> None:
    done = run_cli(data_dir, "--json", "--k", "2", "When was the greenhouse built?")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) == {
        "answer",
        "unsupported",
        "closest",
        "footnotes",
        "unresolved",
        "retrieved",
        "metrics",
        "interrupted",
        "error",
        "documents",
        "flagged",
        "words_only",  # issue 21: documents searched by words only while their vectors are embedded
    }
    assert data["words_only"] == []
    assert "1987" in data["answer"] and data["unsupported"] is False and data["unresolved"] == []
    assert data["closest"] is False and data["interrupted"] is False and data["error"] is None
    footnote = data["footnotes"][0]
    assert set(footnote) == FOOTNOTE_KEYS
    assert (footnote["kind"], footnote["matched"], data["flagged"]) == ("cited", [], [])
    assert (footnote["n"], footnote["file"], footnote["page_index"], footnote["page_label"]) == (
        1,
        "garden.pdf",
        2,
        "3",
    )
    assert f"[{footnote['short_id']}]" in data["answer"]
    assert len(data["retrieved"]) == 2 and data["metrics"]["coverage"] == 1.0
    assert data["documents"] == [{"doc_id": footnote["doc_id"], "title": "Garden guide"}]


def test_terminal_answer_then_numbered_sources(data_dir: Path) -> None:
    done = run_cli(data_dir, "When was the greenhouse built?")
    assert done.returncode == 0, done.stderr
    assert "1987" in done.stdout and "Sources:" in done.stdout
    assert "[1] Garden guide (garden.pdf), page 3" in done.stdout
    assert "offline extractive mode" in done.stderr


def test_the_document_filter_takes_an_id_prefix(data_dir: Path) -> None:
    library = open_hash_library(data_dir)
    engines = next(d.doc_id for d in library.documents() if d.file_name == "engines.pdf")
    done = run_cli(data_dir, "--json", "--doc", engines[:12], "When was the greenhouse built?")
    data = json.loads(done.stdout)
    assert {e["doc_id"] for e in data["retrieved"]} == {engines}
    assert data["unsupported"] is True
    bad = run_cli(data_dir, "--doc", "ffffffffff", "When?")
    assert bad.returncode == 2 and "--doc ffffffffff matches no document" in bad.stderr


def test_an_empty_library_is_a_clear_error(tmp_path: Path) -> None:
    open_hash_library(tmp_path / "empty")
    done = run_cli(tmp_path / "empty", "Anything?")
    assert done.returncode == 2 and "is empty" in done.stderr and done.stdout == ""


def test_a_mistyped_data_dir_creates_nothing(tmp_path: Path) -> None:
    done = run_cli(tmp_path / "typo", "Anything?")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().startswith(f"error: no library at {tmp_path / 'typo'}")
    assert not (tmp_path / "typo").exists()


def test_a_model_failure_exits_non_zero_with_the_cause(data_dir: Path) -> None:
    with ScriptedOpenAIServer() as server:
        server.push(Error(401, "bad key"))
        done = run_cli(
            data_dir,
            "When was the greenhouse built?",
            FOOTNOTE_LLM_PROVIDER="openai",
            FOOTNOTE_LLM_BASE_URL=server.base_url,
            FOOTNOTE_LLM_API_KEY="sk-wrong",
        )
    assert done.returncode == 1
    assert "error: The model endpoint refused the API key (HTTP 401)" in done.stderr
    assert "sk-wrong" not in done.stderr + done.stdout


def test_make_chat_model_follows_the_provider_setting() -> None:
    model, label = make_chat_model(load_settings(llm_provider="extractive"))
    assert isinstance(model, ExtractiveAnswerer) and label == "offline extractive mode"
    assert isinstance(make_chat_model(load_settings(llm_provider="fake"))[0], ScriptedChatModel)
    chat, label = make_chat_model(
        load_settings(llm_provider="openai", llm_api_key="sk-x", llm_model="m1", llm_max_tokens=99)
    )
    assert label == "m1 at OpenAI"
    assert chat.max_retries == 0 and chat.streaming and chat.max_tokens == 99 and not chat.extra_body


def run_against(data_dir: Path, *replies, args: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """rag ask with the openai provider pointed at a scripted server that sends these replies."""
    with ScriptedOpenAIServer() as server:
        server.push(*replies)
        return run_cli(
            data_dir,
            *args,
            "When was the greenhouse built?",
            FOOTNOTE_LLM_PROVIDER="openai",
            FOOTNOTE_LLM_BASE_URL=server.base_url,
            FOOTNOTE_LLM_API_KEY="sk-test",
            FOOTNOTE_LLM_RETRIES="0",
        )


def test_a_cut_off_answer_is_marked_in_the_json(data_dir: Path) -> None:
    cut = stream("The greenhouse ", "was built in 1987", drop="close")
    done = run_against(data_dir, cut, args=("--json",))
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert data["answer"] == "The greenhouse was built in 1987" and data["interrupted"] is True
    assert "broke off after 32 characters" in data["error"]
    assert done.stderr.strip() == f"error: {data['error']}"


def test_an_empty_stream_exits_1_saying_the_model_returned_nothing(data_dir: Path) -> None:
    done = run_against(data_dir, stream(), args=("--json",))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == "error: The model returned nothing (an empty answer)."


def test_a_reply_in_the_wrong_shape_is_one_error_line_without_warnings(data_dir: Path) -> None:
    chunk = {
        "id": 5,
        "object": "chat.completion.chunk",
        "created": "yesterday",
        "model": "m",
        "choices": [{"index": 0, "delta": {"content": "Built in 1987."}, "finish_reason": "stop"}],
    }
    done = run_against(data_dir, sse(chunk))
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("(gpt-4o-mini at ")
    assert lines[1].startswith("error: The model endpoint's reply is not in the OpenAI chat-completion")
    assert "Pydantic" not in done.stderr and "Warning" not in done.stderr


@pytest.mark.parametrize("question", ["", "   ", "\t\n"])
def test_an_empty_question_is_a_usage_error(question: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert main(["ask", "--data-dir", "/nonexistent", question], out, err) == 2
    assert err.getvalue().startswith("error: the question is empty") and out.getvalue() == ""


@pytest.mark.parametrize(
    ("env", "args", "expected"),
    [
        ({"FOOTNOTE_LLM_DEADLINE_S": "soon"}, (), "error: FOOTNOTE_LLM_DEADLINE_S='soon' is not valid: "),
        (
            {"FOOTNOTE_LLM_RETRY_AFTER_CAP_S": "-1"},
            (),
            "error: FOOTNOTE_LLM_RETRY_AFTER_CAP_S='-1' is not valid: "
            "Input should be greater than or equal to 0.",
        ),
        ({}, ("--k", "0"), "error: --k=0 is not valid: Input should be greater than or equal to 1."),
    ],
)
def test_an_invalid_setting_is_one_sentence_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str], args: tuple, expected: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    out, err = io.StringIO(), io.StringIO()
    assert main(["ask", "--data-dir", str(tmp_path), *args, "When?"], out, err) == 2
    assert err.getvalue().startswith(expected) and err.getvalue().count("\n") == 1
    assert list(tmp_path.iterdir()) == []  # nothing was opened or created
