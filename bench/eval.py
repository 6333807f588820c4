"""`python -m bench eval --qa PATH.jsonl [--limit N]`: answer quality on SQuAD-style questions.

For our retrieval (dense + BM25, fused, merged) and for the plain LangChain dense retriever
(langchain_community FAISS over the same chunks with the same embeddings and k), both answered by
the offline extractive model: hit@k of the gold page among the retrieved evidence, cited-page
precision, share of answers holding the gold answer text, share of answerable questions whose gold
page is cited, and abstention accuracy on unanswerable questions.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rag.answer import stream_answer
from rag.evidence import build_evidence
from rag.extractive import ExtractiveChatModel
from rag.retrieve import Retrieval, search_evidence
from rag.types import Answer, Done, Evidence

Retriever = Callable[[str], Retrieval]


def load_questions(qa_path: Path, limit: int | None = None, seed: int = 0) -> list[dict[str, Any]]:
    """The questions; with a limit, a fixed sample, half answerable and half not when possible."""
    lines = Path(qa_path).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    if limit is None or limit >= len(rows):
        return rows
    rows.sort(key=lambda r: r["id"])
    answerable = [r for r in rows if not r["is_impossible"]]
    impossible = [r for r in rows if r["is_impossible"]]
    n_imp = min(len(impossible), limit // 2)
    n_ans = min(len(answerable), limit - n_imp)
    rng = random.Random(seed)
    return rng.sample(answerable, n_ans) + rng.sample(impossible, min(len(impossible), limit - n_ans))


def open_corpus_library(pdf_paths: Sequence[Path], data_dir: Path, embeddings: Any = None,
                        embedding_name: str | None = None) -> Any:
    """A library in data_dir holding these PDFs (local embeddings unless given)."""
    from ingest.embeddings import make_embeddings
    from ingest.library import Library
    from settings import load_settings

    if embeddings is None:
        embeddings, embedding_name = make_embeddings(load_settings())
    library = Library.open(Path(data_dir), embeddings, embedding_name=embedding_name or "custom")
    for path in pdf_paths:
        library.add_pdf(Path(path).read_bytes(), Path(path).name)
    return library


def langchain_retriever(library: Any, k: int) -> Retriever:
    """The plain recipe: FAISS.from_texts over the library's chunks, similarity_search(k)."""
    with warnings.catch_warnings():
        # The baseline is the plain recipe as people still write it; the package warns that it is
        # being sunset. SEE: https://github.com/langchain-ai/langchain-community/issues/674
        warnings.filterwarnings("ignore", message="`langchain-community` is being sunset",
                                category=DeprecationWarning)
        from langchain_community.vectorstores import FAISS

    chunks = library.chunks()
    store = FAISS.from_texts([c.text for c in chunks], library.embeddings,
                             metadatas=[{"chunk_id": c.chunk_id} for c in chunks])
    by_id = {c.chunk_id: c for c in chunks}
    docs = {d.doc_id: d for d in library.documents()}

    def search(question: str) -> Retrieval:
        found = [by_id[d.metadata["chunk_id"]] for d in store.similarity_search(question, k=k)]
        return Retrieval(build_evidence([(c, docs[c.doc_id], 1.0) for c in found]))

    return search


def _pages(evidence: Evidence) -> set[int]:
    return {loc.page_index for loc in evidence.locators}


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def judge(question: dict[str, Any], retrieval: Retrieval, answer: Answer) -> dict[str, Any]:
    """One question's outcome."""
    gold = set(question["gold_page_indexes"])
    cited = [bool(_pages(f.evidence) & gold) for f in answer.footnotes]
    golds = [_norm(a["text"]) for a in question["answers"]]
    return {
        "id": question["id"],
        "impossible": question["is_impossible"],
        "hit": any(_pages(e) & gold for e in retrieval.evidence),
        "cited": len(cited),
        "cited_gold": sum(cited),
        "contains": any(g and g in _norm(answer.text) for g in golds),
        "unsupported": answer.unsupported,
        "closest": answer.closest,
    }


