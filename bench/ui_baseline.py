"""The code `bench ui` compares the chat page with: a copy of an earlier commit, extracted with
`git archive` into a temporary folder and run with the same interpreter, beside today's tree."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

from bench.common import ROOT

# The chat page before issue 27 (a footnote click reran the whole script and re-sent every saved
# turn): the commit the figures were measured on.
BASELINE_COMMIT = "02c0a5909d4cd4047497b19dbe9b78198a46392d"


def extract_tree(commit: str, dest: Path) -> Path:
    """The files of `commit` (tracked files only, no .venv, no data) under dest."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit],
        capture_output=True,
        check=True,
        timeout=120,
    ).stdout
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def short(commit: str) -> str:
    """A commit's abbreviated hash, as git prints it."""
    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", commit], capture_output=True, text=True, check=False
    )
    return found.stdout.strip() or commit[:7]


# Run in a child process whose working folder is the tree to measure, so it imports that tree's
# app and components: seconds per full script run with the panel open on the last turn's first
# footnote (AppTest, in process, as `streamlit run` would run it on a reload or a new question).
_SCRIPT_TIMES = """
import json, os, sys, time
from streamlit.testing.v1 import AppTest
try:
    from components.shared import state
except ImportError:  # the baseline's layout, before issue 41 grouped components/ by page
    from components import state
try:
    from rag.stores.conversations import ConversationStore
except ImportError:  # the baseline's layout, before issue 24 moved the store
    from rag.conversations import ConversationStore

data_dir, conv_id, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
last = ConversationStore(data_dir + "/conversations.sqlite3").turns(conv_id)[-1]
at = AppTest.from_file("app.py", default_timeout=120)
at.query_params["conv"] = conv_id
at.run()
at.session_state[state.SELECTION] = (last.turn_id, 1)
at.run()
times = []
for _ in range(runs):
    started = time.perf_counter()
    at.run()
    times.append(time.perf_counter() - started)
assert not at.exception, at.exception
print(json.dumps(times), flush=True)
os._exit(0)  # the embedding model's native threads abort a normal interpreter exit
"""


def script_times(tree: Path, env: dict[str, str], data_dir: Path, conv_id: str, runs: int) -> list[float]:
    """Seconds per full script run of the tree's chat page (see _SCRIPT_TIMES)."""
    return run_in_tree(tree, _SCRIPT_TIMES, [str(data_dir), conv_id, str(runs)], env, 600, "script timing")


def run_in_tree(
    tree: Path, script: str, args: list[str], env: dict[str, str], timeout: float, what: str
) -> Any:
    """A Python script run with the tree as its working folder (it imports that tree's code); the
    JSON of the last line it prints. Raises with the end of its stderr when it fails."""
    proc = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"{what} in {tree} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])
