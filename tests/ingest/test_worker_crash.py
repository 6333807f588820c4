"""Real worker processes killed mid-job (SIGKILL), then started again: each document ends up in the
library once, consistent (rows = vectors), and its job done; the other jobs carry on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ingest.pdfs import long_pages, make_pdf
from tests.ingest.test_jobs import LONG, assert_consistent, wait_for
from tests.ingest.test_library import open_library

ROOT = Path(__file__).resolve().parents[2]
OTHER = make_pdf(long_pages(3, words="Bees dance to tell the hive where the clover grows. "), title="Bees")


def _worker(data_dir: Path, gate: Path) -> subprocess.Popen:
    """``python -m cli.ingest worker`` on the test library's settings, its embedding held at ``gate``,
    one job at a time (so the second job is still queued when the first is killed)."""
    env = os.environ | {
        "FOOTNOTE_DATA_DIR": str(data_dir),
        "FOOTNOTE_EMBEDDING_PROVIDER": "fake",
        "FOOTNOTE_FAKE_EMBED_GATE": str(gate),
        "FOOTNOTE_CHUNK_SIZE": "300",
        "FOOTNOTE_CHUNK_OVERLAP": "30",
        "FOOTNOTE_EMBED_BATCH_SIZE": "4",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "cli.ingest", "worker", "--until-idle", "--jobs", "1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _ended_once(data_dir: Path, jobs) -> None:
    library = open_library(data_dir)
    assert sorted(d.file_name for d in library.documents()) == ["bees.pdf", "long.pdf"]
    assert [library.jobs.get(j.job_id).stage for j in jobs] == ["done", "done"]
    assert list((data_dir / "queue").iterdir()) == []
    assert_consistent(library)


def test_kill_9_of_the_worker_mid_embedding_then_a_restart_adds_it_once(tmp_path: Path) -> None:
    data_dir, gate = tmp_path / "lib", tmp_path / "gate"
    library = open_library(data_dir)
    jobs = [library.jobs.enqueue(LONG, "long.pdf"), library.jobs.enqueue(OTHER, "bees.pdf")]
    first = _worker(data_dir, gate)
    try:
        wait_for(lambda: library.vector_progress().get(jobs[0].doc_id), "the first job's first vectors")
    finally:
        first.kill()  # SIGKILL, mid-embedding
        first.communicate(timeout=60)
    assert first.returncode == -signal.SIGKILL
    held = library.jobs.get(jobs[0].job_id)
    assert held.stage == "embedding" and held.attempts == 1
    assert [d.file_name for d in library.documents()] == ["long.pdf"]  # its words: searchable meanwhile
    gate.touch()
    second = _worker(data_dir, gate)
    _out, err = second.communicate(timeout=120)
    assert second.returncode == 0, err
    assert library.jobs.get(jobs[0].job_id).attempts == 2  # taken up at once (its process was gone)
    assert library.jobs.get(jobs[1].job_id).attempts == 1
    _ended_once(data_dir, jobs)


@pytest.mark.parametrize("kill_at", ["words", "saved"])
def test_killed_between_a_jobs_two_writes_then_restarted(tmp_path: Path, kill_at: str) -> None:
    data_dir = tmp_path / "lib"
    library = open_library(data_dir)
    jobs = [library.jobs.enqueue(LONG, "long.pdf"), library.jobs.enqueue(OTHER, "bees.pdf")]
    child = subprocess.run(
        [sys.executable, "-m", "tests.ingest.worker_child", str(data_dir), kill_at],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    assert library.jobs.get(jobs[0].job_id).stage == "embedding"
    again = subprocess.run(
        [sys.executable, "-m", "tests.ingest.worker_child", str(data_dir), "never"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 0, again.stderr
    _ended_once(data_dir, jobs)
