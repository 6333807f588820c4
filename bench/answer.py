"""Answer latency: time to the first text delta and to the final event, offline extractive answerer.

What is real: the three squad-dev PDFs (one with --quick) ingested through Library.add_pdf with
the app's local embeddings (all-MiniLM-L6-v2 int8), the questions (answerable squad-dev questions
about them), and the whole answer path, rag.answering.answer.answer_stream: query embedding, FAISS, BM25, fusion, the
extractive chat model streaming, CitationStream, the final Answer.

What is synthetic: the filler that brings the library to 1k or 100k chunks (embedding 100k chunks
for real would take about 40 minutes here). Filler documents of 50 one-page chunks of about 1,000
characters, words drawn from the squad-dev paragraphs' own vocabulary at their own frequencies,
vectors random unit vectors around one direction per document (so filler competes in BM25 but
rarely in dense search). It is stored
with the public row and vector functions of ingest.local.store and ingest.local.vectors, in the order
Library.add_pdf uses; reopening the library then runs its consistency check, which must find
nothing to repair.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.common import CORPUS, median, percentile, rss_mb, time_call

SQUAD = CORPUS / "squad-dev"
SIZES = (1_000, 100_000)
QUICK_SIZES = (300,)
QUICK_PDFS = ["Normans.pdf"]
CHUNKS_PER_DOC = 50
QUESTIONS, ROUNDS = 10, 3
COLD_RUNS = {1_000: 3, 100_000: 2}  # a cold first question at 100k builds BM25 over 100k chunks
QUICK_QUESTIONS, QUICK_ROUNDS, QUICK_COLD_RUNS = 3, 2, 2
K = 6


def load_questions(count: int) -> list[dict[str, Any]]:
    """Answerable squad-dev questions spread over the three documents, deterministically."""
    rows = [json.loads(line) for line in (SQUAD / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    answerable = [r for r in rows if not r["is_impossible"]]
    step = max(1, len(answerable) // count)
    return answerable[::step][:count]


def filler_texts(n: int, seed: int) -> list[str]:
    """n texts of about 1,000 characters in the squad-dev paragraphs' vocabulary and word frequencies."""
    import numpy as np

    counts: Counter[str] = Counter()
    for line in (SQUAD / "paragraphs.jsonl").read_text(encoding="utf-8").splitlines():
        counts.update(json.loads(line)["context"].split())
    words = np.array(list(counts), dtype=object)
    weights = np.array(list(counts.values()), dtype=float)
    rng = np.random.default_rng(seed)
    drawn = rng.choice(words, size=(n, 170), p=weights / weights.sum())
    return [
        " ".join(row[:18]) + ". " + " ".join(row[18:85]) + ". " + " ".join(row[85:]) + "." for row in drawn
    ]


