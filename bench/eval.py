"""`python -m bench eval`: answer quality on squad-dev's 80-question sample and on generated filings.

For our retrieval (dense + BM25, fused, merged) and for the plain LangChain dense retriever
(langchain-core's InMemoryVectorStore over the same chunks with the same embeddings and k, its
as_retriever()), both answered by
the offline extractive model: the question's document and its gold page (hit@k) among the
retrieved evidence, cited-page precision, share of answerable questions whose gold page is cited,
share of answers holding the gold answer text (every gold value, for filings), answerable questions
wrongly marked unsupported, answers that quote the closest passages instead, and abstention
accuracy on unanswerable questions.
The filings are the fictional annual reports of `bench/filings`, all in one library.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.common import CORPUS, ROOT
from bench.computed import figures_by_group, judge_figure, render_figures
from rag.answering.answer import stream_answer
from rag.answering.events import Done
from rag.citations.evidence import build_evidence
from rag.compute.gather import gather
from rag.offline.extractive import ExtractiveAnswerer
from rag.questions.read import Question, read_question
from rag.retrieval.retrieve import Retrieval, search_evidence
from rag.types import Answer, Evidence

Retriever = Callable[[Question], Retrieval]
SQUAD_QA = CORPUS / "squad-dev" / "questions.jsonl"
SQUAD_SAMPLE = 80  # the fixed sample (seed 0) whose last figures were: gold page cited 0.775, answer 0.75
FILINGS_DIR = ROOT / "bench" / "out" / "filings"  # generated on every run, git-ignored
QUICK_QUESTIONS = 10
QUICK_COMPANIES = 2


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


def open_corpus_library(
    pdf_paths: Sequence[Path], data_dir: Path, embeddings: Any = None, embedding_name: str | None = None
) -> Any:
    """A library in data_dir holding these PDFs (local embeddings unless given)."""
    from ingest.local.library import Library
    from settings import load_settings
    from wiring import make_embeddings

    if embeddings is None:
        embeddings, embedding_name = make_embeddings(load_settings())
    library = Library.open(Path(data_dir), embeddings, embedding_name=embedding_name or "custom")
    for path in pdf_paths:
        library.add_pdf(Path(path).read_bytes(), Path(path).name)
    return library


def open_team_library() -> Any:
    """The team library at FOOTNOTE_DATABASE_URL, read-only, with the settings' embeddings."""
    from settings import load_settings
    from wiring import open_reader

    settings = load_settings()
    if settings.database_url is None:
        raise SystemExit("error: --team reads the library at FOOTNOTE_DATABASE_URL, which is not set")
    return open_reader(settings)


def langchain_retriever(library: Any, k: int, doc_ids: Sequence[str] | None = None) -> Retriever:
    """The plain recipe: a LangChain vector store over the library's chunks (only those of
    doc_ids, when given: a user chatting with one document), as_retriever(k).

    langchain-core's InMemoryVectorStore ranks by exact cosine similarity, as an exact FAISS index
    does on these unit-length vectors, so it needs no package beyond langchain-core."""
    from langchain_core.vectorstores import InMemoryVectorStore

    chunks = library.chunks(doc_ids)
    store = InMemoryVectorStore(library.embeddings)
    store.add_texts([c.text for c in chunks], metadatas=[{"chunk_id": c.chunk_id} for c in chunks])
    retriever = store.as_retriever(search_kwargs={"k": k})
    by_id = {c.chunk_id: c for c in chunks}
    docs = {d.doc_id: d for d in library.documents()}

    def search(question: Question) -> Retrieval:
        found = [by_id[d.metadata["chunk_id"]] for d in retriever.invoke(question.text)]
        return Retrieval(build_evidence([(c, docs[c.doc_id], 1.0) for c in found]))

    return search


def _pages(evidence: Evidence) -> set[int]:
    return {loc.page_index for loc in evidence.locators}


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def holds_text(gold: str, text: str) -> bool:
    """Whether text holds the gold string, both lower-cased with whitespace collapsed."""
    return _norm(gold) in _norm(text)


