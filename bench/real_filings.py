"""`python -m bench eval --filings-dev`: answer quality on real SEC filings (../shared/corpus/filings-dev).

The question set is FinanceBench's 26 open-sample questions on these 24 filings (their evidence
pages are the gold pages; their answers are mostly computed, so "answer contains" is not counted
for them) plus our own questions in bench/filings_dev/questions.jsonl, written blind by reading the
PDFs before retrieval was tuned (bench/filings_dev/README.md). All 24 filings go into one library,
as a user's library of annual reports would be. The corpus licence (CC-BY-NC-4.0) allows
evaluation only: the filings are read from ../shared, never copied here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.common import CORPUS, ROOT

FILINGS_DEV = CORPUS / "filings-dev"
OURS = ROOT / "bench" / "filings_dev" / "questions.jsonl"
# The answer check's own questions on the same filings (a trap and its answerable twin for each
# wording rule: bench/filings_dev/README.md); kept out of questions(), whose figures they would move.
WORDING = ROOT / "bench" / "filings_dev" / "wording_questions.jsonl"
# Round three (issue 38): analyst-shaped questions on all 51 filings, and computed metrics with their
# operands (issue 39); written blind and frozen before retrieval was tuned on them.
ANALYST = ROOT / "bench" / "filings_dev" / "analyst_questions.jsonl"
COMPUTED = ROOT / "bench" / "filings_dev" / "computed_questions.jsonl"
# Questions on the parts of a filing its organisation puts the answer in (the auditor's report, legal
# proceedings, properties, the cover, headcount, segments, customers): written to check the answer
# check's rules read off the other files; kept out of questions() like WORDING.
STRUCTURE = ROOT / "bench" / "filings_dev" / "structure_questions.jsonl"
# Questions on contracts, debt and obligations, in a filing's body or the documents filed with it:
# written to check the retrieval changes read off the structure set; kept out of questions() too.
OBLIGATIONS = ROOT / "bench" / "filings_dev" / "obligations_questions.jsonl"
FB_CATEGORIES = ROOT / "bench" / "filings_dev" / "financebench_categories.json"
# The gold figure of each computed question of OURS, read off its frozen answer (issue 39).
COMPUTED_GOLD = ROOT / "bench" / "filings_dev" / "computed_gold.json"


def financebench_questions(folder: Path = FILINGS_DEV) -> list[dict[str, Any]]:
    """FinanceBench's records in filings-dev, in the eval's format (gold pages from the evidence;
    a computed question's gold figure from its answer, read at run time, never copied here)."""
    from bench.computed import gold_figure

    categories = json.loads(FB_CATEGORIES.read_text(encoding="utf-8"))["categories"]
    rows = []
    for n, line in enumerate((folder / "questions.jsonl").read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        record = json.loads(line)
        rows.append(
            {
                "id": f"fb-{n:02d}",
                "question": record["question"],
                "doc_file": record["doc_file"],
                "gold_page_indexes": sorted({e["page_index_0based"] for e in record["evidence"]}),
                "kind": f"financebench {record['question_type']}",
                "category": categories[f"fb-{n:02d}"],
                "source": "financebench",
                "is_impossible": False,
                "answers": [],
                **(
                    {"gold_result": gold_figure(record["answer"])}
                    if categories[f"fb-{n:02d}"] == "computed"
                    else {}
                ),
            }
        )
    return rows


def our_questions(path: Path = OURS) -> list[dict[str, Any]]:
    """Our own questions on the same filings (empty when the file is not there)."""
    if not path.is_file():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    gold = json.loads(COMPUTED_GOLD.read_text(encoding="utf-8"))["figures"]
    return [
        {
            "answers": [],
            **row,
            **gold.get(row["id"], {}),
            "kind": f"ours {row.get('kind') or row.get('topic', '')}".strip(),
            "source": "ours",
        }
        for row in rows
    ]


def questions(folder: Path = FILINGS_DEV, ours: Path = OURS) -> list[dict[str, Any]]:
    """Every filings-dev question: FinanceBench's, then ours (the first set, then round three's
    analyst and computed questions, when there)."""
    mine = our_questions(ours)
    if ours == OURS:
        mine += our_questions(ANALYST) + our_questions(COMPUTED)
    return financebench_questions(folder) + mine


def filing_pdfs(folder: Path = FILINGS_DEV) -> list[Path]:
    """The 51 filings of an analyst-sized library: the 24 FinanceBench asks about and the 27 siblings."""
    return sorted((folder / "pdfs").glob("*.pdf")) + sorted((folder / "more" / "pdfs").glob("*.pdf"))


def companies(folder: Path = FILINGS_DEV) -> dict[str, str]:
    """Each filing's file name -> its company, from the corpus's documents.jsonl files."""
    found = {}
    for listing in (folder / "documents.jsonl", folder / "more" / "documents.jsonl"):
        for line in listing.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                name = Path(row["doc_file"]).name if "doc_file" in row else f"{row['doc_name']}.pdf"
                found[name] = row["company"]
    return found


def write_questions(path: Path, folder: Path = FILINGS_DEV, ours: Path = OURS) -> Path:
    """All questions as one jsonl file whose doc_file paths resolve from path's folder's sibling
    (bench.eval.run_eval reads doc_file relative to the question file)."""
    rows = [{**row, "doc_file": str(folder / row["doc_file"])} for row in questions(folder, ours)]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def named_library() -> Any:
    """The library of the 51 filings FOOTNOTE_BENCH_FD_LIBRARY names, opened read-only, else None
    (they are then ingested, which takes long here); bench answer_check reads the same variable."""
    import os

    named = os.environ.get("FOOTNOTE_BENCH_FD_LIBRARY")
    if not named:
        return None
    from ingest.local.library import Library
    from settings import load_settings
    from wiring import make_embeddings

    embeddings, name = make_embeddings(load_settings())
    return Library.open_reader(Path(named), embeddings, embedding_name=name)


def run_filings_dev(
    k: int = 6, data_dir: str | Path | None = None, library: Any = None, baseline: bool = True
) -> dict[str, Any]:
    """Ingest the 51 filings into one library (or use the given one) and measure ours beside the
    dense baseline (unless ``baseline`` is False) over every question."""
    import tempfile

    from bench.eval import run_eval

    if not FILINGS_DEV.is_dir():
        raise FileNotFoundError(f"no filings-dev corpus at {FILINGS_DEV}")
    pdfs = filing_pdfs()
    with tempfile.TemporaryDirectory(prefix="footnote-fd-qa-") as tmp:
        qa = write_questions(Path(tmp) / "questions.jsonl")
        result = run_eval(
            qa,
            None,
            k=k,
            data_dir=data_dir,
            library=library,
            pdfs=pdfs,
            companies=companies(),
            baseline=baseline,
        )
    return {**result, "qa": "../shared/corpus/filings-dev (FinanceBench's 26 + bench/filings_dev)"}
