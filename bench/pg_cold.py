"""Team mode, cold start: time to the first answer after opening a 100,000-chunk library, in
PostgreSQL against the local library (FAISS + SQLite with its saved BM25 index).

The library is bench/reopen.py's: the squad-dev PDFs ingested for real with the local embeddings,
plus synthetic filler up to 100,000 chunks made as bench/answer.py makes it (squad-dev
vocabulary at its own word frequencies, random vectors). The same documents, pages, PDFs,
chunks and vectors (read back from the FAISS index) are then COPYed into PostgreSQL 16 +
pgvector (pgserver) by bench/pg_common.py, HNSW index with the settings' defaults built after.

Each run opens a new library object in this process, the way the app answers
(``open_reader``: ``Library`` for local, ``ingest.backend.library_class`` with
FOOTNOTE_DATABASE_URL for PostgreSQL), and asks one squad-dev question through
``rag.answering.answer.answer_stream`` (offline extractive answerer, k=6) to its final event. Nothing is
kept between runs but the embedding model (loaded once, as the app keeps it), the operating
system's file cache and PostgreSQL's shared buffers. Before the timed runs each library answers
once (local: builds and saves its BM25 index; PostgreSQL: its first reads); then the two kinds
alternate over the same questions.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import median, time_call

SIZES, QUICK_SIZES = (100_000,), (300,)
RUNS, QUICK_RUNS = 3, 2


def copy_to_postgres(local: Any, url: str, name: str, settings: Any) -> dict[str, Any]:
    """Every document, page, PDF, chunk and vector of the local library into the database."""
    import numpy as np

    from bench.pg_common import bulk_load
    from ingest.local import queries, store, vectors
    from ingest.team.store import DEFAULT_HNSW

    docs = [(d, local.pages(d.doc_id), local.pdf_bytes(d.doc_id)) for d in local.documents()]
    with store.connect(local.db_path, read_only=True) as conn:
        rows = queries.ready_chunks(conn)
    index = vectors.load_index(local.index_path)
    matrix = np.vstack([index.reconstruct(int(v)) for v, _ in rows]).astype(np.float32)
    recorded = {
        "embedding_name": name,
        "chunk_size": settings.chunk_size,
        "chunk_overlap": settings.chunk_overlap,
    }
    return bulk_load(url, docs, [c for _, c in rows], matrix, recorded, DEFAULT_HNSW)


def _open_and_ask(open_reader: Any, settings: Any, models: tuple[Any, str], question: str) -> dict[str, Any]:
    """Seconds to open the library, and to the first text delta / final event of one question."""
    from bench.answer import time_answer
    from wiring import library_options, library_settings, make_chat_model

    embeddings, name = models
    config = library_settings(library_options(settings), name)
    start = time.perf_counter()
    library = open_reader(settings.data_dir, embeddings, config=config)
    opened = time.perf_counter() - start
    model, label = make_chat_model(settings, embeddings)
    answer = time_answer(question, library, model, label)
    return {
        "open_s": opened,
        "first_s": opened + answer["first_s"],
        "done_s": opened + answer["done_s"],
        "answered": not answer["answer"].unsupported,
        "library": library,
    }


def _parts(library: Any, question: str, runs: int) -> dict[str, float]:
    """What a first question pays, timed on its own on an open library (ms; medians of runs, the
    document profiles once)."""
    from rag.questions.read import read_question
    from rag.retrieval.filings.profiles import build_profiles
    from rag.retrieval.retrieve import lexical_index, search_evidence

    vector = library.embeddings.embed_query(question)
    return {
        "profiles_ms": _ms(time_call(lambda: build_profiles(library))[0]),  # once: long on PostgreSQL
        "lexical_ms": _ms(
            median([time_call(lambda: lexical_index(library).search(question, 24))[0] for _ in range(runs)])
        ),
        "dense_ms": _ms(
            median([time_call(lambda: library.search_vector(vector, 24))[0] for _ in range(runs)])
        ),
        "search_evidence_ms": _ms(
            median(
                [
                    time_call(lambda: search_evidence(library, read_question(question), k=6))[0]
                    for _ in range(runs)
                ]
            )
        ),
    }


def measure_size(n: int, base_dir: str, runs: int) -> dict[str, Any]:
    """Child-process body: the local library of n chunks, its copy in PostgreSQL, alternating opens."""
    from pydantic import SecretStr

    from bench.answer import build_library, load_questions
    from bench.pg_common import new_database, pg_server, relation_mib, server_versions
    from ingest.backend import library_class
    from ingest.local.library import Library
    from ingest.team import store as pg_store
    from wiring import make_embeddings

    rows = load_questions(runs)
    with tempfile.TemporaryDirectory(prefix="footnote-bench-pg-cold-") as tmp:
        data_dir = Path(tmp)
        reopen, settings, info = build_library(data_dir, Path(base_dir), n)
        models = make_embeddings(settings)  # loaded once, as the app keeps it across reopens
        with pg_server() as server:
            url = new_database(server)
            started = time.perf_counter()
            built = copy_to_postgres(reopen(), url, models[1], settings)
            copy_s = time.perf_counter() - started
            pg_settings = settings.model_copy(update={"database_url": SecretStr(url)})
            pg_open = library_class(pg_settings).open_reader
            local_open = Library.open_reader
            first_local = _open_and_ask(
                local_open, settings, models, rows[0]["question"]
            )  # builds, saves BM25
            first_pg = _open_and_ask(pg_open, pg_settings, models, rows[0]["question"])
            local, pg = [], []
            for r in range(runs):
                question = rows[r]["question"]
                local.append(_open_and_ask(local_open, settings, models, question))
                pg.append(_open_and_ask(pg_open, pg_settings, models, question))
            parts_local = _parts(local[-1]["library"], rows[0]["question"], runs)
            parts_pg = _parts(pg[-1]["library"], rows[0]["question"], runs)
            if pg[-1]["library"].chunk_count() != local[-1]["library"].chunk_count():
                raise RuntimeError("the PostgreSQL copy does not hold the local library's chunks")
            versions = server_versions(url)
            db_mib = relation_mib(url, "footnote_chunks")
    return {
        **info,
        "runs": runs,
        "copy_s": round(copy_s, 1),
        "hnsw": {"m": pg_store.DEFAULT_HNSW.m, "ef_construction": pg_store.DEFAULT_HNSW.ef_construction},
        **built,
        "pg_chunks_mib": db_mib,
        **versions,
        "first_local_done_ms": _ms(first_local["done_s"]),
        "first_pg_done_ms": _ms(first_pg["done_s"]),
        **_summary("local", local),
        **_summary("pg", pg),
        **{f"local_{k}": v for k, v in parts_local.items()},
        **{f"pg_{k}": v for k, v in parts_pg.items()},
    }


def _summary(kind: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        f"{kind}_open_ms": _ms(median([r["open_s"] for r in runs])),
        f"{kind}_first_ms": _ms(median([r["first_s"] for r in runs])),
        f"{kind}_done_ms": _ms(median([r["done_s"] for r in runs])),
        f"{kind}_answered": sum(r["answered"] for r in runs),
    }


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def run(quick: bool = False) -> dict[str, Any]:
    """Each size in its own child process; the result dict the README is written from."""
    from bench.answer import rows_on_base

    rows = rows_on_base(
        "bench.pg_cold:measure_size",
        QUICK_SIZES if quick else SIZES,
        quick,
        lambda n: {"runs": QUICK_RUNS if quick else RUNS},
        timeout=1800,
    )
    return {"rows": rows, "markdown": render(rows)}


def render(rows: list[dict[str, Any]]) -> str:
    """The README section body."""
    lines = [
        "| chunks (real + synthetic) | library | open + first question (final event) | of which opening | "
        "PostgreSQL / local |",
        "|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        label = f"{r['chunks']:,} ({r['real_chunks']} + {r['chunks'] - r['real_chunks']:,})"
        lines.append(
            f"| {label} | local (FAISS + SQLite, saved BM25 index) | {r['local_done_ms']:,.0f} ms | "
            f"{r['local_open_ms']:,.0f} ms | 1.00x |"
        )
        lines.append(
            f"| {label} | PostgreSQL + pgvector | {r['pg_done_ms']:,.0f} ms | {r['pg_open_ms']:,.0f} ms | "
            f"**{r['pg_done_ms'] / r['local_done_ms']:.2f}x** |"
        )
    first = rows[0]
    hnsw = first.get("hnsw", {"m": 16, "ef_construction": 64})  # results from before it was recorded: 16/64

    def each(key: str) -> str:
        return ", ".join(f"{r[key]:,.0f} ms" for r in rows)

    def seconds(key: str) -> str:
        return ", ".join(f"{r[key]} s" for r in rows)

    return "\n".join(lines) + (
        "\n\nOpen + first question: `open_reader` (local `Library`; PostgreSQL through "
        "`ingest.backend.library_class` with FOOTNOTE_DATABASE_URL) and one squad-dev question through "
        "`rag.answering.answer.answer_stream` with the offline extractive answerer to its final event; median of "
        f"{first['runs']} runs of each kind, alternating in one process (embedding model loaded once, as "
        "the app keeps it; file cache and PostgreSQL's buffers warm). Neither builds a search index: "
        "local reads its saved BM25 index, PostgreSQL has its full-text GIN and HNSW indexes. Timed on "
        "their own on an open library (local / PostgreSQL): the document profiles of rag/retrieval/documents.py "
        f"{each('local_profiles_ms')} / {each('pg_profiles_ms')}; lexical search (24 candidates) "
        f"{each('local_lexical_ms')} / {each('pg_lexical_ms')}; dense search {each('local_dense_ms')} / "
        f"{each('pg_dense_ms')}; the whole retrieval (`search_evidence`, k=6) {each('local_search_evidence_ms')} "
        f"/ {each('pg_search_evidence_ms')}. The first answer of each library before the timed runs: local "
        f"{each('first_local_done_ms')} (builds and saves its BM25 index), PostgreSQL {each('first_pg_done_ms')}. "
        f"The {first['real_chunks']} real chunks are squad-dev PDFs ingested for real; the rest is synthetic "
        "filler made as in `bench/answer.py`; the copy into PostgreSQL (COPY of every row, then the HNSW "
        f"index, m {hnsw['m']}, ef_construction {hnsw['ef_construction']}) took {seconds('copy_s')}, of which the "
        f"index {seconds('index_build_s')}; PostgreSQL "
        f"{first.get('postgresql')} + pgvector {first.get('pgvector')} (pgserver, unix socket)."
    )
