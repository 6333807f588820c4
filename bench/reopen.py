"""Reopen: open a 100,000-chunk library and ask the first question, with the saved BM25 index
(rag/retrieval/lexical_store.py) and document profiles (rag/retrieval/filings/profile_store.py) against rebuilding both (what
every reopen did before they were saved).

What is real: the squad-dev PDFs ingested through Library.add_pdf with the app's local embeddings,
the questions (answerable squad-dev questions), opening the library the way the app answers
(``Library.open_reader``: SQLite, FAISS index read from disk) and the whole answer path,
rag.answering.answer.answer_stream with the offline extractive answerer. What is synthetic: the filler
that brings the library to 100,000 chunks, made exactly as bench/answer.py makes it (squad-dev
vocabulary at its own word frequencies, random vectors), stored through ingest.local.store/vectors.

The embedding model is loaded once beforehand (the app keeps it across reopens; its load time
does not depend on the library). Each run opens a new Library object in this process, so the
index and profiles are either rebuilt or read from data_dir/lexical/<generation>/ and
data_dir/profiles/<generation>.json. Rebuild runs have saving switched off and the saved files set
aside (as before), saved runs read the files one first open saved; the two kinds alternate, in the
same process and library.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from bench.common import median, time_call

SIZES = (100_000,)
QUICK_SIZES = (300,)
RUNS, QUICK_RUNS = 3, 2


def _reader(data_dir: Path, settings: Any, models: tuple[Any, str]) -> Any:
    """The library opened as the app opens it for answering (embedding model already loaded)."""
    from ingest.local.library import Library
    from wiring import library_options, library_settings

    embeddings, name = models
    return Library.open_reader(data_dir, embeddings, config=library_settings(library_options(settings), name))


def _open_and_ask(data_dir: Path, settings: Any, models: tuple[Any, str], question: str) -> dict[str, Any]:
    """Seconds to open the library, and to the first text delta / final event of one question."""
    from bench.answer import time_answer
    from rag.retrieval.retrieve import document_profiles, lexical_index
    from wiring import make_chat_model

    start = time.perf_counter()
    library = _reader(data_dir, settings, models)
    opened = time.perf_counter() - start
    model, label = make_chat_model(settings, library.embeddings)
    answer = time_answer(question, library, model, label)
    return {
        "open_s": opened,
        "first_s": opened + answer["first_s"],
        "done_s": opened + answer["done_s"],
        "saved": lexical_index(library).saved,
        "saved_profiles": document_profiles(library).saved,
    }


def measure_size(n: int, base_dir: str, runs: int) -> dict[str, Any]:
    """Child-process body: a library of n chunks, then alternating rebuild and saved reopens."""
    import tempfile

    from bench.answer import build_library, load_questions
    from rag.retrieval import lexical_store
    from rag.retrieval.filings import profile_store
    from rag.retrieval.filings.profiles import build_profiles, profiles_for
    from wiring import make_embeddings

    rows = load_questions(runs)
    with tempfile.TemporaryDirectory(prefix="footnote-bench-reopen-") as tmp:
        data_dir = Path(tmp)
        _, settings, info = build_library(data_dir, Path(base_dir), n)
        models = make_embeddings(settings)  # loaded once, as the app keeps it across reopens
        saves = lexical_store.save, profile_store.save
        first_save = _open_and_ask(data_dir, settings, models, rows[0]["question"])  # builds and saves
        folders = [data_dir / lexical_store.FOLDER, data_dir / profile_store.FOLDER]
        saved_bytes = sum(p.stat().st_size for f in folders for p in f.rglob("*") if p.is_file())
        rebuild, saved = [], []
        for r in range(runs):
            # As before: nothing saved, nothing read.
            lexical_store.save = profile_store.save = lambda *_args, **_kw: None
            for folder in folders:
                folder.rename(folder.with_name(folder.name + "-aside"))
            rebuild.append(_open_and_ask(data_dir, settings, models, rows[r]["question"]))
            lexical_store.save, profile_store.save = saves
            for folder in folders:
                folder.with_name(folder.name + "-aside").rename(folder)
            saved.append(_open_and_ask(data_dir, settings, models, rows[r]["question"]))
            if not (saved[-1]["saved"] and saved[-1]["saved_profiles"]):
                raise RuntimeError("the saved run rebuilt the index or the profiles instead of reading them")
            if rebuild[-1]["saved"] or rebuild[-1]["saved_profiles"]:
                raise RuntimeError("the rebuild run read a saved index or saved profiles")
        library = _reader(data_dir, settings, models)
        load_chunks_s = median([time_call(library.chunks)[0] for _ in range(runs)])
        chunk_keys_s = median([time_call(library.chunk_keys)[0] for _ in range(runs)])
        profiles_s = median([time_call(lambda: build_profiles(library))[0] for _ in range(runs)])
        saved_profiles_s = median([time_call(lambda: profiles_for(library))[0] for _ in range(runs)])
    return {
        **info,
        "runs": runs,
        "saved_mib": round(saved_bytes / 2**20, 1),
        "first_open_with_save_ms": _ms(first_save["done_s"]),
        "load_chunks_ms": _ms(load_chunks_s),
        "chunk_keys_ms": _ms(chunk_keys_s),
        "document_profiles_ms": _ms(profiles_s),
        "saved_profiles_ms": _ms(saved_profiles_s),
        **_summary("rebuild", rebuild),
        **_summary("saved", saved),
    }


def _summary(kind: str, runs: list[dict[str, Any]]) -> dict[str, float]:
    return {
        f"{kind}_open_ms": _ms(median([r["open_s"] for r in runs])),
        f"{kind}_first_ms": _ms(median([r["first_s"] for r in runs])),
        f"{kind}_done_ms": _ms(median([r["done_s"] for r in runs])),
    }


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def run(quick: bool = False) -> dict[str, Any]:
    """Each size in its own child process; the result dict the README is written from."""
    from bench.answer import rows_on_base

    rows = rows_on_base(
        "bench.reopen:measure_size",
        QUICK_SIZES if quick else SIZES,
        quick,
        lambda n: {"runs": QUICK_RUNS if quick else RUNS},
    )
    return {"rows": rows, "markdown": render(rows)}


def render(rows: list[dict[str, Any]]) -> str:
    """The README section body for these rows."""
    header = (
        "| chunks (real + synthetic) | open + first question, saved index and profiles | rebuilt | "
        "rebuild / saved | of which opening | first open (build + save) | saved on disk |"
    )
    lines = [header, "|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(
            f"| {r['chunks']:,} ({r['real_chunks']} + {r['chunks'] - r['real_chunks']:,}) | "
            f"{r['saved_done_ms']:,.0f} ms | {r['rebuild_done_ms']:,.0f} ms | "
            f"{r['rebuild_done_ms'] / r['saved_done_ms']:.1f}x | {r['saved_open_ms']:,.0f} ms | "
            f"{r['first_open_with_save_ms']:,.0f} ms | {r['saved_mib']:,} MiB |"
        )
    first = rows[0]
    return "\n".join(lines) + (
        "\n\nOpen + first question: `Library.open_reader` (as the app answers) and one squad-dev question "
        "through `rag.answering.answer.answer_stream` with the offline extractive answerer, to its final event; "
        f"median of {first['runs']} runs of each kind (the same questions), alternating in one process on one library. Saved: "
        "the BM25 index read (memory-mapped) from `data_dir/lexical/<generation>/` and the document "
        "profiles of rag/retrieval/documents.py from `data_dir/profiles/<generation>.json`; rebuilt: both "
        "tokenized and built again, as every reopen did before they were saved. A rebuild reads every chunk row ("
        + ", ".join(f"{r['load_chunks_ms']:,.0f} ms at {r['chunks']:,}" for r in rows)
        + "); the saved index reads only ids and lengths (`Library.chunk_keys`, "
        + ", ".join(f"{r['chunk_keys_ms']:,.0f} ms" for r in rows)
        + ") and the rows of its hits. Building the document profiles (every document's first pages "
        "read and tokenized) took "
        + ", ".join(f"{r['document_profiles_ms']:,.0f} ms at {r['chunks']:,}" for r in rows)
        + "; reading the saved ones (documents listed, file checked and parsed) "
        + ", ".join(f"{r['saved_profiles_ms']:,.0f} ms" for r in rows)
        + ". "
        "First open: the process's first question, which also warms up the embedding model. "
        f"The {first['real_chunks']} real chunks are squad-dev PDFs ingested for real; the rest is "
        "synthetic filler made as in the answer benchmark (`bench/answer.py`)."
    )
