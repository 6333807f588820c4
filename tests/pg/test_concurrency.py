"""Many writers and readers on one database: each file once, nothing half-visible, ever."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.embeddings import HashEmbeddings
from ingest.team.library import PgLibrary
from tests.rag.conftest import ENGINES, GARDEN, make_pdf

ROOT = Path(__file__).resolve().parents[2]


def child(url: str, at: str, pdf: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.pg.pg_child", url, at, str(pdf)],
        cwd=ROOT,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def reader(url: str) -> PgLibrary:
    return PgLibrary.open_reader(
        url, HashEmbeddings(384), embedding_name="fake:hash:384", chunk_size=300, chunk_overlap=30
    )


@pytest.fixture
def garden(tmp_path: Path) -> Path:
    path = tmp_path / "garden.pdf"
    path.write_bytes(make_pdf(GARDEN * 3, "Garden guide"))
    return path


def test_same_file_from_two_workers_ends_up_once(pg_url: str, garden: Path) -> None:
    first = child(pg_url, "pause", garden)
    assert first.stdout.readline().strip() == "paused"  # holds its transaction, rows written
    library = reader(pg_url)
    assert library.documents() == [] and library.chunk_count() == 0  # readers never see half a document
    second = child(pg_url, "none", garden)  # embeds, then waits for the first worker's lock
    out, err = first.communicate("go\n", timeout=240)
    assert first.returncode == 0, err
    assert json.loads(out)["status"] == "ok"
    out, err = second.communicate(timeout=240)
    assert second.returncode == 0, err
    assert json.loads(out)["status"] == "skipped"
    (doc,) = library.documents()
    assert library.chunk_count() == doc.chunks > 0


def test_two_workers_with_different_files_both_land(pg_url: str, garden: Path, tmp_path: Path) -> None:
    engines = tmp_path / "engines.pdf"
    engines.write_bytes(make_pdf(ENGINES, "Engines primer"))
    workers = [child(pg_url, "none", garden), child(pg_url, "none", engines)]
    for worker in workers:
        _, err = worker.communicate(timeout=240)
        assert worker.returncode == 0, err
    library = reader(pg_url)
    assert sorted(d.file_name for d in library.documents()) == ["engines.pdf", "garden.pdf"]
    assert library.chunk_count() == sum(d.chunks for d in library.documents())


def test_worker_killed_mid_file_leaves_nothing(pg_url: str, garden: Path) -> None:
    worker = child(pg_url, "kill", garden)
    worker.communicate(timeout=240)
    assert worker.returncode == -9
    library = reader(pg_url)
    assert library.documents() == [] and library.chunk_count() == 0 and library.generation == 0
    again = child(pg_url, "none", garden)  # and the next worker is not blocked by the dead one's lock
    out, err = again.communicate(timeout=240)
    assert again.returncode == 0, err
    assert json.loads(out)["status"] == "ok" and len(library.documents()) == 1
