"""python -m cli.ingest: one line or JSON object per file, and the exit statuses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.ingest.pdfs import PARAGRAPH, make_image_pdf, make_pdf, rewrite
from tests.ports import refused_port

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    environ = os.environ | {"FOOTNOTE_EMBEDDING_PROVIDER": "fake"} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "cli.ingest", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _files(tmp_path: Path) -> Path:
    folder = tmp_path / "in" / "nested"
    folder.mkdir(parents=True)
    (folder / "good.pdf").write_bytes(make_pdf([PARAGRAPH * 3], title="Good"))
    (folder / "LOUD.PDF").write_bytes(make_pdf(["Another document entirely."]))
    (folder / "notes.txt").write_text("not picked up from folders")
    return tmp_path / "in"


def test_folder_is_ingested_recursively_then_skipped(tmp_path: Path) -> None:
    folder, data = _files(tmp_path), tmp_path / "data"
    first = run("--data-dir", str(data), str(folder))
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("ok ") for line in lines)
    assert "good.pdf  (1 pages, " in first.stdout
    again = run("--data-dir", str(data), "--json", str(folder))
    records = [json.loads(line) for line in again.stdout.splitlines()]
    assert again.returncode == 0 and [r["status"] for r in records] == ["skipped", "skipped"]
    assert set(records[0]) >= {"file", "status", "doc_id", "pages", "chunks", "error"}


def test_one_bad_file_fails_the_run_but_not_the_others(tmp_path: Path) -> None:
    scan, good = tmp_path / "scan.pdf", tmp_path / "good.pdf"
    scan.write_bytes(make_image_pdf())
    good.write_bytes(make_pdf(["Fine text here."]))
    done = run(
        "--data-dir", str(tmp_path / "data"), "--json", str(scan), str(tmp_path / "missing.pdf"), str(good)
    )
    assert done.returncode == 1
    records = {Path(r["file"]).name: r for r in map(json.loads, done.stdout.splitlines())}
    assert records["scan.pdf"]["status"] == "error" and "no text layer" in records["scan.pdf"]["error"]
    assert records["missing.pdf"]["error"].startswith("missing.pdf: cannot be read")
    assert records["good.pdf"]["status"] == "ok" and records["good.pdf"]["chunks"] == 1


def test_password_option(tmp_path: Path) -> None:
    locked = tmp_path / "locked.pdf"
    locked.write_bytes(rewrite(make_pdf(["Secret harbour plans."]), user_password="pw"))
    refused = run("--data-dir", str(tmp_path / "d"), str(locked))
    assert refused.returncode == 1 and "password-protected" in refused.stdout
    accepted = run("--data-dir", str(tmp_path / "d"), "--password", "pw", str(locked))
    assert accepted.returncode == 0 and accepted.stdout.startswith("ok ")


def test_usage_errors_and_reindex(tmp_path: Path) -> None:
    assert run().returncode == 2
    assert run("--no-such-flag", "x.pdf").returncode == 2
    good = tmp_path / "good.pdf"
    good.write_bytes(make_pdf([PARAGRAPH * 4]))
    assert run("--data-dir", str(tmp_path / "d"), str(good)).returncode == 0
    changed = {"FOOTNOTE_CHUNK_SIZE": "300"}
    refused = run("--data-dir", str(tmp_path / "d"), str(good), env=changed)
    assert refused.returncode == 1 and "re-index" in refused.stderr
    reindexed = run("--data-dir", str(tmp_path / "d"), "--reindex", env=changed)
    assert reindexed.returncode == 0 and "re-indexed" in reindexed.stderr
    assert run("--data-dir", str(tmp_path / "d"), str(good), env=changed).stdout.startswith("skipped ")


def test_an_embeddings_endpoint_that_is_down_is_an_error_line_not_a_traceback(tmp_path: Path) -> None:
    good = tmp_path / "good.pdf"
    good.write_bytes(make_pdf([PARAGRAPH]))
    with refused_port() as port:
        env = {
            "FOOTNOTE_EMBEDDING_PROVIDER": "openai",
            "FOOTNOTE_LLM_BASE_URL": f"http://127.0.0.1:{port}/v1",
            "FOOTNOTE_LLM_API_KEY": "sk-test",
            "FOOTNOTE_LLM_RETRIES": "0",
            "FOOTNOTE_LLM_TIMEOUT_S": "60",
        }
        done = run("--data-dir", str(tmp_path / "data"), str(good), env=env)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stdout.startswith("error ") and "good.pdf: could not be embedded" in done.stdout
    assert "the embedding endpoint could not be reached" in done.stdout
    assert "APIConnectionError" not in done.stdout  # the cause in words, not a class name


def _one_line_error(done: subprocess.CompletedProcess, status: int) -> str:
    assert done.returncode == status and "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    return lines[0]


def test_a_data_dir_that_is_a_file_and_a_bad_setting_are_usage_errors(tmp_path: Path) -> None:
    good = tmp_path / "good.pdf"
    good.write_bytes(make_pdf([PARAGRAPH]))
    (tmp_path / "afile").write_text("not a folder")
    line = _one_line_error(run("--data-dir", str(tmp_path / "afile"), str(good)), 2)
    assert f"{tmp_path / 'afile'} is a file, not a folder" in line
    line = _one_line_error(
        run("--data-dir", str(tmp_path / "d"), str(good), env={"FOOTNOTE_CHUNK_SIZE": "abc"}), 2
    )
    assert "FOOTNOTE_CHUNK_SIZE='abc'" in line and "integer" in line
    assert not (tmp_path / "d").exists()


def test_a_folder_without_pdfs_says_so(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "notes.txt").write_text("no PDFs here")
    line = _one_line_error(run("--data-dir", str(tmp_path / "d"), str(tmp_path / "in")), 1)
    assert line == f"error: no PDFs found in {tmp_path / 'in'}"
    assert not (tmp_path / "d").exists()


def test_a_lost_database_is_one_sentence_and_recover_brings_it_back(tmp_path: Path) -> None:
    folder, data = _files(tmp_path), tmp_path / "data"
    assert run("--data-dir", str(data), str(folder)).returncode == 0
    (data / "library.sqlite3").unlink()
    line = _one_line_error(run("--data-dir", str(data), str(folder)), 1)
    assert (
        f"python -m cli.ingest recover --data-dir {data}" in line
        and len(list((data / "files").iterdir())) == 2
    )
    recovered = run("recover", "--data-dir", str(data))
    assert recovered.returncode == 0, recovered.stderr
    assert recovered.stdout.startswith("Recovered 2 documents")
    assert "original file names were lost" in recovered.stdout
    again = run("--data-dir", str(data), "--json", str(folder))
    assert [json.loads(r)["status"] for r in again.stdout.splitlines()] == ["skipped", "skipped"]
    line = _one_line_error(run("recover", "--data-dir", str(data)), 1)
    assert "nothing to recover" in line


def test_check_repairs_and_a_busy_library_is_one_sentence(tmp_path: Path) -> None:
    good, data = tmp_path / "good.pdf", tmp_path / "data"
    good.write_bytes(make_pdf([PARAGRAPH * 4]))
    assert run("--data-dir", str(data), str(good)).returncode == 0
    (data / "index.faiss").unlink()
    checked = run("--data-dir", str(data), "--check")
    assert checked.returncode == 0 and "Re-embedded" in checked.stderr and "checked " in checked.stderr
    from filelock import FileLock

    with FileLock(data / ".lock"):  # held by this process; the CLI is another one
        line = _one_line_error(run("--data-dir", str(data), "--lock-timeout", "0.05", str(good)), 1)
    assert (
        line
        == f"error: {data}: the library is busy (another ingest is running); try again when it has finished"
    )
