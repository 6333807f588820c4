"""Real processes: killed mid-ingest (the library survives), and two ingesting at once."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ingest.local.vectors import load_index
from tests.ingest.pdfs import long_pages, make_pdf
from tests.ingest.test_library import open_library

ROOT = Path(__file__).resolve().parents[2]


def _pdfs(folder: Path, prefix: str, count: int) -> list[Path]:
    paths = []
    for n in range(count):
        path = folder / f"{prefix}{n}.pdf"
        path.write_bytes(make_pdf(long_pages(2, words=f"{prefix} document {n} about harbours. ", repeat=12)))
        paths.append(path)
    return paths


def _child(data_dir: Path, kill_at: str, paths: list[Path]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.ingest.library_child", str(data_dir), kill_at, *map(str, paths)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _assert_consistent(data_dir: Path) -> None:
    library = open_library(data_dir)
    assert library.open_report == []  # nothing needed repair
    assert library.check() == []
    assert load_index(data_dir / "index.faiss").ntotal == library.chunk_count()
    assert sum(d.chunks for d in library.documents()) == library.chunk_count()
    files = sorted(p.stem for p in (data_dir / "files").iterdir())
    assert files == sorted(d.doc_id for d in library.documents())


@pytest.mark.parametrize("stage", ["embed", "index", "saved"])
def test_killed_mid_ingest_leaves_previous_library_intact(tmp_path: Path, stage: str) -> None:
    first, doomed = _pdfs(tmp_path, "p", 2)
    child = _child(tmp_path / "lib", stage, [first, doomed])
    out, err = child.communicate(timeout=120)
    assert child.returncode == -signal.SIGKILL, err
    assert [json.loads(line)["file"] for line in out.splitlines()] == ["p0.pdf"]

    library = open_library(tmp_path / "lib")
    assert [d.file_name for d in library.documents()] == ["p0.pdf"]
    if stage in ("index", "saved"):  # rows (and maybe vectors) were written: reported, removed
        assert library.open_report == ["Removed p1.pdf: an earlier ingest was interrupted; add it again."]
    else:  # nothing was written yet
        assert library.open_report == []
    _assert_consistent(tmp_path / "lib")
    assert library.add_pdf(doomed.read_bytes(), "p1.pdf").status == "ok"
    _assert_consistent(tmp_path / "lib")


def test_two_processes_ingesting_at_once(tmp_path: Path) -> None:
    a_paths, b_paths = _pdfs(tmp_path, "a", 6), _pdfs(tmp_path, "b", 6)
    shared = a_paths[0]
    children = [
        _child(tmp_path / "lib", "never", a_paths),
        _child(tmp_path / "lib", "never", [shared, *b_paths]),
    ]
    outputs = [child.communicate(timeout=180) for child in children]
    for child, (_, err) in zip(children, outputs):
        assert child.returncode == 0, err
    statuses = sorted(json.loads(line)["status"] for out, _ in outputs for line in out.splitlines())
    assert statuses == ["ok"] * 12 + ["skipped"]  # the shared file went in once
    library = open_library(tmp_path / "lib")
    assert sorted(d.file_name for d in library.documents()) == sorted(p.name for p in a_paths + b_paths)
    _assert_consistent(tmp_path / "lib")
    hits = library.search_vector(library.embeddings.embed_query("b document 3 about harbours"), 1)
    assert hits[0][0].doc_id == next(d.doc_id for d in library.documents() if d.file_name == "b3.pdf")


def test_two_threads_sharing_one_library(tmp_path: Path) -> None:
    """Streamlit sessions are threads sharing one cached Library object."""
    from concurrent.futures import ThreadPoolExecutor

    library = open_library(tmp_path / "lib")
    paths = _pdfs(tmp_path, "t", 6)

    def add(path: Path) -> str:
        return library.add_pdf(path.read_bytes(), path.name).status

    with ThreadPoolExecutor(max_workers=3) as pool:
        statuses = list(pool.map(add, paths + paths[:2]))
    assert sorted(statuses) == ["ok"] * 6 + ["skipped"] * 2
    _assert_consistent(tmp_path / "lib")
    assert len(library.search_vector(library.embeddings.embed_query("t document 4 about harbours"), 3)) == 3
