"""`python -m bench eval --docs-dev`: answer quality on real PDFs that are not filings (../shared/corpus/docs-dev).

MMLongBench-Doc's 100 checked questions on 26 papers, manuals, reports, brochures and court
opinions, and our own questions in bench/docs_dev/questions.jsonl when that file is there, scored
as a second set. Each question is asked of its own document only, as a user chatting with one
paper does (`python -m cli.rag ask --doc`): our retrieval is given that document's id, the dense
baseline holds that document's chunks only. A PDF the library could not add is named with its
error, and its questions are asked of nothing: they count, they are not skipped. The corpus's
PDFs are test data only: read from ../shared, never copied here.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import CORPUS, ROOT, git_commit
from rag.text import strip_markers

DOCS_DEV = CORPUS / "docs-dev"
OURS = ROOT / "bench" / "docs_dev" / "questions.jsonl"
KINDS = ("fact", "short-line", "table", "section", "list", "unanswerable")
LIST_SEPARATOR = "; "  # how docs-dev writes a list answer's items
# Quotes and dashes written one way (after NFKC), as the corpus's own verification read its pages.
UNIFY = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032`\u00b4", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
    }
)
_SOFT_BREAK = re.compile("\u00ad\\s*")  # ingest's mark of a word hyphenated across lines


def normalize(text: str) -> str:
    """NFKC, lower case, one quote and one dash, whitespace collapsed, and a word hyphenated across
    lines read as one word."""
    text = unicodedata.normalize("NFKC", _SOFT_BREAK.sub("", text)).lower().translate(UNIFY)
    return " ".join(text.split())


def holds(gold: str, text: str) -> bool:
    """Whether the answer's text (citation markers left out) holds the gold string, both normalised,
    and not inside a longer word or number: a bare '6' is not found in '16' or '2016'."""
    wanted = normalize(gold)
    pattern = rf"(?<![^\W_]){re.escape(wanted)}(?![^\W_])"
    return bool(wanted) and re.search(pattern, normalize(strip_markers(text))) is not None


def corpus_questions(folder: Path = DOCS_DEV) -> list[dict[str, Any]]:
    """docs-dev's questions in the eval's format: a list answer's items are its gold values, every
    one of which the answer must hold."""
    rows = []
    for record in _jsonl(folder / "questions.jsonl"):
        answer = record["answer"]
        items = [i.strip() for i in answer.split(LIST_SEPARATOR)] if record["answerable"] else []
        rows.append(_question(record, [i for i in items if i], "mmlongbench-doc"))
    return rows


def our_questions(path: Path = OURS) -> list[dict[str, Any]]:
    """Our own questions on the same PDFs, gold_values given (empty when the file is not there)."""
    if not path.is_file():
        return []
    return [_question(r, list(r.get("gold_values") or []), "ours") for r in _jsonl(path)]


def _question(record: dict[str, Any], gold_values: list[str], source: str) -> dict[str, Any]:
    return {
        "id": record["id"],
        "question": record["question"],
        "doc_file": Path(record["doc_file"]).name,
        "kind": record["kind"],
        "is_impossible": not record["answerable"],
        "gold_page_indexes": list(record.get("gold_page_indexes") or []),
        "gold_values": gold_values,
        "answers": [],
        "source": source,
    }


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def question_sets(folder: Path = DOCS_DEV, ours: Path = OURS) -> dict[str, list[dict[str, Any]]]:
    """The sets scored apart: the corpus's questions, then ours when the file is there."""
    sets = {"mmlongbench-doc": corpus_questions(folder)}
    mine = our_questions(ours)
    repeated = sorted({q["id"] for q in mine} & {q["id"] for q in sets["mmlongbench-doc"]})
    if repeated:  # a snapshot keys replies by id
        raise ValueError(f"{ours}: ids the corpus's questions already use: {', '.join(repeated)}")
    if mine:
        sets["ours"] = mine
    return sets


def pdf_paths(folder: Path = DOCS_DEV) -> list[Path]:
    """The corpus's PDFs, in documents.jsonl's order."""
    return [folder / row["doc_file"] for row in _jsonl(folder / "documents.jsonl")]


def doc_ids(pdfs: Sequence[Path]) -> dict[str, str]:
    """Each PDF's file name -> the id a library gives it (the sha256 of its bytes)."""
    from ingest.ids import doc_id_for

    return {p.name: doc_id_for(p.read_bytes()) for p in pdfs}


