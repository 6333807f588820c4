"""Background ingestion (issue 21), local mode, in one run on the same inputs:

1. The 24 real filings of ../shared/corpus/filings-dev through the job queue (enqueue, then a
   worker takes the job: words stored, then vectors) against the synchronous ``Library.add_pdf``,
   each into a fresh library. The two paths alternate file by file (which goes first alternates
   too), so the machine's noise is shared out; totals are the sums. Default local embeddings
   (all-MiniLM-L6-v2, int8 ONNX), as the app embeds.
2. The largest filing (PepsiCo's 2021 10-K, 549 pages), with the default local embeddings
   (all-MiniLM-L6-v2, int8 ONNX): synchronously (its full ingest time), and through the queue with
   the worker running in a thread as the app runs it (started WORKER_HEAD_START_S before the
   upload, as the app's is started before any upload), while a question about its last pages is
   asked as soon as its words are in, through the app's own answer stream (hybrid retrieval,
   offline extractive answerer) on a reader of that library, beside three smaller filings:
   seconds from the upload (enqueue returned) to the first cited answer, against the full ingest.
   Then the same upload into a copy of the three-filing library whose BM25 index was built before
   the upload, as the app's pages build it on every run (each chunk's terms are then kept, and the
   new generation's index tokenizes only the new filing's chunks).
Default chunk settings. Run ``python -m bench jobs`` (``--quick``: three filings, printed only;
``--first-answer [N]``: only the first answer against the full ingest, N times, printed only:
bench/first_answer.py).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import CORPUS

FILINGS = CORPUS / "filings-dev" / "pdfs"
LONG = "PEPSICO_2021_10K.pdf"
QUESTION = (
    "What did Ramon L. Laguarta and Hugh F. Johnston certify about the annual report for the fiscal "
    "year ended December 25, 2021?"
)
LAST_PAGES = 4  # the signatures and certifications fill the last four pages: any of them counts
GOAL_FIRST_ANSWER_RATIO, GOAL_QUEUE_RATIO = 0.06, 1.05
POLL_S = 0.02
NEIGHBOURS = 3
# The app starts its worker when the library is first opened (components.shared.resources.get_library),
# on the server's first page run, so by the time a file is uploaded the worker has opened the
# library and started its page-reading helpers (ingest.pdf.page_pool.warm): the upload waits this
# long after Worker.start, not to measure the helpers' start-up as part of the upload.
WORKER_HEAD_START_S = 2.0


def _open(folder: Path, embeddings: Any, name: str):
    from ingest.local.library import Library

    return Library.open(folder, embeddings, embedding_name=name)


def _queued(library: Any, path: Path) -> float:
    """Seconds to enqueue one file and run its job to the end (as a worker takes it)."""
    from ingest.worker import Worker

    start = time.perf_counter()
    job = library.jobs.enqueue(path.read_bytes(), path.name)
    ended = Worker(library).run_once()
    seconds = time.perf_counter() - start
    if ended is None or ended.job_id != job.job_id or ended.stage != "done":
        raise RuntimeError(f"{path.name}: the job ended {ended}")
    return seconds


def _synchronous(library: Any, path: Path) -> float:
    start = time.perf_counter()
    result = library.add_pdf(path.read_bytes(), path.name)
    if result.status != "ok":
        raise RuntimeError(f"{path.name}: {result.status}")
    return time.perf_counter() - start


def _first_answer(
    folder: Path,
    library: Any,
    path: Path,
    embeddings: Any,
    name: str,
    read_before: bool = False,
    until_done: bool = True,
) -> dict[str, Any]:
    """Upload the long filing to a running worker; time the words, the first cited answer, the end
    (without ``until_done``, the worker is stopped after the answer and the end is not timed).
    With ``read_before``, the library's BM25 index is built before the upload, as the app's pages
    do on every run (components.shared.resources: warm_lexical), in a process whose stems were cleared."""
    from ingest.local.library import Library
    from ingest.worker import BACKGROUND_NICENESS, Worker
    from rag import text
    from rag.answering.answer import answer_stream
    from rag.answering.events import Done
    from rag.offline.extractive import ExtractiveAnswerer
    from rag.retrieval.retrieve import lexical_index

    reader = None
    if read_before:
        text.stem.cache_clear()
        text._term.cache_clear()
        reader = Library.open_reader(folder, embeddings, embedding_name=name)
        lexical_index(reader)
    worker = Worker(library, poll_s=POLL_S).start(niceness=BACKGROUND_NICENESS)  # as the app starts it
    time.sleep(WORKER_HEAD_START_S)
    data = path.read_bytes()
    start = time.perf_counter()
    job = library.jobs.enqueue(data, path.name)
    worker.wake()
    uploaded = time.perf_counter() - start
    while library.jobs.get(job.job_id).stage in ("queued", "reading"):
        time.sleep(POLL_S)
    words = time.perf_counter() - start
    reader = reader or Library.open_reader(folder, embeddings, embedding_name=name)  # as the chat page reads
    model = ExtractiveAnswerer(embeddings=embeddings)
    events = answer_stream(QUESTION, library=reader, chat_model=model, provider_label="extractive", k=6)
    answer = next(e.answer for e in events if isinstance(e, Done))
    answered = time.perf_counter() - start
    while until_done and library.jobs.get(job.job_id).active:
        time.sleep(POLL_S)
    finished = time.perf_counter() - start if until_done else None
    worker.stop()
    pages = library.document(job.doc_id).pages
    cited = sorted(
        {
            loc.page_index
            for f in answer.footnotes
            for loc in f.evidence.locators
            if f.evidence.doc_id == job.doc_id
        }
    )
    return {
        "cited_last_pages": any(p >= pages - LAST_PAGES for p in cited),
        "uploaded_s": round(uploaded, 3),
        "words_s": round(words, 2),
        "first_answer_s": round(answered, 2),
        "job_done_s": round(finished, 2) if finished is not None else None,
        "cited_pages": cited,
        "pages": pages,
        "words_only": list(answer.words_only),
        "answer": answer.text[:400],
    }


def _neighbours(paths: list[Path], long: Path) -> list[Path]:
    """The NEIGHBOURS smallest other filings: other 10-Ks' certifications to tell apart (all 23
    would take hours to embed on this shared machine)."""
    return sorted((p for p in paths if p != long), key=lambda p: p.stat().st_size)[:NEIGHBOURS]


def _compare(paths: list[Path], embeddings: Any, name: str, folder: Path) -> tuple[dict, dict, int]:
    """Each file into a synchronous and a queued library, alternating; seconds per file, chunks."""
    sync_lib, queue_lib = _open(folder / "sync", embeddings, name), _open(folder / "queue", embeddings, name)
    sync_s: dict[str, float] = {}
    queue_s: dict[str, float] = {}
    for n, path in enumerate(paths):
        for side in ("sync", "queue") if n % 2 == 0 else ("queue", "sync"):
            if side == "sync":
                sync_s[path.name] = _synchronous(sync_lib, path)
            else:
                queue_s[path.name] = _queued(queue_lib, path)
    chunks = sync_lib.chunk_count(), queue_lib.chunk_count()
    if chunks[0] != chunks[1]:
        raise RuntimeError(f"the two libraries differ: {chunks[0]} and {chunks[1]} chunks")
    return sync_s, queue_s, chunks[0]


def run(quick: bool = False, first_answer: int = 0) -> dict[str, Any]:
    """Both measurements, in one process; the local model loaded and warmed before any clock.
    With ``first_answer`` N, only the first answer against the full ingest, N times."""
    from ingest.embeddings import make_embeddings

    if first_answer:
        from bench.first_answer import run_first_answer

        return run_first_answer(first_answer)
    paths = sorted(FILINGS.glob("*.pdf"))
    long = next(p for p in paths if p.name == LONG)
    if quick:
        paths = [*sorted((p for p in paths if p != long), key=lambda p: p.stat().st_size)[:2], long]
    local, local_name = make_embeddings("local")
    local.embed_query("warm up")
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="footnote-bench-jobs-") as tmp:
        sync_s, queue_s, chunks = _compare(paths, local, local_name, Path(tmp) / "compare")
        others = _open(Path(tmp) / "local", local, local_name)
        for path in _neighbours(paths, long):  # already in the library when the long one is uploaded
            others.add_pdf(path.read_bytes(), path.name)
        shutil.copytree(Path(tmp) / "local", Path(tmp) / "local-read")
        long_sync = _synchronous(_open(Path(tmp) / "long-sync", local, local_name), long)
        first = _first_answer(Path(tmp) / "local", others, long, local, local_name)
        read = _open(Path(tmp) / "local-read", local, local_name)
        read_first = _first_answer(Path(tmp) / "local-read", read, long, local, local_name, read_before=True)
    result = {
        "files": len(paths),
        "chunks": chunks,
        "sync_total_s": round(sum(sync_s.values()), 1),
        "queue_total_s": round(sum(queue_s.values()), 1),
        "queue_over_sync": round(sum(queue_s.values()) / sum(sync_s.values()), 3),
        "long_file": long.name,
        "long_sync_s": round(long_sync, 1),
        "neighbours": NEIGHBOURS,
        **{f"long_{k}": v for k, v in first.items()},
        "first_answer_over_full_ingest": round(first["first_answer_s"] / long_sync, 3),
        "read_before_words_s": read_first["words_s"],
        "read_before_first_answer_s": read_first["first_answer_s"],
        "read_before_over_full_ingest": round(read_first["first_answer_s"] / long_sync, 3),
        "read_before_cited_pages": read_first["cited_pages"],
        "first_answer_over_job": round(first["first_answer_s"] / first["job_done_s"], 3),
        "per_file_sync_queue_s": {p: [round(sync_s[p], 2), round(queue_s[p], 2)] for p in sync_s},
        "load_before": [round(x, 1) for x in load_before],
        "load_after": [round(x, 1) for x in os.getloadavg()],
        "cores": os.cpu_count(),
        "quick": quick,
    }
    return {**result, "markdown": render(result)}


def render(r: dict[str, Any]) -> str:
    """The README section body."""
    cited = r["long_cited_last_pages"]
    met = "met" if cited and r["first_answer_over_full_ingest"] <= GOAL_FIRST_ANSWER_RATIO else "**not met**"
    queue_met = "met" if r["queue_over_sync"] <= GOAL_QUEUE_RATIO else "**not met**"
    return (
        "| measured | seconds | ratio | goal |\n|---|---:|---:|---|\n"
        f"| {r['long_file']} ({r['long_pages']} pages, local model): upload to its words stored | "
        f"{r['long_words_s']:.1f} | | |\n"
        f"| same: upload to the first cited answer (words only) | {r['long_first_answer_s']:.1f} | "
        f"**{r['first_answer_over_full_ingest']:.3f}** of its full synchronous ingest | "
        f"<= {GOAL_FIRST_ANSWER_RATIO} ({met}) |\n"
        f"| same, the library read before the upload (as the app's pages do): the first cited answer | "
        f"{r['read_before_first_answer_s']:.1f} | **{r['read_before_over_full_ingest']:.3f}** | "
        f"(cited {r['read_before_cited_pages']}) |\n"
        f"| same: its full synchronous ingest | {r['long_sync_s']:.1f} | 1 | |\n"
        f"| same: upload to its job done (vectors in) | {r['long_job_done_s']:.1f} | | |\n"
        f"| {r['files']} filings through the queue, total | {r['queue_total_s']:.1f} | "
        f"**{r['queue_over_sync']:.3f}** of synchronous | <= {GOAL_QUEUE_RATIO} ({queue_met}) |\n"
        f"| {r['files']} filings synchronously, total | {r['sync_total_s']:.1f} | 1 | |\n\n"
        f"Inputs: the {r['files']} real filings of `filings-dev` ({r['chunks']:,} chunks at the default "
        "chunk settings), all on the local model (all-MiniLM-L6-v2 int8). The queue against "
        "synchronous: each path into a fresh library, alternating file by file (and which goes first); "
        "the queue path is the app's (stored copy, claim, words, embedding, vectors). The first "
        "answer: the long filing "
        f"uploaded to a library holding {r['neighbours']} smaller filings (their own certifications to "
        "tell apart), the worker in a thread as in the app; the "
        "question (\u201c" + QUESTION + "\u201d) asked through the app's answer stream on a reader of "
        "the library as soon as the job said its words were in; its answer cited page indexes "
        f"{r['long_cited_pages']} ({'one of the last pages' if cited else '**not the last pages**'}), "
        f"with the note \u201c{'; '.join(r['long_words_only'])}\u201d. Load average {r['load_before'][0]} "
        f"before, {r['load_after'][0]} after, on {r['cores']} cores shared with other work: absolute "
        "seconds are noisy; the ratios are taken in the same run."
    )


if __name__ == "__main__":
    import json
    import sys

    out = run(quick="--quick" in sys.argv)
    print(out.pop("markdown"))
    print(json.dumps(out, indent=1))
