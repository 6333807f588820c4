"""Child process for the team-mode concurrency tests: ``python -m tests.pg.pg_child URL AT PDF``.

Adds the PDF to the PostgreSQL library with the fake embeddings. AT is "none", "kill" (SIGKILL
itself once every row is written but before the commit, like a machine losing power) or "pause"
(print "paused" at that moment, holding the transaction and the write lock, and wait for a line
on stdin before committing). Prints the result as one JSON line.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

from ingest.embeddings import HashEmbeddings
from ingest.local.library import IngestProgress
from ingest.team.library import PgLibrary


def main(url: str, at: str, path: str) -> None:
    library = PgLibrary.open(
        url, HashEmbeddings(384), embedding_name="fake:hash:384", chunk_size=300, chunk_overlap=30
    )

    def progress(p: IngestProgress) -> None:
        if p.stage == "index" and p.done == p.total and at == "kill":
            os.kill(os.getpid(), signal.SIGKILL)
        if p.stage == "index" and p.done == p.total and at == "pause":
            print("paused", flush=True)
            sys.stdin.readline()

    result = library.add_pdf(Path(path).read_bytes(), Path(path).name, progress=progress)
    print(json.dumps({"status": result.status, "doc_id": result.doc.doc_id}), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
