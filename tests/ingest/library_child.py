"""Child process for the crash and concurrency tests: ``python -m tests.ingest.library_child``.

Usage: ``DATA_DIR KILL_AT PDF...``. Adds every PDF with the fake embeddings; when KILL_AT is a
stage name ("embed", "index"), the process SIGKILLs itself the first time the LAST file's
ingest reports that stage, like a machine losing power mid-write. KILL_AT "saved" kills it
right after the last file's vectors replaced the index file, before the document is marked ready.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

from ingest.embeddings import HashEmbeddings
from ingest.library import IngestProgress, Library


def main(data_dir: str, kill_at: str, *paths: str) -> None:
    library = Library.open(Path(data_dir), HashEmbeddings(), embedding_name="fake:hash:384", chunk_size=300,
                           chunk_overlap=30, batch_size=4)
    for n, path in enumerate(paths):
        last = n == len(paths) - 1
        if last and kill_at == "saved":
            _kill_after_index_save()

        def progress(p: IngestProgress, last: bool = last) -> None:
            if last and p.stage == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)

        result = library.add_pdf(Path(path).read_bytes(), Path(path).name, progress=progress)
        print(json.dumps({"file": Path(path).name, "status": result.status, "doc_id": result.doc.doc_id}), flush=True)


def _kill_after_index_save() -> None:
    from ingest import vectors

    save = vectors.save_index

    def save_then_die(index, path) -> None:  # noqa: ANN001 - same signature as the real one
        save(index, path)
        os.kill(os.getpid(), signal.SIGKILL)

    vectors.save_index = save_then_die


if __name__ == "__main__":
    main(*sys.argv[1:])
