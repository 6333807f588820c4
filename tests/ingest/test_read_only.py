"""Readers never wait for writers: read-only open takes no lock, writes nothing, creates nothing,
answers while another process re-indexes, and reports (not runs) a repair."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ingest.embeddings import HashEmbeddings
from ingest.errors import FolderNotWritable, LibraryBusy, NoLibrary, ReadOnlyLibrary
from ingest.local.folder import not_writable_as_error
from ingest.local.library import Library
from ingest.local.reindex import PLAN_FILE
from ingest.local.vectors import index_ids, load_index, remove_vectors, save_index
from tests.ingest.test_library import BEES, FOG, NAME, open_library

ROOT = Path(__file__).resolve().parents[2]
SQLITE_COMPANIONS = {"library.sqlite3-wal", "library.sqlite3-shm"}


def open_reader(folder: Path, **options) -> Library:
    options = {"chunk_size": 300, "chunk_overlap": 30} | options
    return Library.open_reader(folder, HashEmbeddings(), embedding_name=NAME, **options)


def _tree(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in folder.rglob("*")}


def _child(data_dir: Path, kill_at: str, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.ingest.library_child", str(data_dir), kill_at, *args],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_a_reader_of_no_library_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(NoLibrary, match=f"no library at {tmp_path / 'typo'}"):
        open_reader(tmp_path / "typo")
    assert not (tmp_path / "typo").exists()
    (tmp_path / "empty").mkdir()
    with pytest.raises(NoLibrary):
        open_reader(tmp_path / "empty")
    assert list((tmp_path / "empty").iterdir()) == []


def test_a_reader_during_the_first_ingest_sees_an_empty_library(tmp_path: Path) -> None:
    """The first PDF is stored just before its rows are committed: not a lost database."""
    open_library(tmp_path)
    (tmp_path / "files" / f"{'a' * 64}.pdf").write_bytes(FOG)
    assert open_reader(tmp_path).documents() == []


def test_reading_changes_and_creates_nothing(tmp_path: Path) -> None:
    open_library(tmp_path).add_pdf(FOG, "fog.pdf")
    (tmp_path / ".lock").unlink()
    before = _tree(tmp_path)
    reader = open_reader(tmp_path)
    assert reader.open_report == []
    doc = reader.documents()[0]
    assert (
        reader.search_vector(reader.embeddings.embed_query("relief keeper coal"), 1)[0][0].doc_id
        == doc.doc_id
    )
    assert reader.pages(doc.doc_id) and reader.chunks() and reader.generation > 0
    assert reader.pdf_bytes(doc.doc_id) == FOG and reader.chunk_count() == doc.chunks
    with pytest.raises(ReadOnlyLibrary):
        reader.add_pdf(BEES, "bees.pdf")
    with pytest.raises(ReadOnlyLibrary):
        reader.delete(doc.doc_id)
    after = _tree(tmp_path)
    # SQLite may add its shared-memory companions for a WAL reader; nothing of ours appears or changes.
    assert set(after) - set(before) <= SQLITE_COMPANIONS
    assert {k: v for k, v in after.items() if k not in SQLITE_COMPANIONS} == before


def test_a_reader_sees_what_a_writer_commits_later(tmp_path: Path) -> None:
    writer = open_library(tmp_path)
    writer.add_pdf(FOG, "fog.pdf")
    reader = open_reader(tmp_path)
    writer.add_pdf(BEES, "bees.pdf")
    assert (
        reader.search_vector(reader.embeddings.embed_query("honeybees clover hive"), 1)[0][0].doc_id
        == writer.documents()[1].doc_id
    )


def test_a_writer_that_cannot_get_the_lock_is_told_the_library_is_busy(tmp_path: Path) -> None:
    open_library(tmp_path).add_pdf(FOG, "fog.pdf")
    holder = _child(tmp_path, "pause", "--reindex")  # a real re-index, paused mid-way with the lock held
    try:
        assert holder.stdout.readline().strip() == "paused"
        with pytest.raises(LibraryBusy) as caught:
            open_library(tmp_path, lock_timeout=0.05)
        assert (
            str(caught.value) == f"{tmp_path}: the library is busy (another ingest is running); "
            "try again when it has finished"
        )
        reader = open_reader(tmp_path)  # returns while the lock is held: readers never take it
        assert (
            reader.search_vector(reader.embeddings.embed_query("relief keeper coal"), 1)[0][0].text.count(
                "coal"
            )
            == 1
        )
        generation = reader.generation
    finally:
        out, err = holder.communicate("\n", timeout=120)
    assert holder.returncode == 0, err
    assert json.loads(out.splitlines()[-1]) == {"done": "--reindex"}
    assert reader.generation > generation  # the re-index committed; the reader follows it
    fresh = open_reader(tmp_path, chunk_size=200)
    assert fresh.search_vector(fresh.embeddings.embed_query("relief keeper coal"), 1)


class CountingEmbeddings(HashEmbeddings):
    """The fake embeddings, counting the passages they were asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.embedded = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded += len(texts)
        return super().embed_documents(texts)


