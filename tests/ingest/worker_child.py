"""Child process for the worker crash tests: ``python -m tests.ingest.worker_child DATA_DIR KILL_AT``.

Runs one ingest worker (fake embeddings, the test library's settings) until the queue is idle.
KILL_AT names where it SIGKILLs itself the first time it gets there, like a machine losing power:
"words" right after a job's words were committed, "saved" right after its vectors replaced the
index file (before the document is marked ready), "never" not at all.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from ingest.embeddings import HashEmbeddings
from ingest.local import jobs as job_store
from ingest.local import vectors
from ingest.local.library import Library
from ingest.worker import Worker

NAME, OPTIONS = "fake:hash:384", {"chunk_size": 300, "chunk_overlap": 30, "batch_size": 4}


def _die_after(module, name: str) -> None:
    original = getattr(module, name)

    def then_die(*args, **kwargs):
        result = original(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)
        return result

    setattr(module, name, then_die)


def main(data_dir: str, kill_at: str) -> None:
    if kill_at == "saved":
        _die_after(vectors, "save_index")
    elif kill_at == "words":
        _die_after(job_store.LocalJobs, "store_words")
    library = Library.open(Path(data_dir), HashEmbeddings(), embedding_name=NAME, **OPTIONS)
    Worker(library, poll_s=0.05).run(until_idle=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
