"""Check bench/filings_dev's question files against the filings: `python -m bench.filings_dev.check [FILE]`.

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
# Round three (issue 38, 39): analyst-shaped questions on all 51 filings and computed metrics.
ANALYST = Path(__file__).resolve().parent / "analyst_questions.jsonl"
COMPUTED = Path(__file__).resolve().parent / "computed_questions.jsonl"
# Questions on a filing's structural parts, to check the answer check's rules on (2026-12-04).
STRUCTURE = Path(__file__).resolve().parent / "structure_questions.jsonl"
# Questions on contracts, debt and obligations, to check what was read off the structure set on.
OBLIGATIONS = Path(__file__).resolve().parent / "obligations_questions.jsonl"
FILINGS = CORPUS / "filings-dev"
# What a question asks, the four kinds bench eval reports: a figure derived from rows, a view formed
# from several rows or a section, a fact or printed figure looked up, or nothing the filing answers.
CATEGORIES = frozenset({"computed", "judgement", "fact", "unanswerable"})
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
# Round three's files have no fine kind: a topic and the period the question asks for instead.
ROUND_THREE_FIELDS = (*(f for f in FIELDS if f != "kind"), "category", "topic", "period")
COMPUTED_FIELDS = (*ROUND_THREE_FIELDS, "formula", "unit", "rounding", "gold_result", "operands")
OPERAND_FIELDS = ("name", "label", "value", "scale", "column", "page_index")


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
        fields = (
            FIELDS
            if "kind" in row
            else COMPUTED_FIELDS
            if row.get("category") == "computed"
            else ROUND_THREE_FIELDS
        )
        missing = [f for f in (*fields, "category") if f not in row]
        if missing:
            problems.append(f"{rid}: missing {', '.join(missing)}")
            continue
        if rid in seen:
            problems.append(f"{rid}: duplicate id")
        seen.add(rid)
        if "kind" in row and row["kind"] not in KINDS:
            problems.append(f"{rid}: unknown kind {row['kind']!r}")
        if row["category"] not in CATEGORIES:
            problems.append(f"{rid}: unknown category {row['category']!r}")
        if row["is_impossible"] != (row["category"] == "unanswerable"):
            problems.append(f"{rid}: is_impossible must be true exactly for category 'unanswerable'")
        if row["category"] == "computed" and "operands" in row:
            problems += computed_problems(row)
        has_gold = bool(row["gold_page_indexes"] or row["gold_values"])
        if row["is_impossible"] and has_gold:
            problems.append(f"{rid}: an unanswerable question has gold pages or values")
        if not row["is_impossible"] and not row["gold_page_indexes"]:
            problems.append(f"{rid}: no gold page")
    return problems


def computed_problems(row: dict) -> list[str]:
    """A computed row's result must be a decimal, and each operand complete, on a gold page and
    among the gold values (so the gold check finds it printed there)."""
    from decimal import Decimal, InvalidOperation

    rid, problems = row["id"], []
    try:
        Decimal(row["gold_result"])
    except InvalidOperation:
        problems.append(f"{rid}: gold_result {row['gold_result']!r} is not a decimal")
    for operand in row["operands"]:
        missing = [f for f in OPERAND_FIELDS if f not in operand]
        if missing:
            problems.append(f"{rid}: an operand misses {', '.join(missing)}")
        elif operand["page_index"] not in row["gold_page_indexes"]:
            problems.append(f"{rid}: operand page {operand['page_index']} is no gold page")
        elif operand["value"] not in row["gold_values"]:
            problems.append(f"{rid}: operand value {operand['value']!r} is no gold value")
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
    """Check every question file (or the path given) and print what is wrong."""
    args = sys.argv[1:] if argv is None else argv
    paths = (
        [Path(args[0])]
        if args
        else [p for p in (QUESTIONS, WORDING, ANALYST, COMPUTED, STRUCTURE, OBLIGATIONS) if p.is_file()]
    )
    failed = 0
    for path in paths:
        rows = load_questions(path)
        problems = schema_problems(rows)
        problems += gold_problems(rows) if not problems else []
        for problem in problems:
            print(problem)
        print(f"{path.name}: {len(rows)} questions, {len(problems)} problems")
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