def add_pdfs(library: Any, pdfs: Sequence[Path], out: Any = sys.stderr) -> dict[str, str]:
    """Add each PDF to the library; the ones that could not be added, by file name, with the
    error's class and message (any error: one bad file must not stop the others, and is counted)."""
    failed = {}
    for n, path in enumerate(pdfs, 1):
        try:
            library.add_pdf(path.read_bytes(), path.name)
            print(f"docs-dev: {n}/{len(pdfs)} added {path.name}", file=out, flush=True)
        except Exception as exc:  # reported and counted, never silent
            failed[path.name] = f"{type(exc).__name__}: {exc}"
            print(f"docs-dev: {n}/{len(pdfs)} could not add {path.name}: {failed[path.name]}", file=out)
    return failed


@dataclass(frozen=True)
class Ingested:
    """The library the questions are asked of, and which of the corpus's PDFs it holds."""

    library: Any
    in_library: dict[str, str]  # file name -> doc id, for the PDFs the library holds
    failed: dict[str, str]  # file name -> why it is not in the library
    built: bool  # ingested by this run (False: an existing library reused)
    seconds: float


def open_library(pdfs: Sequence[Path], data_dir: Path) -> Ingested:
    """The library in data_dir: reused read-only when the folder holds anything, else built there
    from the PDFs (the ones that fail are named with their errors)."""
    from bench.eval import open_corpus_library

    started = time.perf_counter()
    ids = doc_ids(pdfs)
    reuse = data_dir.is_dir() and any(data_dir.iterdir())
    if reuse:
        from ingest.local.library import Library
        from settings import load_settings
        from wiring import make_embeddings

        embeddings, name = make_embeddings(load_settings())
        library = Library.open_reader(data_dir, embeddings, embedding_name=name)
        failed: dict[str, str] = {}
    else:
        library = open_corpus_library([], data_dir)
        failed = add_pdfs(library, pdfs)
    held = {d.doc_id for d in library.documents()}
    in_library = {name: i for name, i in ids.items() if i in held}
    for name in ids.keys() - in_library.keys() - failed.keys():
        failed[name] = f"not in the library at {data_dir} (it was built without it)"
    return Ingested(library, in_library, failed, not reuse, round(time.perf_counter() - started, 1))


def scopes(
    questions: Sequence[dict[str, Any]], in_library: Mapping[str, str]
) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """The questions grouped by their document, in first-asked order, each group with its
    document's id in the library (None: the library could not add it)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for question in questions:
        groups.setdefault(question["doc_file"], []).append(question)
    return [(in_library.get(name), group) for name, group in groups.items()]


def answer_scoped(
    questions: Sequence[dict[str, Any]],
    library: Any,
    in_library: Mapping[str, str],
    retriever_for: Callable[[str], Any],
    *,
    gate: bool,
) -> list[dict[str, Any]]:
    """Each question answered from its own document only (bench.eval.answer_all, judged there),
    in the questions' order; a question whose document is not in the library retrieves nothing."""
    from bench.eval import answer_all
    from rag.retrieval.retrieve import Retrieval

    judged: dict[str, dict[str, Any]] = {}
    for doc_id, group in scopes(questions, in_library):
        retriever = retriever_for(doc_id) if doc_id is not None else (lambda _question: Retrieval(()))
        rows = answer_all(group, retriever, gate=gate, embeddings=library.embeddings, holds=holds)
        judged.update((row["id"], {**row, "pdf_added": doc_id is not None}) for row in rows)
    return [judged[q["id"]] for q in questions]


