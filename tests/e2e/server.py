"""Start `streamlit run app.py` on a free loopback port for browser tests and benchmarks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serve(
    name: str, cmd: Sequence[str], log: Path, ready_url: str, *, timeout_s: float = 60, **popen: object
) -> Iterator[subprocess.Popen]:
    """Run a server process, its output in log; yield it once ready_url answers 200 (Streamlit's
    health check answers 503 until it is ready); stop it afterwards. name is what errors call it."""
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, **popen)
    try:
        _wait_ready(name, ready_url, proc, log, timeout_s)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_ready(name: str, url: str, proc: subprocess.Popen, log: Path, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:  # not listening yet, or an HTTP error status
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{name} did not become ready in {timeout_s} s:\n{log.read_text()[-3000:]}")


@contextmanager
def run_app(env: dict[str, str], log: Path, options: Sequence[str] = (), root: Path = ROOT) -> Iterator[str]:
    """Run the app with extra environment (FOOTNOTE_*) and Streamlit options (`--secrets.files`,
    ...); yield its base URL; stop it afterwards. root: the source tree to run (bench ui runs an
    earlier commit's copy beside this one)."""
    port = free_port()
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(root / "app.py"),
        "--server.headless",
        "true",
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(port),
        "--server.fileWatcherType",
        "none",
        "--browser.gatherUsageStats",
        "false",
        *options,
    ]
    url = f"http://127.0.0.1:{port}"
    with serve("streamlit", cmd, log, f"{url}/_stcore/health", cwd=root, env={**os.environ, **env}):
        yield url


def scripted_env(data_dir: Path, base_url: str) -> dict[str, str]:
    """Settings for an app on fake embeddings and small chunks that answers through a scripted
    OpenAI-compatible server at base_url (no retries, so a scripted fault shows at once)."""
    return {
        "FOOTNOTE_DATA_DIR": str(data_dir),
        "FOOTNOTE_EMBEDDING_PROVIDER": "fake",
        "FOOTNOTE_CHUNK_SIZE": "180",
        "FOOTNOTE_CHUNK_OVERLAP": "0",
        "FOOTNOTE_LLM_PROVIDER": "openai",
        "FOOTNOTE_LLM_BASE_URL": base_url,
        "FOOTNOTE_LLM_API_KEY": "sk-test",
        "FOOTNOTE_LLM_MODEL": "scripted-model",
        "FOOTNOTE_LLM_RETRIES": "0",
    }