def _killed_reindex(folder: Path, operation: str = "--reindex") -> None:
    """A library of two documents whose re-index (chunk size 200, or with the same settings for
    "--reindex-same") died after saving its vectors."""
    library = open_library(folder)
    library.add_pdf(FOG, "fog.pdf")
    library.add_pdf(BEES, "bees.pdf")
    child = _child(folder, "saved", operation)  # new vectors saved, old rows kept: ids differ
    child.communicate(timeout=120)
    assert child.returncode < 0
    assert (folder / PLAN_FILE).is_file()


def test_a_reindex_killed_after_saving_its_vectors_is_finished_without_re_embedding(tmp_path: Path) -> None:
    _killed_reindex(tmp_path)
    index_before = (tmp_path / "index.faiss").read_bytes()
    reader = open_reader(tmp_path)  # readers report and change nothing
    assert len(reader.open_report) == 1 and "have no vectors" in reader.open_report[0]
    assert reader.missing_vectors == reader.chunk_count() > 0
    assert f"python -m cli.ingest --check --data-dir {tmp_path}" in reader.open_report[0]
    assert reader.search_vector(reader.embeddings.embed_query("relief keeper coal"), 3) == []
    assert (tmp_path / PLAN_FILE).is_file()

    counting = CountingEmbeddings()
    writer = Library.open(
        tmp_path, counting, embedding_name=NAME, chunk_size=200, chunk_overlap=30, repair=False
    )
    count = load_index(tmp_path / "index.faiss").ntotal
    assert writer.open_report == [
        f"Finished a re-index that was interrupted after it saved its vectors ({count} chunks, none re-embedded)."
    ]
    assert counting.embedded == 0 and writer.missing_vectors == 0
    assert writer.chunk_count() == count == sum(d.chunks for d in writer.documents())
    assert max(len(c.text) for c in writer.chunks()) <= 200  # the re-index's settings, now recorded
    assert (tmp_path / "index.faiss").read_bytes() == index_before and not (tmp_path / PLAN_FILE).exists()
    assert writer.check() == [] and counting.embedded == 0
    assert "coal" in reader.search_vector(reader.embeddings.embed_query("relief keeper coal"), 1)[0][0].text
    assert open_reader(tmp_path, chunk_size=200).open_report == []