def summarize_by_kind(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """bench.eval.summarize per question kind (KINDS' order, then any other), then over all rows,
    each with its question count and how many ask of a PDF the library could not add."""
    from bench.eval import summarize

    present = {r["kind"] for r in rows}
    kinds = [k for k in KINDS if k in present] + sorted(present - set(KINDS))
    groups = {kind: [r for r in rows if r["kind"] == kind] for kind in kinds}
    groups["all"] = list(rows)
    return {
        kind: {
            "questions": len(group),
            "on_pdf_not_added": sum(not r.get("pdf_added", True) for r in group),
            **summarize(group),
        }
        for kind, group in groups.items()
    }


def run_docs_dev(
    k: int = 6,
    data_dir: str | Path | None = None,
    baseline: bool = True,
    folder: Path = DOCS_DEV,
    ours: Path = OURS,
) -> dict[str, Any]:
    """Ingest the 26 PDFs (or reuse data_dir's library) and measure ours beside the dense baseline
    (unless ``baseline`` is False) on each question set, every question scoped to its document."""
    from bench.eval import langchain_retriever
    from rag.compute.gather import gather
    from rag.retrieval.retrieve import search_evidence

    if not folder.is_dir():
        raise FileNotFoundError(f"no docs-dev corpus at {folder}")
    load_start = round(os.getloadavg()[0], 2)
    pdfs = pdf_paths(folder)
    sets = question_sets(folder, ours)
    with tempfile.TemporaryDirectory(prefix="footnote-docs-dev-") as tmp:
        ingested = open_library(pdfs, Path(data_dir) if data_dir else Path(tmp))
        library = ingested.library

        def ours_for(doc_id: str) -> Any:  # as the answer stream retrieves for `rag ask --doc`
            return lambda q: gather(library, q, search_evidence(library, q, k=k, doc_ids=[doc_id]))

        def dense_for(doc_id: str) -> Any:
            return langchain_retriever(library, k, [doc_id])

        results = {}
        for name, questions in sets.items():
            unknown = sorted({q["doc_file"] for q in questions} - {p.name for p in pdfs})
            if unknown:
                raise ValueError(f"{name}: questions on PDFs not in docs-dev: {', '.join(unknown)}")
            mine = answer_scoped(questions, library, ingested.in_library, ours_for, gate=True)
            dense = (
                answer_scoped(questions, library, ingested.in_library, dense_for, gate=False)
                if baseline
                else []
            )
            results[name] = {
                "questions": len(questions),
                "ours_by_kind": summarize_by_kind(mine),
                "baseline_by_kind": summarize_by_kind(dense) if baseline else None,
                "rows": mine,
                "baseline_rows": dense,
            }
        documents, chunks = library.documents(), library.chunk_count()
    return {
        "corpus": "../shared/corpus/docs-dev",
        "commit": git_commit(),
        "load_average_1m": [load_start, round(os.getloadavg()[0], 2)],  # at the start, at the end
        "pdfs": len(pdfs),
        "added": len(ingested.in_library),
        "failed": dict(sorted(ingested.failed.items())),
        "built": ingested.built,
        "ingest_s": ingested.seconds,
        "documents": len(documents),
        "pages": sum(d.pages for d in documents),
        "chunks": chunks,
        "k": k,
        "sets": results,
    }


# bench.eval's figures that say nothing here: the question's document is the only one searched.
FILINGS_ONLY = frozenset({"doc_share", "sibling_share", "stranger_share"})
COLUMNS = [
    ("hit_at_k", "gold page retrieved"),
    ("gold_page_cited", "gold page cited"),
    ("answer_contains_gold", "answer holds the gold text"),
    ("answered_unanswerable", "unanswerable answered as if answerable"),
]


def render_docs_dev(result: dict[str, Any]) -> str:
    """Markdown: which PDFs the library holds, then per set a table of kinds, ours / dense, and
    bench.eval's figures over every question."""
    from bench.eval import LABELS

    verb = "built by this run" if result["built"] else "reused"
    lines = [
        f"{result['added']} of {result['pdfs']} PDFs in the library ({verb}: {result['documents']} "
        f"documents, {result['pages']} pages, {result['chunks']} chunks, {result['ingest_s']} s); "
        f"k={result['k']}, offline extractive answerer, each question asked of its own document; "
        f"commit {result['commit']}, load average {result['load_average_1m'][0]} at the start, "
        f"{result['load_average_1m'][1]} at the end.",
    ]
    if result["failed"]:
        lines += ["", "Could not be added (their questions count, asked of nothing):", ""]
        lines += [f"- {name}: {why}" for name, why in result["failed"].items()]
    for name, found in result["sets"].items():
        head = " | ".join(f"{label}: ours / dense" for _, label in COLUMNS)
        lines += [
            "",
            f"{name}: {found['questions']} questions",
            "",
            f"| kind | questions | on a PDF not added | {head} |",
            "|---|---:|---:|" + "---:|" * len(COLUMNS),
        ]
        for kind, row in found["ours_by_kind"].items():
            other = (found["baseline_by_kind"] or {}).get(kind, {})
            cells = " | ".join(f"{_cell(row.get(key))} / {_cell(other.get(key))}" for key, _ in COLUMNS)
            lines.append(f"| {kind} | {row['questions']} | {row['on_pdf_not_added']} | {cells} |")
        every, dense = found["ours_by_kind"]["all"], (found["baseline_by_kind"] or {}).get("all", {})
        lines += ["", f"| {name}, every question | ours | dense |", "|---|---:|---:|"]
        lines += [
            f"| {label} | {_cell(every.get(key))} | {_cell(dense.get(key))} |"
            for key, label in LABELS
            if key not in FILINGS_ONLY
        ]
    return "\n".join(lines)


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)
