"""Check bench/filings_dev/questions.jsonl against the filings: `python -m bench.filings_dev.check`.

Every doc_file must exist under ../shared/corpus/filings-dev, every gold page must be a page of it,
and every gold value must appear (whitespace-normalised) in pypdf's text of one of its gold pages.
Prints each problem and exits 1 if there is any.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path

from bench.common import CORPUS

QUESTIONS = Path(__file__).resolve().parent / "questions.jsonl"
# The answer check's own questions (2026-12-03): superlatives and relation words, each trap beside
# an answerable twin (bench/filings_dev/README.md).
WORDING = Path(__file__).resolve().parent / "wording_questions.jsonl"
FILINGS = CORPUS / "filings-dev"
KINDS = frozenset(
    {
        "statement-number",
        "year-column",
        "computed",
        "narrative-list",
        "yes-no",
        "which-filing",
        "unanswerable",
        "wording",  # wording_questions.jsonl: answerable, worded as the answer check reads
    }
)
FIELDS = (
    "id",
    "question",
    "doc_file",
    "kind",
    "is_impossible",
    "gold_page_indexes",
    "gold_values",
    "answer",
    "note",
)


def load_questions(path: Path = QUESTIONS) -> list[dict]:
    """The question rows of a JSONL file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def flat(text: str) -> str:
    """Text with every run of whitespace made one space (pypdf breaks lines inside table rows)."""
    return " ".join(text.split())


def schema_problems(rows: Iterable[dict]) -> list[str]:
    """Rows that break the format: missing fields, unknown kind, duplicate id, gold lists that
    contradict is_impossible."""
    problems, seen = [], set()
    for row in rows:
        rid = row.get("id", "?")
        missing = [f for f in FIELDS if f not in row]
        if missing:
            problems.append(f"{rid}: missing {', '.join(missing)}")
            continue
        if rid in seen:
            problems.append(f"{rid}: duplicate id")
        seen.add(rid)
        if row["kind"] not in KINDS:
            problems.append(f"{rid}: unknown kind {row['kind']!r}")
        if row["is_impossible"] != (row["kind"] == "unanswerable"):
            problems.append(f"{rid}: is_impossible must be true exactly for kind 'unanswerable'")
        has_gold = bool(row["gold_page_indexes"] or row["gold_values"])
        if row["is_impossible"] and has_gold:
            problems.append(f"{rid}: an unanswerable question has gold pages or values")
        if not row["is_impossible"] and not row["gold_page_indexes"]:
            problems.append(f"{rid}: no gold page")
    return problems


class _Filing:
    """One PDF, its pages' text extracted on first use (the gold pages only: a few per filing)."""

    def __init__(self, pdf: Path) -> None:
        from pypdf import PdfReader

        self._reader = PdfReader(pdf, strict=False)
        self._texts: dict[int, str] = {}
        self.page_count = len(self._reader.pages)

    def text(self, index: int) -> str:
        """pypdf's text of page index (0-based), whitespace-normalised."""
        if index not in self._texts:
            self._texts[index] = flat(self._reader.pages[index].extract_text() or "")
        return self._texts[index]


def gold_problems(rows: Iterable[dict], filings: Path = FILINGS) -> list[str]:
    """Missing doc_files, gold pages out of range, and gold values on none of their gold pages."""
    opened: dict[str, _Filing | None] = {}
    problems = []
    for row in rows:
        rid, doc = row["id"], row["doc_file"]
        if doc not in opened:
            pdf = filings / doc
            opened[doc] = _Filing(pdf) if pdf.is_file() else None
        filing = opened[doc]
        if filing is None:
            problems.append(f"{rid}: {doc} not found under {filings}")
            continue
        pages = [i for i in row["gold_page_indexes"] if 0 <= i < filing.page_count]
        problems += [
            f"{rid}: gold page {i} outside {doc} ({filing.page_count} pages)"
            for i in row["gold_page_indexes"]
            if i not in pages
        ]
        problems += [
            f"{rid}: {value!r} on none of pages {row['gold_page_indexes']} of {doc}"
            for value in row["gold_values"]
            if not any(flat(value) in filing.text(i) for i in pages)
        ]
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check the question file (or the path given) and print what is wrong."""
    args = sys.argv[1:] if argv is None else argv
    rows = load_questions(Path(args[0]) if args else QUESTIONS)
    problems = schema_problems(rows)
    problems += gold_problems(rows) if not problems else []
    for problem in problems:
        print(problem)
    print(f"{len(rows)} questions, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
