"""Start `streamlit run app.py` on a free loopback port for browser tests and benchmarks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import psutil

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
    """A TCP port nobody listens on right now (someone may by the time it is used: see serve)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serve(
    name: str,
    cmd_for_port: Callable[[int], Sequence[str]],
    log: Path,
    ready_path: str,
    *,
    timeout_s: float = 180,
    attempts: int = 3,
    **popen: object,
) -> Iterator[str]:
    """Run a server process on a free loopback port, its output in log; yield its base URL once
    ready_path answers 200 from this very process (Streamlit's health check answers 503 until it
    is ready); stop it afterwards. A port is picked before the server binds it, so another
    process may take it first: then the server exits saying so, and another port is tried."""
    for _ in range(attempts):
        port = free_port()
        with log.open("w") as out:
            proc = subprocess.Popen(cmd_for_port(port), stdout=out, stderr=subprocess.STDOUT, **popen)
        try:
            if _wait_ready(name, f"http://127.0.0.1:{port}{ready_path}", port, proc, log, timeout_s):
                yield f"http://127.0.0.1:{port}"
                return
        finally:
            _stop(proc)
    raise RuntimeError(f"{name} found its port taken {attempts} times:\n{log.read_text()[-3000:]}")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _wait_ready(name: str, url: str, port: int, proc: subprocess.Popen, log: Path, timeout_s: float) -> bool:
    """True once url answers 200 and proc is the one listening on port; False when proc exited
    because the port was taken; RuntimeError when it failed otherwise or never became ready."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            text = log.read_text()
            if "already in use" in text.lower():
                return False
            raise RuntimeError(f"{name} exited with {proc.returncode}:\n{text[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=10) as reply:
                if reply.status == 200 and _listens(proc.pid, port):
                    return True
        except OSError:  # not listening yet, or an HTTP error status
            pass
        time.sleep(0.2)  # polling a condition, with the deadline above
    raise RuntimeError(f"{name} did not become ready in {timeout_s} s:\n{log.read_text()[-3000:]}")


def _listens(pid: int, port: int) -> bool:
    """Whether process pid (or a child of it) is the one listening on the loopback port, so a
    200 came from our server and not from whoever else got the port first."""
    try:
        parent = psutil.Process(pid)
        procs = [parent, *parent.children(recursive=True)]
        return any(
            c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port
            for p in procs
            for c in p.net_connections(kind="tcp")
        )
    except psutil.Error:  # gone meanwhile
        return False


@contextmanager
def run_app(env: dict[str, str], log: Path, options: Sequence[str] = (), root: Path = ROOT) -> Iterator[str]:
    """Run the app with extra environment (FOOTNOTE_*) and Streamlit options (`--secrets.files`,
    ...); yield its base URL; stop it afterwards. root: the source tree to run (bench ui runs an
    earlier commit's copy beside this one)."""

    def command(port: int) -> list[str]:
        return [
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

    with serve("streamlit", command, log, "/_stcore/health", cwd=root, env={**os.environ, **env}) as url:
        yield url


def offline_env(data_dir: Path, chunk_size: int | None = 400, **extra: str) -> dict[str, str]:
    """The app's environment for a browser test that needs no model: the library in ``data_dir``,
    fake embeddings, the offline answerer, and (unless None) chunks of ``chunk_size`` characters
    without overlap; ``extra`` adds or overrides variables (FOOTNOTE_TRUSTED_USER_HEADER=...)."""
    env = {
        "FOOTNOTE_DATA_DIR": str(data_dir),
        "FOOTNOTE_EMBEDDING_PROVIDER": "fake",
        "FOOTNOTE_LLM_PROVIDER": "extractive",
    }
    if chunk_size is not None:
        env |= {"FOOTNOTE_CHUNK_SIZE": str(chunk_size), "FOOTNOTE_CHUNK_OVERLAP": "0"}
    return env | extra


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
