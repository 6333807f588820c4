"""Fast reopen in a real browser: the app answers from the BM25 index and document profiles that an
earlier process (`python -m cli.rag ask`) saved with the library, and builds neither again.

The proof is what the product leaves behind, not a timing: the app's process memory-maps the saved
index's arrays (rag/retrieval/lexical_store.py loads them with mmap), and the saved files are the very same
files afterwards (same inode and modification time): a rebuild writes a new folder and a new file in
their place, since the data dir is writable.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rag.retrieval import lexical_store
from rag.retrieval.filings import profile_store
from rag.stores.conversations import ConversationStore
from tests.e2e.conftest import FOOTNOTE, ask, wait_idle
from tests.e2e.documents import GUIDE_QUESTION, guide_pdf, hostile_pdf
from tests.e2e.server import ROOT, run_app
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
ENV = {
    "FOOTNOTE_EMBEDDING_PROVIDER": "fake",
    "FOOTNOTE_LLM_PROVIDER": "extractive",
    "FOOTNOTE_CHUNK_SIZE": "400",
    "FOOTNOTE_CHUNK_OVERLAP": "0",
}


def _identity(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Each saved file under folder: (inode, modification time in ns, size)."""
    return {
        str(p.relative_to(folder)): (p.stat().st_ino, p.stat().st_mtime_ns, p.stat().st_size)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _mapped_by_a_process(path: Path) -> bool:
    """Whether some running process has this file memory-mapped (its /proc/PID/maps names it)."""
    wanted = str(path.resolve())
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            maps = (proc / "maps").read_text()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if any(line.endswith(wanted) for line in maps.splitlines()):
            return True
    return False


@pytest.fixture(scope="module")
def saved_library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, int]]:
    """A library whose BM25 index and profiles a `python -m cli.rag ask` run saved before the app starts."""
    root = tmp_path_factory.mktemp("reopen_e2e")
    data_dir = root / "data"
    library = build_library(
        data_dir, [("guide.pdf", guide_pdf()), ("hostile.pdf", hostile_pdf())], chunk_size=400
    )
    generation = library.generation
    assert not (data_dir / lexical_store.FOLDER).exists() and not (data_dir / profile_store.FOLDER).exists()
    earlier = subprocess.run(
        [sys.executable, "-m", "cli.rag", "ask", "--data-dir", str(data_dir), "--json", GUIDE_QUESTION],
        cwd=ROOT,
        env={**os.environ, **ENV, "FOOTNOTE_DATA_DIR": str(data_dir)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert earlier.returncode == 0, earlier.stderr[-2000:]
    assert json.loads(earlier.stdout)["footnotes"], earlier.stdout[-2000:]
    yield data_dir, generation


def test_the_app_answers_from_the_index_and_profiles_an_earlier_process_saved(
    saved_library: tuple[Path, int], page: Page, tmp_path: Path
) -> None:
    data_dir, generation = saved_library
    index_folder = lexical_store.folder_for(data_dir, generation)
    profiles = profile_store.path_for(data_dir, generation)
    assert (index_folder / lexical_store.META).is_file() and profiles.is_file()
    arrays = sorted(index_folder.glob("*.npy"))
    assert arrays and not any(_mapped_by_a_process(a) for a in arrays)  # nobody holds them yet
    before = {"index": _identity(index_folder), "profiles": _identity(profiles.parent)}

    with run_app({**ENV, "FOOTNOTE_DATA_DIR": str(data_dir)}, tmp_path / "streamlit.log") as url:
        page.goto(url)
        wait_idle(page)
        ask(page, GUIDE_QUESTION)
        expect(page.locator(FOOTNOTE).first).to_be_visible()
        conv = page.url.split("conv=", 1)[1].split("&", 1)[0]
        answer = ConversationStore(data_dir / "conversations.sqlite3").turns(conv)[-1].answer
        assert answer.footnotes and "boiling point of water" in answer.text
        # The app's process reads the saved arrays through memory maps: it loaded them, not built.
        assert all(_mapped_by_a_process(a) for a in arrays), [a.name for a in arrays]

    after = {"index": _identity(index_folder), "profiles": _identity(profiles.parent)}
    assert after == before  # nothing rebuilt and saved over them, no other generation written
    # the chunks' kept BM25 terms (rag.retrieval.lexical_terms) are a cache beside the generations
    folders = [p.name for p in (data_dir / lexical_store.FOLDER).iterdir() if p.is_dir()]
    assert folders == [str(generation)]
