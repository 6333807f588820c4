"""The chat keeps answering while another process holds the library's write lock (an ingest or a
re-index on the Library page or the command line): it reads without the lock."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.pages.conftest import ROOT
from tests.pages.test_chat_page import _app, _ask, _payloads, _script_two_sources

HOLD = (
    "import sys; from filelock import FileLock; lock = FileLock(sys.argv[1]); lock.acquire(); "
    "print('held', flush=True); sys.stdin.readline()"
)


def test_the_chat_answers_while_a_writer_holds_the_lock(app_env: Path) -> None:
    _script_two_sources(app_env)  # opens the library as a writer: before the lock is taken
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(app_env / ".lock")],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        at = _app()
        _ask(at, "When does water boil?")
        [payload] = _payloads(at)
        assert re.findall(r'class="fn-ref" data-n="(\d)"', payload["html"]) == ["1", "2", "1"]
    finally:
        holder.communicate("\n", timeout=240)
