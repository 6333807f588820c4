"""Child process for the crash and concurrency tests: ``python -m tests.ingest.library_child``.

Usage: ``DATA_DIR KILL_AT PDF...``. Adds every PDF with the fake embeddings; when KILL_AT is a
stage name ("embed", "index"), the process SIGKILLs itself the first time the LAST file's
ingest reports that stage, like a machine losing power mid-write. KILL_AT "saved" kills it
right after the last file's vectors replaced the index file, before the document is marked ready.
KILL_AT "pause" prints "paused" at that moment instead and waits for a line on stdin (holding
the write lock), so a test can act while a writer is mid-way.

Instead of PDFs, one of ``--reindex`` (re-index with chunk size 200), ``--reindex-same`` (with
the settings the library has), ``--check`` (open without
repairing, then repair) or ``--recover`` (rebuild a lost database) runs that operation, with
the same named points: "embed" and "pause" at its first embedding progress, "saved" after it
replaced the index file.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

from ingest.embeddings import HashEmbeddings
from ingest.local.library import IngestProgress, Library, LibrarySettings

NAME, OPTIONS = "fake:hash:384", {"chunk_size": 300, "chunk_overlap": 30, "batch_size": 4}


def main(data_dir: str, kill_at: str, *paths: str) -> None:
    if kill_at == "saved":
        _kill_after_index_save(after=0 if paths[:1] and paths[0].startswith("--") else len(paths) - 1)
    if paths and paths[0].startswith("--"):
        _maintain(Path(data_dir), kill_at, paths[0])
        return
    library = Library.open(Path(data_dir), HashEmbeddings(), embedding_name=NAME, **OPTIONS)
    for n, path in enumerate(paths):
        last = n == len(paths) - 1
        result = library.add_pdf(
            Path(path).read_bytes(), Path(path).name, progress=_at(kill_at) if last else None
        )
        print(
            json.dumps({"file": Path(path).name, "status": result.status, "doc_id": result.doc.doc_id}),
            flush=True,
        )


def _maintain(data_dir: Path, kill_at: str, operation: str) -> None:
    progress = _at(kill_at)
    if operation in ("--reindex", "--reindex-same"):
        Library.rebuild(
            data_dir,
            HashEmbeddings(),
            embedding_name=NAME,
            progress=progress,
            **(OPTIONS | ({"chunk_size": 200} if operation == "--reindex" else {})),
        )
    elif operation == "--check":
        Library.open(data_dir, HashEmbeddings(), embedding_name=NAME, repair=False, **OPTIONS).check(progress)
    elif operation == "--recover":
        from ingest.local.recovery import recover

        recover(Library(data_dir, HashEmbeddings(), LibrarySettings(NAME, **OPTIONS)), progress)
    print(json.dumps({"done": operation}), flush=True)


def _at(kill_at: str):
    """A progress callback that dies (or pauses) at the first report of stage ``kill_at``."""

    def progress(p: IngestProgress) -> None:
        if p.stage == kill_at or (kill_at == "pause" and p.stage == "embed"):
            if kill_at != "pause":
                os.kill(os.getpid(), signal.SIGKILL)
            print("paused", flush=True)
            sys.stdin.readline()
            kill_at_done.append(True)

    kill_at_done: list[bool] = []
    return lambda p: None if kill_at_done else progress(p)


def _kill_after_index_save(after: int) -> None:
    """Die right after the ``after``-th (0-based) replacement of the index file."""
    from ingest.local import vectors

    save, seen = vectors.save_index, []

    def save_then_die(index, path, **options) -> None:
        save(index, path, **options)
        if len(seen) == after:
            os.kill(os.getpid(), signal.SIGKILL)
        seen.append(path)

    vectors.save_index = save_then_die


if __name__ == "__main__":
    main(*sys.argv[1:])
