"""Check bench/docs_dev's questions against the PDFs: `python -m bench.docs_dev.check [FILE]`.

Every doc_file must be a PDF of ../shared/corpus/docs-dev, every gold page a page of it, and every
gold value must appear, normalised (``bench.real_docs.normalize``), in both pypdf's and pypdfium2's text of one of
its gold pages. Prints each problem and exits 1 if there is any.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from bench.common import CORPUS
from bench.real_docs import normalize

QUESTIONS = Path(__file__).resolve().parent / "questions.jsonl"
PDFS = CORPUS / "docs-dev" / "pdfs"
KINDS = frozenset({"fact", "short-line", "table", "section", "list", "unanswerable"})
FIELDS = (
    "id",
    "question",
    "doc_file",
    "kind",
    "answerable",
    "gold_page_indexes",
    "gold_values",
    "answer",
    "note",
)


def load_questions(path: Path = QUESTIONS) -> list[dict]:
    """The question rows of a JSONL file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def schema_problems(rows: Iterable[dict]) -> list[str]:
    """Rows that break the format: fields, unknown kind, duplicate id or question, gold that
    contradicts ``answerable``."""
    problems: list[str] = []
    ids: set[str] = set()
    questions: set[str] = set()
    for row in rows:
        rid = row.get("id", "?")
        if tuple(row) != FIELDS:
            problems.append(f"{rid}: fields must be {', '.join(FIELDS)}")
            continue
        if rid in ids:
            problems.append(f"{rid}: duplicate id")
        if normalize(row["question"]) in questions:
            problems.append(f"{rid}: duplicate question")
        ids.add(rid)
        questions.add(normalize(row["question"]))
        if row["kind"] not in KINDS:
            problems.append(f"{rid}: unknown kind {row['kind']!r}")
        if row["answerable"] != (row["kind"] != "unanswerable"):
            problems.append(f"{rid}: answerable must be false exactly for kind 'unanswerable'")
        has_gold = bool(row["gold_page_indexes"] or row["gold_values"])
        if not row["answerable"] and has_gold:
            problems.append(f"{rid}: an unanswerable question has gold pages or values")
        if row["answerable"] and not (row["gold_page_indexes"] and row["gold_values"]):
            problems.append(f"{rid}: no gold page or value")
        for value in row["gold_values"]:
            flat = normalize(value)
            if len(flat) < 3:  # a bare "6" or "no" would be found by accident
                problems.append(f"{rid}: gold value {value!r} is too short to be told apart")
    return problems


@lru_cache(maxsize=32)
def _open(doc_file: str) -> tuple[Any, Any]:
    """The PDF opened by pypdf and by pypdfium2 (kept open while cached)."""
    import pypdfium2
    from pypdf import PdfReader

    path = PDFS / doc_file
    return PdfReader(path, strict=False), pypdfium2.PdfDocument(path)


def page_count(doc_file: str) -> int:
    """How many pages the PDF has."""
    return len(_open(doc_file)[1])


@lru_cache(maxsize=4096)
def page_texts(doc_file: str, index: int) -> tuple[str, str]:
    """One page's normalised text as pypdf and as pypdfium2 extract it."""
    by_pypdf, by_pdfium = _open(doc_file)
    raw = by_pdfium[index].get_textpage().get_text_range().replace("\r", "")
    return normalize(by_pypdf.pages[index].extract_text() or ""), normalize(
        raw.translate({0xFFFE: None, 2: None})
    )


def gold_problems(rows: Iterable[dict]) -> list[str]:
    """Gold pages out of range, and gold values printed on none of their gold pages in both texts."""
    problems = []
    for row in rows:
        if not row["answerable"]:
            continue
        rid = row["id"]
        if not (PDFS / row["doc_file"]).is_file():
            problems.append(f"{rid}: no PDF {row['doc_file']}")
            continue
        pages = [i for i in row["gold_page_indexes"] if 0 <= i < page_count(row["doc_file"])]
        if len(pages) != len(row["gold_page_indexes"]):
            problems.append(f"{rid}: a gold page is not a page of {row['doc_file']}")
        for value in row["gold_values"]:
            flat = normalize(value)
            if not any(all(flat in text for text in page_texts(row["doc_file"], i)) for i in pages):
                problems.append(f"{rid}: {value!r} is on none of its gold pages")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Print each problem of the file; exit 1 if there is any."""
    args = sys.argv[1:] if argv is None else argv
    rows = load_questions(Path(args[0]) if args else QUESTIONS)
    problems = schema_problems(rows) + gold_problems(rows)
    for problem in problems:
        print(problem)
    print(f"{len(rows)} questions, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