def judge(
    question: dict[str, Any],
    retrieval: Retrieval,
    answer: Answer,
    companies: dict[str, str] | None = None,
    holds: Callable[[str, str], bool] = holds_text,
) -> dict[str, Any]:
    """One question's outcome. A gold page is a page of the question's own file (page 7 of another
    report is not it). With gold_values (filings) the answer must hold every one of them (as
    ``holds`` reads a gold string in the answer's text); with SQuAD's answers, any one. With each
    file's company, the shares of evidence from another filing of the question's company and from
    another company's filings (both excluded by a question that names one company and one period,
    as every filings-dev question does)."""
    gold = set(question["gold_page_indexes"])
    doc_name = Path(question["doc_file"]).name

    def on_gold(evidence: Evidence) -> bool:
        return evidence.file_name == doc_name and bool(_pages(evidence) & gold)

    cited = [on_gold(f.evidence) for f in answer.footnotes]
    text = _norm(answer.text)
    contains: bool | None = None  # no gold text to look for (a computed figure): not counted
    if question.get("gold_values"):
        contains = all(holds(v, answer.text) for v in question["gold_values"])
    elif question.get("answers"):
        contains = any(g and g in text for g in (_norm(a["text"]) for a in question["answers"]))
    companies = companies or {}
    company = companies.get(doc_name)
    sibling = _share(
        retrieval.evidence, lambda e: e.file_name != doc_name and companies.get(e.file_name) == company
    )
    stranger = _share(retrieval.evidence, lambda e: companies.get(e.file_name) != company)
    return {
        "id": question["id"],
        "kind": question.get("kind", ""),
        "category": question.get("category", ""),
        "group": f"{question.get('source', '')} {question.get('category', '')}".strip(),
        "sibling_share": sibling if company else None,
        "stranger_share": stranger if company else None,
        "impossible": question["is_impossible"],
        "hit": any(map(on_gold, retrieval.evidence)),
        "doc_share": _share(retrieval.evidence, lambda e: e.file_name == doc_name) or 0.0,
        "cited": len(cited),
        "cited_gold": sum(cited),
        "contains": contains,
        "unsupported": answer.unsupported,
        "closest": answer.closest,
        "figure": judge_figure(question, answer),  # a computed question's figure (bench.computed)
    }


def answer_all(
    questions: Sequence[dict[str, Any]],
    retriever: Retriever,
    *,
    gate: bool,
    embeddings: Any = None,
    companies: dict[str, str] | None = None,
    holds: Callable[[str, str], bool] = holds_text,
) -> list[dict[str, Any]]:
    """Retrieve and answer every question with the extractive model (ranking sentences with these
    embeddings too, when given); one judged row each (gold strings read by ``holds``)."""
    model = ExtractiveAnswerer(embeddings=embeddings)
    rows = []
    for question in questions:
        read = read_question(question["question"])  # the edge: the one reading of the question's text
        retrieval = retriever(read)
        events = stream_answer(
            read,
            retrieval,
            chat_model=model,
            provider_label="offline extractive mode",
            check_relevance=gate,
        )
        answer = next(e.answer for e in events if isinstance(e, Done))
        rows.append(judge(question, retrieval, answer, companies, holds))
    return rows