def add_filler(library: Any, n_chunks: int, seed: int = 1) -> int:
    """Store n_chunks synthetic chunks in documents of CHUNKS_PER_DOC, rows then vectors; returns docs."""
    from bench.retrieval import make_vectors
    from ingest.ids import chunk_id_for, doc_id_for
    from ingest.local import store, vectors
    from ingest.types import Chunk, Document, Page, PageLocator

    texts = filler_texts(n_chunks, seed)
    matrix = make_vectors(n_chunks, seed=seed, topics=max(1, n_chunks // CHUNKS_PER_DOC))
    size, overlap = library.config.chunk_size, library.config.chunk_overlap
    docs = 0
    # Only this benchmark uses this temporary library, so no other writer can interleave.
    with store.connect(library.db_path) as conn:
        with store.transaction(conn):
            vec_ids = store.take_vec_ids(conn, n_chunks)
            for lo in range(0, n_chunks, CHUNKS_PER_DOC):
                part = texts[lo : lo + CHUNKS_PER_DOC]
                data = f"%PDF-1.4 synthetic filler {seed}-{lo}".encode()
                doc_id = doc_id_for(data)
                pages = [Page(i, str(i + 1), t) for i, t in enumerate(part)]
                chunks = []
                for i, t in enumerate(part):
                    locs = (PageLocator(i, str(i + 1), 0, len(t)),)
                    chunks.append(Chunk(chunk_id_for(doc_id, locs, size, overlap), doc_id, i, t, locs))
                doc = Document(
                    doc_id,
                    f"Filler {docs + 1}",
                    f"filler-{docs + 1}.pdf",
                    len(pages),
                    len(data),
                    len(chunks),
                    "2026-01-01T00:00:00+00:00",
                )
                store.insert_document(conn, doc, pages, store.READY)
                store.insert_chunks(conn, chunks, vec_ids[lo : lo + len(part)])
                (library.files_dir / f"{doc_id}.pdf").write_bytes(data)
                docs += 1
        index = vectors.load_index(library.index_path)
        vectors.add_vectors(index, matrix, vec_ids)
        vectors.save_index(index, library.index_path)
        with store.transaction(conn):
            store.bump_generation(conn)
    return docs


def open_library(data_dir: Path) -> tuple[Any, Any]:
    """A function that opens the library at data_dir with the app's default local settings, and
    those settings."""
    from ingest.local.library import Library
    from settings import load_settings
    from wiring import library_inputs

    settings = load_settings(embedding_provider="local", llm_provider="extractive", data_dir=data_dir)
    embeddings, config = library_inputs(settings)
    return (lambda: Library.open(data_dir, embeddings, config=config)), settings


def build_base(data_dir: str, pdfs: list[str] | None = None) -> dict[str, Any]:
    """Child-process body: ingest the squad-dev PDFs (or the named ones) for real into data_dir."""
    library = open_library(Path(data_dir))[0]()
    paths = [SQUAD / "pdfs" / name for name in pdfs] if pdfs else sorted((SQUAD / "pdfs").glob("*.pdf"))
    start = time.perf_counter()
    chunks = sum(library.add_pdf(p.read_bytes(), p.name).chunks for p in paths)
    return {"real_chunks": chunks, "real_ingest_s": round(time.perf_counter() - start, 1)}


def build_library(data_dir: Path, base_dir: Path, n_chunks: int) -> tuple[Any, Any, dict[str, Any]]:
    """A copy of the base library plus filler up to n_chunks, then a fresh open that must repair
    nothing; returns a function that opens the library again, the settings, and build figures."""
    import shutil

    shutil.copytree(base_dir, data_dir, dirs_exist_ok=True)
    reopen, settings = open_library(data_dir)
    library = reopen()
    real = library.chunk_count()
    start = time.perf_counter()
    docs = add_filler(library, max(0, n_chunks - real))
    filler_s = time.perf_counter() - start
    reopened = reopen()
    if reopened.open_report:
        raise RuntimeError(f"the library check repaired the synthetic library: {reopened.open_report[:3]}")
    info = {
        "real_chunks": real,
        "filler_docs": docs,
        "chunks": reopened.chunk_count(),
        "filler_build_s": round(filler_s, 1),
    }
    return reopen, settings, info


def time_answer(question: str, library: Any, model: Any, label: str) -> dict[str, Any]:
    """One question through answer_stream: seconds to the first text delta and to Done."""
    from rag.answering.answer import answer_stream
    from rag.answering.events import Done, TextDelta

    start = time.perf_counter()
    first = None
    deltas = 0
    answer = None
    for event in answer_stream(question, library=library, chat_model=model, provider_label=label, k=K):
        if isinstance(event, TextDelta):
            deltas += 1
            first = first if first is not None else time.perf_counter() - start
        elif isinstance(event, Done):
            answer = event.answer
    total = time.perf_counter() - start
    if answer is None or first is None:
        raise RuntimeError(f"answer_stream ended without text or a final event for {question!r}")
    return {"first_s": first, "done_s": total, "deltas": deltas, "answer": answer}


def _cited_gold(answer: Any, row: dict[str, Any]) -> bool:
    pages = set(row["gold_page_indexes"])
    doc_file = Path(row["doc_file"]).name
    return any(f.evidence.file_name == doc_file and f.evidence.page_index in pages for f in answer.footnotes)


def measure_size(n: int, base_dir: str, questions: int, rounds: int, cold_runs: int) -> dict[str, Any]:
    """Child-process body: build a library of n chunks on the base, then time cold and warm questions."""
    import tempfile

    from rag.questions.read import read_question
    from rag.retrieval.retrieve import search_evidence
    from wiring import make_chat_model

    rows = load_questions(questions)
    with tempfile.TemporaryDirectory(prefix="footnote-bench-") as tmp:
        reopen, settings, info = build_library(Path(tmp), Path(base_dir), n)
        model, label = make_chat_model(settings, reopen().embeddings)
        cold = []
        for r in range(cold_runs):  # a freshly opened library: FAISS loaded, BM25 built on first use
            library = reopen()
            cold.append(time_answer(rows[r % len(rows)]["question"], library, model, label))
        parts = _time_cold_parts(library, cold_runs)
        after_build_mb = rss_mb()
        warm: list[list[dict[str, Any]]] = []
        search: list[list[float]] = []
        for _ in range(rounds):
            warm.append([time_answer(row["question"], library, model, label) for row in rows])
            search.append(
                [
                    time_call(lambda q=row["question"]: search_evidence(library, read_question(q), k=K))[0]
                    for row in rows
                ]
            )
    last = warm[-1]
    return {
        **info,
        "questions": len(rows),
        "rounds": rounds,
        "cold_runs": cold_runs,
        "cold_first_ms": round(median([c["first_s"] for c in cold]) * 1000, 1),
        "cold_done_ms": round(median([c["done_s"] for c in cold]) * 1000, 1),
        **parts,
        **_summarise_warm(warm, search),
        "deltas_median": median([t["deltas"] for t in last]),
        "answered": sum(not t["answer"].unsupported for t in last),
        "cited_gold_page": sum(_cited_gold(t["answer"], row) for t, row in zip(last, rows, strict=True)),
        "rss_after_mb": round(after_build_mb, 1),
    }


def _summarise_warm(warm: list[list[dict[str, Any]]], search: list[list[float]]) -> dict[str, float]:
    """p50 and p95 of each round, median over rounds, in milliseconds."""

    def per_round(key: str, q: float) -> float:
        return _round_ms(median([percentile([t[key] for t in r], q) for r in warm]))

    return {
        "warm_first_p50_ms": per_round("first_s", 50),
        "warm_first_p95_ms": per_round("first_s", 95),
        "warm_done_p50_ms": per_round("done_s", 50),
        "warm_done_p95_ms": per_round("done_s", 95),
        "retrieval_p50_ms": _round_ms(median([percentile(r, 50) for r in search])),
    }


def _time_cold_parts(library: Any, runs: int) -> dict[str, float]:
    """What a cold first question pays besides the answer: loading every chunk row, building BM25."""
    from rag.retrieval.lexical import LexicalIndex

    loads, builds = [], []
    for _ in range(runs):
        seconds, chunks = time_call(library.chunks)
        loads.append(seconds)
        builds.append(time_call(lambda chunks=chunks: LexicalIndex(chunks))[0])
    return {"cold_load_chunks_ms": _round_ms(median(loads)), "cold_bm25_build_ms": _round_ms(median(builds))}


def _round_ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def rows_on_base(
    target: str,
    sizes: Sequence[int],
    quick: bool,
    options: Callable[[int], dict[str, Any]],
    timeout: float = 900,
) -> list[dict[str, Any]]:
    """Ingest the squad-dev PDFs once into a base library, then measure each size on it in a child
    process of its own (``target`` is MODULE:FUNCTION, called with n, base_dir and options(n));
    each row carries the base's figures too."""
    import tempfile

    from bench.common import run_child

    if not (SQUAD / "questions.jsonl").exists():
        raise FileNotFoundError(f"the squad-dev corpus is missing at {SQUAD}")
    with tempfile.TemporaryDirectory(prefix="footnote-bench-base-") as base:
        built = run_child(
            "bench.answer:build_base", {"data_dir": base, "pdfs": QUICK_PDFS if quick else None}
        )
        return [
            {**built, **run_child(target, {"n": n, "base_dir": base, **options(n)}, timeout=timeout)}
            for n in sizes
        ]


def run(quick: bool = False) -> dict[str, Any]:
    """Each library size in its own child process; the result dict the README is written from."""
    q, r = (QUICK_QUESTIONS, QUICK_ROUNDS) if quick else (QUESTIONS, ROUNDS)
    rows = rows_on_base(
        "bench.answer:measure_size",
        QUICK_SIZES if quick else SIZES,
        quick,
        lambda n: {"questions": q, "rounds": r, "cold_runs": QUICK_COLD_RUNS if quick else COLD_RUNS[n]},
    )
    return {"rows": rows, "k": K, "markdown": render(rows)}


def render(rows: list[dict[str, Any]]) -> str:
    """The README section body for these rows."""
    lines = [
        "| chunks (real + synthetic) | first delta p50 / p95 | final event p50 / p95 | cold first question: "
        "first delta / final | answered | cited the gold page | peak memory |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['chunks']:,} ({r['real_chunks']} + {r['chunks'] - r['real_chunks']:,}) | "
            f"{r['warm_first_p50_ms']:.0f} / {r['warm_first_p95_ms']:.0f} ms | "
            f"{r['warm_done_p50_ms']:.0f} / {r['warm_done_p95_ms']:.0f} ms | "
            f"{r['cold_first_ms']:,.0f} / {r['cold_done_ms']:,.0f} ms | {r['answered']}/{r['questions']} | "
            f"{r['cited_gold_page']}/{r['questions']} | {r['child_peak_rss_mb']:,.0f} MiB |"
        )
    first = rows[0]
    return "\n".join(lines) + (
        f"\n\nOffline extractive answerer, k={K}, through `rag.answering.answer.answer_stream` (query embedding, "
        "FAISS, BM25, fusion, streaming, citations, final Answer). Warm: "
        f"{first['questions']} answerable squad-dev questions x {first['rounds']} rounds on an open "
        "library; p50 / p95 per round, median over rounds. Cold: the first question after opening the "
        "library (FAISS index loaded, BM25 index built), median of "
        + ", ".join(f"{r['cold_runs']} opens at {r['chunks']:,}" for r in rows)
        + "; of which loading "
        "every chunk row and building the BM25 index, timed on their own: "
        + ", ".join(
            f"{r['cold_load_chunks_ms']:,.0f} ms + {r['cold_bm25_build_ms']:,.0f} ms at {r['chunks']:,}"
            for r in rows
        )
        + ". "
        f"The {first['real_chunks']} real chunks are squad-dev PDFs ingested for real; "
        "the rest is synthetic filler (see `bench/answer.py`): words from the same vocabulary, "
        "random vectors. Median "
        f"{first['deltas_median']:g} text deltas per answer. Build: "
        f"real ingest {first['real_ingest_s']} s (once, copied for each size); filler "
        + ", ".join(f"{r['filler_build_s']} s for {r['chunks']:,}" for r in rows)
        + ". Retrieval alone (`search_evidence`), p50: "
        + ", ".join(f"{r['retrieval_p50_ms']:.0f} ms at {r['chunks']:,}" for r in rows)
        + "."
    )