def test_ingest_check_finishes_a_killed_reindex_of_the_same_settings(tmp_path: Path) -> None:
    """The way a user meets it: `python -m cli.ingest --check` after a re-index was killed."""
    _killed_reindex(tmp_path, "--reindex-same")
    index_before = (tmp_path / "index.faiss").read_bytes()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOOTNOTE_", "OPENAI_"))}
    env |= {
        "FOOTNOTE_EMBEDDING_PROVIDER": "fake",
        "FOOTNOTE_CHUNK_SIZE": "300",
        "FOOTNOTE_CHUNK_OVERLAP": "30",
    }
    done = subprocess.run(
        [sys.executable, "-m", "cli.ingest", "--check", "--data-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    count = load_index(tmp_path / "index.faiss").ntotal
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: ")]
    assert notes == [
        f"note: Finished a re-index that was interrupted after it saved its vectors ({count} chunks, none re-embedded)."
    ]
    assert (tmp_path / "index.faiss").read_bytes() == index_before
    assert open_reader(tmp_path).open_report == [] and open_reader(tmp_path).chunk_count() == count


def test_an_interrupted_reindex_whose_index_changed_since_is_repaired_by_re_embedding(tmp_path: Path) -> None:
    _killed_reindex(tmp_path)
    index = load_index(tmp_path / "index.faiss")
    remove_vectors(index, [int(index_ids(index)[0])])
    save_index(index, tmp_path / "index.faiss")  # not the index the plan names: not trusted
    writer = open_library(tmp_path, repair=False)  # the old rows and settings still stand
    assert writer.open_report[-1].endswith(
        "re-embed them with `python -m cli.ingest --check` or on the Library page."
    )
    assert writer.missing_vectors == writer.chunk_count() > 0 and not (tmp_path / PLAN_FILE).exists()
    assert any("Re-embedded" in line for line in writer.check())
    assert writer.check() == [] and writer.missing_vectors == 0


@pytest.mark.parametrize("operation", ["--check", "--recover"])
def test_a_killed_repair_or_recovery_can_be_run_again(tmp_path: Path, operation: str) -> None:
    open_library(tmp_path).add_pdf(FOG, "fog.pdf")
    if operation == "--check":
        (tmp_path / "index.faiss").unlink()
    else:
        (tmp_path / "library.sqlite3").unlink()
    files = sorted(p.name for p in (tmp_path / "files").iterdir())
    for kill_at in ("embed", "saved"):
        child = _child(tmp_path, kill_at, operation)
        child.communicate(timeout=120)
        assert child.returncode < 0
        assert sorted(p.name for p in (tmp_path / "files").iterdir()) == files  # no PDF lost
    done = _child(tmp_path, "never", operation)
    _, err = done.communicate(timeout=120)
    assert done.returncode == 0, err
    library = open_library(tmp_path)
    assert library.check() == [] and library.chunk_count() == load_index(tmp_path / "index.faiss").ntotal > 0
    assert (
        library.search_vector(library.embeddings.embed_query("relief keeper coal"), 1)[0][0].text.count(
            "coal"
        )
        == 1
    )


READ_SCRIPT = """
import json, sys
from pathlib import Path
from ingest.embeddings import HashEmbeddings
from ingest.local.library import Library
reader = Library.open_reader(Path(sys.argv[1]), HashEmbeddings(), embedding_name=sys.argv[2],
                             chunk_size=300, chunk_overlap=30)
print(json.dumps([reader.search_vector(reader.embeddings.embed_query("relief keeper coal"), 1)[0][0].doc_id, len(reader.documents())]))
"""


def _as_nobody() -> list[str]:
    """The command prefix that runs a child as user nobody when we are root (chmod does not bind
    root); nothing otherwise. Skips when root has no setpriv."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: a read-only folder cannot be made")
    return ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.fixture
def outer() -> Iterator[Path]:
    """A folder user nobody can reach (pytest's are private); made writable again to be removed."""
    folder = Path(tempfile.mkdtemp())
    folder.chmod(0o755)
    yield folder
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755)
    shutil.rmtree(folder)


def test_a_read_only_folder_can_be_asked(outer: Path) -> None:
    prefix = _as_nobody()
    folder = outer / "lib"
    doc_id = open_library(folder).add_pdf(FOG, "fog.pdf").doc.doc_id
    (folder / ".lock").unlink()
    before = _tree(folder)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    done = subprocess.run(
        [*prefix, sys.executable, "-c", READ_SCRIPT, str(folder), NAME],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [doc_id, 1]
    assert _tree(folder) == before  # not even SQLite's companions: the folder could not take them


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ("lib", "cannot write to the data folder {outer}/lib (permission denied)"),
        (
            "lib/new/deeper",
            "cannot create the data folder {outer}/lib/new/deeper: {outer}/lib is not writable",
        ),
    ],
    ids=["read-only-folder", "new-folder-under-read-only-parent"],
)
@pytest.mark.parametrize("command", [[], ["--check"], ["recover"]], ids=["add", "check", "recover"])
def test_ingest_into_a_folder_it_cannot_write_says_so_in_one_sentence(
    outer: Path, where: str, words: str, command: list[str]
) -> None:
    prefix = _as_nobody()
    pdf = outer / "fog.pdf"
    pdf.write_bytes(FOG)
    open_library(outer / "lib").add_pdf(FOG, "fog.pdf")
    for path in [outer / "lib", *(outer / "lib").rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOOTNOTE_", "OPENAI_"))}
    # A HOME user nobody may read (settings look for ~/.streamlit/secrets.toml).
    env |= {"FOOTNOTE_EMBEDDING_PROVIDER": "fake", "HOME": str(outer)}
    args = [*command, "--data-dir", str(outer / where)] + ([] if command else [str(pdf)])
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "cli.ingest", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    expected = "error: " + words.format(outer=outer)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(expected), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "choose a writable folder with --data-dir or FOOTNOTE_DATA_DIR" in done.stderr
    assert not (outer / "lib" / "new").exists()


@pytest.mark.parametrize(
    ("code", "cause"),
    [
        (errno.EROFS, "read-only file system"),
        (errno.EACCES, "permission denied"),
        (errno.EPERM, "not permitted"),
    ],
)
def test_each_cannot_write_errno_becomes_one_message_and_others_pass(
    tmp_path: Path, code: int, cause: str
) -> None:
    words = f"cannot write to the data folder {tmp_path} .*{cause}"
    with pytest.raises(FolderNotWritable, match=words), not_writable_as_error(tmp_path):
        raise OSError(code, os.strerror(code), str(tmp_path / ".lock"))
    with pytest.raises(OSError, match="No space left"), not_writable_as_error(tmp_path):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_rag_ask_answers_while_another_process_holds_the_write_lock(tmp_path: Path) -> None:
    from filelock import FileLock

    open_library(tmp_path).add_pdf(FOG, "fog.pdf")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FOOTNOTE_", "OPENAI_"))}
    env |= {
        "FOOTNOTE_EMBEDDING_PROVIDER": "fake",
        "FOOTNOTE_CHUNK_SIZE": "300",
        "FOOTNOTE_CHUNK_OVERLAP": "30",
        "FOOTNOTE_LLM_PROVIDER": "extractive",
    }
    with FileLock(tmp_path / ".lock"):  # held here; the CLI is another process
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "cli.rag",
                "ask",
                "--data-dir",
                str(tmp_path),
                "--json",
                "Who arrives every second Tuesday?",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert any("coal" in e["text"] for e in json.loads(done.stdout)["retrieved"])
