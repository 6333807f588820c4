"""Ingestion speed: this pipeline vs the plain LangChain recipe, same embedding model, same run.

Ours: ``Library.add_pdf`` (pypdf checks, pypdfium2 text, page locators, stable ids, SQLite rows,
PDF file, FAISS index written to disk). Theirs, as a user would write it: ``PyPDFLoader`` +
``RecursiveCharacterTextSplitter(1000, 150)`` + ``FAISS.from_documents`` (in memory, nothing
saved). Both embed with the very same ``LocalEmbeddings`` (int8 MiniLM, batch 16), loaded and
warmed before the clock starts. Each pipeline runs in its own child process, so peak memory
(ru_maxrss) is its own; rounds alternate the two to share out the machine's noise, and the
fastest round of each counts. Inputs: the 117-page thesis of sample-files/009 and the three
squad-dev PDFs. Run ``python -m bench.ingest [--quick]``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from bench.common import ROOT, run_child

CORPUS = ROOT.parent / "shared" / "corpus"
INPUTS = [
    CORPUS / "sample-files" / "009-pdflatex-geotopo" / "GeoTopo-komprimiert.pdf",
    *sorted((CORPUS / "squad-dev" / "pdfs").glob("*.pdf")),
]
GOAL_RATIO, GOAL_MB = 0.7, 1024
ROUNDS = 3  # the machine is shared: alternate the pipelines and keep each one's fastest round


class TimedEmbeddings(Embeddings):
    """Adds up the seconds spent inside embed_documents (to split embedding from indexing)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.seconds = inner, 0.0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        start = time.perf_counter()
        try:
            return self.inner.embed_documents(texts)
        finally:
            self.seconds += time.perf_counter() - start

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)

    def token_counts(self, texts: list[str]) -> list[int]:
        start = time.perf_counter()
        try:
            return self.inner.token_counts(texts)
        finally:
            self.seconds += time.perf_counter() - start


def _warm_embeddings() -> tuple[TimedEmbeddings, float]:
    from ingest.embeddings import LocalEmbeddings

    start = time.perf_counter()
    local = LocalEmbeddings(batch_size=16)
    local.embed_query("warm up")  # loads the tokenizer and the ONNX session
    return TimedEmbeddings(local), time.perf_counter() - start


def ours_child(paths: list[str]) -> dict[str, Any]:
    """Child body: every PDF through Library.add_pdf into a fresh folder; time per stage."""
    start = time.perf_counter()
    from ingest.embeddings import LOCAL_NAME
    from ingest.library import Library

    imports = time.perf_counter() - start
    embeddings, load = _warm_embeddings()
    stages = dict.fromkeys(("read", "chunk", "embed", "index_and_persist"), 0.0)
    chunks = 0
    with tempfile.TemporaryDirectory() as folder:
        t0 = time.perf_counter()
        library = Library.open(Path(folder), embeddings, embedding_name=LOCAL_NAME)
        stages["index_and_persist"] += time.perf_counter() - t0
        for path in map(Path, paths):
            marks: dict[str, float] = {}

            def progress(p: Any, marks: dict[str, float] = marks) -> None:
                if p.done == p.total:
                    marks[p.stage] = time.perf_counter()

            begin = time.perf_counter()
            result = library.add_pdf(path.read_bytes(), path.name, progress=progress)
            end = time.perf_counter()
            chunks += result.chunks
            stages["read"] += marks["read"] - begin
            stages["chunk"] += marks["chunk"] - marks["read"]
            stages["embed"] += marks["embed"] - marks["chunk"]
            stages["index_and_persist"] += end - marks["embed"]
        total = time.perf_counter() - t0
    return _figures(total, stages, chunks, imports, load, embeddings.seconds)