def _share(items: Sequence[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> float | None:
    return round(sum(map(test, items)) / len(items), 3) if items else None


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures for a set of judged rows (shares in 0..1)."""
    ans = [r for r in rows if not r["impossible"]]
    imp = [r for r in rows if r["impossible"]]
    cited = sum(r["cited"] for r in ans)
    return {
        "answerable": len(ans),
        "unanswerable": len(imp),
        "doc_share": round(sum(r["doc_share"] for r in ans) / len(ans), 3) if ans else None,
        "hit_at_k": _share(ans, lambda r: r["hit"]),
        "cited_page_precision": round(sum(r["cited_gold"] for r in ans) / cited, 3) if cited else None,
        "gold_page_cited": _share(ans, lambda r: r["cited_gold"] > 0),
        "answer_contains_gold": _share(
            [r for r in ans if r["contains"] is not None], lambda r: r["contains"]
        ),
        "answered": _share(ans, lambda r: not r["unsupported"] and not r["closest"]),
        "wrongly_unsupported": _share(ans, lambda r: r["unsupported"]),
        "closest_passages": _share(ans, lambda r: r["closest"]),
        # Answered as the answer (no "closest passages") while citing no evidence page: the
        # confident quote that does not hold the evidence (issue 25).
        "answered_off_gold": _share(ans, lambda r: _answered(r) and not r["cited_gold"]),
        # Closest passages say the documents do not answer directly: an abstention, with quotes.
        "abstention_accuracy": _share(imp, lambda r: r["unsupported"] or r["closest"]),
        "answered_unanswerable": _share(imp, _answered),
        # Evidence the question excludes (issue 38): another filing of its company, another company.
        "sibling_share": _mean([r.get("sibling_share") for r in rows]),
        "stranger_share": _mean([r.get("stranger_share") for r in rows]),
    }


def _mean(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(sum(known) / len(known), 3) if known else None


def _answered(row: dict[str, Any]) -> bool:
    """Whether the reply was given as the answer: neither "do not answer" nor closest passages."""
    return not row["unsupported"] and not row["closest"]


def by_kind(rows: Sequence[dict[str, Any]], key: str = "kind") -> dict[str, dict[str, Any]]:
    """Questions, evidence page retrieved, cited, and gold value in the answer, per question kind
    (or per the value of another key: a category, a source and category)."""
    kinds = sorted({r[key] for r in rows if r.get(key)})
    return {
        kind: {
            "questions": len(group),
            "hit_at_k": _share(group, lambda r: r["hit"]),
            "gold_page_cited": _share(group, lambda r: r["cited_gold"] > 0),
            "answer_contains_gold": _share(
                [r for r in group if r["contains"] is not None], lambda r: r["contains"]
            ),
            "answered": _share(group, _answered),
            "excluded_share": _mean(
                [
                    None if r.get("sibling_share") is None else r["sibling_share"] + r["stranger_share"]
                    for r in group
                ]
            ),
        }
        for kind in kinds
        for group in [[r for r in rows if r.get(key) == kind]]
    }


def run_eval(
    qa_path: str | Path,
    limit: int | None = None,
    *,
    k: int = 6,
    seed: int = 0,
    data_dir: str | Path | None = None,
    library: Any = None,
    pdfs: Sequence[Path] | None = None,
    companies: dict[str, str] | None = None,
    baseline: bool = True,
) -> dict[str, Any]:
    """Ingest these PDFs (default: the questions' own) into one library, unless a library is given,
    and measure ours beside the baseline (with each file's company: the evidence a question
    excludes, too). Without ``baseline`` the dense baseline is skipped: it embeds every chunk
    again, and is the same on either backend."""
    qa_path = Path(qa_path)
    questions = load_questions(qa_path, limit, seed)
    with tempfile.TemporaryDirectory(prefix="footnote-eval-") as tmp:
        started = time.perf_counter()
        if library is None:
            pdfs = pdfs or sorted({qa_path.parent / q["doc_file"] for q in questions})
            library = open_corpus_library(pdfs, Path(data_dir or tmp))
        ingest_s = time.perf_counter() - started
        ours = answer_all(
            questions,
            lambda q: gather(library, q, search_evidence(library, q, k=k)),  # as the answer stream retrieves
            gate=True,
            embeddings=library.embeddings,
            companies=companies,
        )
        dense = (
            answer_all(
                questions,
                langchain_retriever(library, k),
                gate=False,
                embeddings=library.embeddings,
                companies=companies,
            )
            if baseline
            else []
        )
        documents, chunks = len(library.documents()), len(library.chunks())
    return {
        "qa": str(qa_path),
        "questions": len(questions),
        "documents": documents,
        "chunks": chunks,
        "k": k,
        "seed": seed,
        "ingest_s": round(ingest_s, 1),
        "ours": summarize(ours),
        "baseline": summarize(dense) if baseline else None,
        "ours_by_kind": by_kind(ours),
        "baseline_by_kind": by_kind(dense),
        "ours_by_group": by_kind(ours, "group"),
        "baseline_by_group": by_kind(dense, "group"),
        "ours_by_category": by_kind(ours, "category"),
        "baseline_by_category": by_kind(dense, "category"),
        "ours_figures": figures_by_group(ours),
        "baseline_figures": figures_by_group(dense),
        "rows": ours,
    }


def run_filings(quick: bool = False, k: int = 6, out_dir: str | Path | None = None) -> dict[str, Any]:
    """Generate the filings (two companies when quick, in a folder of their own), check their gold
    pages, and measure."""
    from pypdf import PdfReader

    from bench.filings import COMPANIES, check_gold, generate

    out_dir = out_dir or (FILINGS_DIR / "quick" if quick else FILINGS_DIR)
    filings = generate(out_dir, COMPANIES[:QUICK_COMPANIES] if quick else COMPANIES)
    problems = check_gold(filings)
    if problems:
        raise RuntimeError(f"generated filings in {out_dir}: gold values not on their pages: {problems[:5]}")
    result = run_eval(filings.questions, QUICK_QUESTIONS if quick else None, k=k, pdfs=filings.pdfs)
    pages = sum(len(PdfReader(p).pages) for p in filings.pdfs)
    qa = filings.questions.relative_to(ROOT) if filings.questions.is_relative_to(ROOT) else filings.questions
    return {**result, "qa": str(qa), "pages": pages}


def run(quick: bool = False) -> dict[str, Any]:
    """squad-dev's fixed sample, the real filings of filings-dev (not when quick: 24 long
    filings to ingest, or the library FOOTNOTE_BENCH_FD_LIBRARY names) and the generated filings,
    ours beside the baseline, k=6."""
    from bench.real_filings import named_library, run_filings_dev

    squad = run_eval(SQUAD_QA, QUICK_QUESTIONS if quick else SQUAD_SAMPLE)
    real = None if quick else run_filings_dev(library=named_library())
    filings = run_filings(quick)
    return {
        "squad": squad,
        "filings_dev": real,
        "filings": filings,
        "markdown": render_all(squad, filings, real),
    }


LABELS = [
    ("doc_share", "right document: share of the retrieved evidence from the question's file (answerable)"),
    ("hit_at_k", "hit@k, evidence page retrieved: gold page among retrieved evidence (answerable)"),
    ("cited_page_precision", "cited-page precision (cited sources on a gold page)"),
    ("gold_page_cited", "evidence page cited: gold page among cited pages (answerable)"),
    ("answer_contains_gold", "answer contains the gold answer text (answerable)"),
    ("answered", "answerable questions answered (neither unsupported nor closest passages)"),
    ("wrongly_unsupported", 'wrongly unsupported: answerable, answered "the documents do not answer"'),
    ("closest_passages", "closest passages quoted instead of an answer (answerable)"),
    ("answered_off_gold", "answered as the answer while citing no evidence page (answerable)"),
    ("abstention_accuracy", "unanswerable questions marked unsupported or given closest passages"),
    (
        "answered_unanswerable",
        "unanswerable questions answered as if answerable (a quote given as the answer)",
    ),
    ("sibling_share", "evidence from another filing of the question's company (excluded)"),
    ("stranger_share", "evidence from another company's filings (excluded)"),
]
KIND_LABELS = [("hit_at_k", "retrieved"), ("gold_page_cited", "cited"), ("answer_contains_gold", "answer")]
GROUP_LABELS = [*KIND_LABELS, ("answered", "answered directly"), ("excluded_share", "excluded evidence")]


def render(result: dict[str, Any]) -> str:
    """A markdown table of ours beside the baseline (and per question kind, when there are kinds)."""
    ours, base = result["ours"], result["baseline"] or {}  # None: run with --no-baseline
    lines = [
        f"{result['questions']} questions ({ours['answerable']} answerable, {ours['unanswerable']} not) over "
        f"{result.get('documents', '?')} documents ({result.get('chunks', '?')} chunks) in one library, "
        f"k={result['k']}, offline extractive answerer; ingest {result['ingest_s']} s",
        "",
        "| figure | hybrid (ours) | LangChain dense retriever |",
        "|---|---|---|",
    ]
    lines += [f"| {label} | {ours.get(key)} | {base.get(key, '-')} |" for key, label in LABELS]
    if result.get("ours_by_group"):  # filings-dev: per kind of question, FinanceBench's apart from ours
        lines += ["", *_kind_table(result, "group", GROUP_LABELS, "source and kind")]
        lines += ["", *_kind_table(result, "category", GROUP_LABELS, "kind (both sources)")]
        figures = render_figures(result.get("ours_figures", {}), result.get("baseline_figures"))
        lines += ["", *figures] if figures else []
    elif result.get("ours_by_kind"):
        lines += ["", *_kind_table(result, "kind", KIND_LABELS, "kind")]
    return "\n".join(lines)


def _kind_table(result: dict[str, Any], key: str, labels: list[tuple[str, str]], title: str) -> list[str]:
    """One row per value of key: questions, then ours / dense for each figure."""
    head = " | ".join(f"{name}: ours / dense" for _, name in labels)
    lines = [f"| {title} | questions | {head} |", "|---|---:|" + "---:|" * len(labels)]
    for kind, row in result[f"ours_by_{key}"].items():
        other = (result.get(f"baseline_by_{key}") or {}).get(kind, {})
        cells = " | ".join(f"{row[k]} / {other.get(k, '-')}" for k, _ in labels)
        lines.append(f"| {kind} | {row['questions']} | {cells} |")
    return lines


def render_all(squad: dict[str, Any], filings: dict[str, Any], real: dict[str, Any] | None = None) -> str:
    """The README section: squad-dev's sample, the real filings (the target), the generated filings."""
    real_part = (
        [
            f"### Real filings (filings-dev: {real['documents']} SEC filings, FinanceBench's questions and ours)",
            "",
            render(real),
            "",
            "This is the target set. Gold pages are FinanceBench's evidence pages and, for our questions, the "
            'pages we found by reading the PDFs (bench/filings_dev/README.md). "Answer contains" counts only '
            "questions with a gold string (not FinanceBench's computed answers).",
            "",
        ]
        if real
        else []
    )
    return "\n".join(
        [
            f"### squad-dev, fixed sample (`--limit {SQUAD_SAMPLE}`, seed 0)",
            "",
            render(squad),
            "",
            "Recorded earlier on this sample: gold page cited 0.775, answer contains the gold text 0.75.",
            "",
            *real_part,
            f"### Generated filings (synthetic, `bench/filings`: {filings['documents']} fictional 10-K-style "
            f"annual reports, {filings['pages']} pages)",
            "",
            render(filings),
            "",
            "Gold pages are where the generator printed each value (checked with pypdf before measuring); an "
            "answer holds the gold value when every gold string is in its text. See the introduction above.",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    """The eval command line."""
    parser = argparse.ArgumentParser(prog="python -m bench eval", description=__doc__)
    parser.add_argument("--qa", type=Path, help="questions.jsonl (squad-dev format)")
    parser.add_argument("--filings", action="store_true", help="the generated filings instead of --qa")
    parser.add_argument(
        "--filings-dev", action="store_true", help="the real filings of ../shared/corpus/filings-dev"
    )
    parser.add_argument(
        "--docs-dev",
        action="store_true",
        help="the real PDFs of ../shared/corpus/docs-dev, each question asked of its own document",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="with --filings-dev: a library of the 24 filings to reuse; with --docs-dev: the library "
        "of the 26 PDFs, reused when the folder holds anything, else built there",
    )
    parser.add_argument(
        "--team",
        action="store_true",
        help="with --filings-dev: the filings already in PostgreSQL at FOOTNOTE_DATABASE_URL (team mode; "
        "`python -m cli.ingest migrate --to URL` copies a local library there)",
    )
    parser.add_argument(
        "--no-baseline", action="store_true", help="skip the dense baseline (it embeds every chunk again)"
    )
    parser.add_argument("--limit", type=int, default=None, help="a fixed sample of N questions")
    parser.add_argument("--k", type=int, default=6, help="evidence per question")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if args.docs_dev:
        from bench.real_docs import render_docs_dev, run_docs_dev

        docs = run_docs_dev(k=args.k, data_dir=args.data_dir, baseline=not args.no_baseline)
        print(json.dumps(docs, indent=2) if args.json else render_docs_dev(docs))
        return 0
    if args.filings_dev:
        from bench.real_filings import run_filings_dev

        library = None
        if args.team:
            library = open_team_library()
        elif args.data_dir is not None:
            library = open_corpus_library([], args.data_dir)
        result = run_filings_dev(k=args.k, library=library, baseline=not args.no_baseline)
    elif args.filings:
        result = run_filings(k=args.k)
    elif args.qa is None or not args.qa.is_file():
        print(f"error: no question file at {args.qa} (give --qa PATH.jsonl, or --filings)", file=sys.stderr)
        return 2
    else:
        result = run_eval(args.qa, args.limit, k=args.k, seed=args.seed, baseline=not args.no_baseline)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