def answer_all(
    questions: Sequence[dict[str, Any]], retriever: Retriever, *, gate: bool, embeddings: Any = None
) -> list[dict[str, Any]]:
    """Retrieve and answer every question with the extractive model (ranking sentences with these
    embeddings too, when given); one judged row each."""
    model = ExtractiveChatModel(embeddings=embeddings)
    rows = []
    for question in questions:
        retrieval = retriever(question["question"])
        events = stream_answer(question["question"], retrieval, chat_model=model,
                               provider_label="offline extractive mode", check_relevance=gate)
        answer = next(e.answer for e in events if isinstance(e, Done))
        rows.append(judge(question, retrieval, answer))
    return rows


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures for a set of judged rows (shares in 0..1)."""
    ans = [r for r in rows if not r["impossible"]]
    imp = [r for r in rows if r["impossible"]]
    cited = sum(r["cited"] for r in ans)

    def share(items: Sequence[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> float | None:
        return round(sum(map(test, items)) / len(items), 3) if items else None

    return {
        "answerable": len(ans),
        "unanswerable": len(imp),
        "hit_at_k": share(ans, lambda r: r["hit"]),
        "cited_page_precision": round(sum(r["cited_gold"] for r in ans) / cited, 3) if cited else None,
        "gold_page_cited": share(ans, lambda r: r["cited_gold"] > 0),
        "answer_contains_gold": share(ans, lambda r: r["contains"]),
        "answered": share(ans, lambda r: not r["unsupported"] and not r["closest"]),
        "closest": share(ans, lambda r: r["closest"]),
        # Closest passages say the documents do not answer directly: an abstention, with quotes.
        "abstention_accuracy": share(imp, lambda r: r["unsupported"] or r["closest"]),
    }


def run_eval(qa_path: str | Path, limit: int | None = None, *, k: int = 6, seed: int = 0,
             data_dir: str | Path | None = None, library: Any = None) -> dict[str, Any]:
    """Ingest the questions' PDFs (unless a library is given) and measure ours beside the baseline."""
    qa_path = Path(qa_path)
    questions = load_questions(qa_path, limit, seed)
    with tempfile.TemporaryDirectory(prefix="footnote-eval-") as tmp:
        started = time.perf_counter()
        if library is None:
            pdfs = sorted({qa_path.parent / q["doc_file"] for q in questions})
            library = open_corpus_library(pdfs, Path(data_dir or tmp))
        ingest_s = time.perf_counter() - started
        ours = answer_all(questions, lambda q: search_evidence(library, q, k=k), gate=True,
                          embeddings=library.embeddings)
        baseline = answer_all(questions, langchain_retriever(library, k), gate=False,
                              embeddings=library.embeddings)
    return {
        "qa": str(qa_path),
        "questions": len(questions),
        "k": k,
        "seed": seed,
        "ingest_s": round(ingest_s, 1),
        "ours": summarize(ours),
        "baseline": summarize(baseline),
    }


LABELS = [
    ("hit_at_k", "hit@k: gold page among retrieved evidence (answerable)"),
    ("cited_page_precision", "cited-page precision (cited sources on a gold page)"),
    ("gold_page_cited", "gold page among cited pages (answerable)"),
    ("answer_contains_gold", "answer contains the gold answer text (answerable)"),
    ("answered", "answerable questions answered (not marked unsupported)"),
    ("closest", "answerable questions given closest passages instead of an answer"),
    ("abstention_accuracy", "unanswerable questions marked unsupported or given closest passages"),
]


def render(result: dict[str, Any]) -> str:
    """A markdown table of ours beside the baseline."""
    ours, base = result["ours"], result["baseline"]
    lines = [
        f"{result['questions']} questions ({ours['answerable']} answerable, {ours['unanswerable']} not), "
        f"k={result['k']}, offline extractive answerer",
        "",
        "| figure | hybrid (ours) | LangChain FAISS dense |",
        "|---|---|---|",
    ]
    lines += [f"| {label} | {ours[key]} | {base[key]} |" for key, label in LABELS]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """The eval command line."""
    parser = argparse.ArgumentParser(prog="python -m bench eval", description=__doc__)
    parser.add_argument("--qa", type=Path, required=True, help="questions.jsonl (squad-dev format)")
    parser.add_argument("--limit", type=int, default=None, help="a fixed sample of N questions")
    parser.add_argument("--k", type=int, default=6, help="evidence per question")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if not args.qa.is_file():
        print(f"error: no question file at {args.qa}", file=sys.stderr)
        return 2
    result = run_eval(args.qa, args.limit, k=args.k, seed=args.seed)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