def langchain_child(paths: list[str]) -> dict[str, Any]:
    """Child body: PyPDFLoader + RecursiveCharacterTextSplitter(1000, 150) + FAISS.from_documents."""
    start = time.perf_counter()
    from langchain_community.document_loaders import PyPDFLoader
    from langchain_community.vectorstores import FAISS
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    imports = time.perf_counter() - start
    embeddings, load = _warm_embeddings()
    stages = dict.fromkeys(("read", "chunk", "embed_and_index"), 0.0)
    chunks = 0
    t0 = time.perf_counter()
    splitter = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=150)
    for path in paths:
        a = time.perf_counter()
        pages = PyPDFLoader(path).load()
        b = time.perf_counter()
        pieces = splitter.split_documents(pages)
        c = time.perf_counter()
        FAISS.from_documents(pieces, embeddings)
        stages["read"] += b - a
        stages["chunk"] += c - b
        stages["embed_and_index"] += time.perf_counter() - c
        chunks += len(pieces)
    total = time.perf_counter() - t0
    return _figures(total, stages, chunks, imports, load, embeddings.seconds)


def _figures(total: float, stages: dict[str, float], chunks: int, imports: float, load: float,
             embed_seconds: float) -> dict[str, Any]:
    return {"seconds": round(total, 2), "stages_s": {k: round(v, 2) for k, v in stages.items()},
            "embedding_s": round(embed_seconds, 2), "chunks": chunks, "chunks_per_s": round(chunks / total, 1),
            "imports_s": round(imports, 2), "model_load_s": round(load, 2)}


def run(quick: bool = False) -> dict[str, Any]:
    """Both pipelines on the same inputs, alternating, fastest round each; figures and markdown."""
    paths = [str(p) for p in (INPUTS[-1:] if quick else INPUTS)]
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise FileNotFoundError(f"corpus files missing: {missing}")
    rounds: dict[str, list[dict[str, Any]]] = {"langchain": [], "ours": []}
    for _ in range(1 if quick else ROUNDS):
        rounds["langchain"].append(run_child("bench.ingest:langchain_child", {"paths": paths}))
        rounds["ours"].append(run_child("bench.ingest:ours_child", {"paths": paths}))
    best = {name: min(runs, key=lambda r: r["seconds"]) for name, runs in rounds.items()}
    ratio = best["ours"]["seconds"] / best["langchain"]["seconds"]
    peak = max(r["child_peak_rss_mb"] for r in rounds["ours"])
    result = {
        "inputs": [Path(p).name for p in paths], "rounds": rounds, "best": best,
        "wall_time_ratio": round(ratio, 3), "ratio_goal": GOAL_RATIO, "ratio_goal_met": ratio <= GOAL_RATIO,
        "ours_peak_rss_mb": peak, "memory_goal_mb": GOAL_MB, "memory_goal_met": peak < GOAL_MB,
    }
    result["markdown"] = _markdown(result)
    return result


def _markdown(r: dict[str, Any]) -> str:
    ours, theirs = r["best"]["ours"], r["best"]["langchain"]
    rows = [
        "| | this pipeline | plain LangChain recipe |",
        "|---|---|---|",
        f"| wall time (s, fastest of {len(r['rounds']['ours'])}) | {ours['seconds']} | {theirs['seconds']} |",
        f"| chunks | {ours['chunks']} | {theirs['chunks']} |",
        f"| chunks per second | {ours['chunks_per_s']} | {theirs['chunks_per_s']} |",
        f"| time inside the embedding model (s) | {ours['embedding_s']} | {theirs['embedding_s']} |",
        f"| stages (s) | {_stages(ours)} | {_stages(theirs)} |",
        f"| peak memory of the process (MB) | {ours['child_peak_rss_mb']} | {theirs['child_peak_rss_mb']} |",
        f"| imports / model load, not in wall time (s) | {ours['imports_s']} / {ours['model_load_s']} "
        f"| {theirs['imports_s']} / {theirs['model_load_s']} |",
    ]
    verdict = (f"Wall-time ratio {r['wall_time_ratio']} (goal <= {r['ratio_goal']}: "
               f"{'met' if r['ratio_goal_met'] else 'not met'}); peak memory {r['ours_peak_rss_mb']} MB "
               f"(goal < {r['memory_goal_mb']} MB: {'met' if r['memory_goal_met'] else 'not met'}).")
    return f"Inputs: {', '.join(r['inputs'])}.\n\n" + "\n".join(rows) + "\n\n" + verdict + "\n"


def _stages(figures: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in figures["stages_s"].items())


if __name__ == "__main__":
    import json

    quick_run = "--quick" in sys.argv[1:]
    outcome = run(quick=quick_run)
    print(outcome.pop("markdown"))
    print(json.dumps(outcome["best"], indent=2))
