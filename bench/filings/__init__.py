"""Generated 10-K-style annual reports of fictional companies, and analysts' questions with gold pages.

`generate(out_dir)` writes one PDF per company and `questions.jsonl` beside them (deterministic: the
same bytes on every run); `check_gold(out_dir)` confirms with pypdf that every gold value is printed
on each of its gold pages. Exports: generate, render, check_gold, COMPANIES, FilingSet.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.filings import extra, part1, part2
from bench.filings.companies import COMPANIES, Company
from bench.filings.numbers import Financials, build
from bench.filings.pdfdoc import FilingPDF
from bench.filings.questions import Question, questions_for

__all__ = ["COMPANIES", "FilingSet", "check_gold", "generate", "render"]
QUESTIONS_FILE = "questions.jsonl"
CONTENTS_PAGE = 2  # 1-based, as fpdf2 counts


@dataclass(frozen=True)
class FilingSet:
    """What generate() wrote."""

    pdfs: tuple[Path, ...]
    questions: Path


def _write(company: Company, fin: Financials) -> FilingPDF:
    pdf = FilingPDF(company)
    part1.cover(pdf)
    pdf.add_page()  # the contents, written last, once the sections' page labels are known
    part1.forward_looking(pdf)
    part1.business(pdf)
    extra.business_detail(pdf)
    part1.risk_factors(pdf)
    part1.properties_and_legal(pdf)
    extra.executive_officers(pdf)
    part2.part_two_opening(pdf)
    part2.mdna(pdf, fin)
    extra.critical_estimates(pdf)
    part2.statements(pdf, fin)
    extra.comprehensive_and_equity(pdf, fin)
    part2.notes(pdf, fin)
    extra.more_notes(pdf)
    part2.closing(pdf)
    write_contents(pdf)
    return pdf


def write_contents(pdf: FilingPDF) -> None:
    """Go back to the contents page, left blank until now, and list every section's page label."""
    last = pdf.page
    pdf.page = CONTENTS_PAGE
    pdf.set_xy(pdf.l_margin, pdf.t_margin + 10)
    part1.contents(pdf, pdf.sections)
    pdf.page = last


def render(company: Company) -> tuple[bytes, list[Question]]:
    """One report's PDF bytes and its questions."""
    fin = build(company)
    pdf = _write(company, fin)
    return bytes(pdf.output()), questions_for(company, fin, pdf.facts)


def generate(out_dir: str | Path, companies: Sequence[Company] = COMPANIES) -> FilingSet:
    """Write the reports and questions.jsonl (doc_file relative to it) into out_dir."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pdfs, rows = [], []
    for company in companies:
        data, questions = render(company)
        path = out / company.file_name
        path.write_bytes(data)
        pdfs.append(path)
        rows += [q.to_row() for q in questions]
    qa = out / QUESTIONS_FILE
    qa.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return FilingSet(tuple(pdfs), qa)


def _flat(text: str) -> str:
    return " ".join(text.split()).lower()


def check_gold(filings: FilingSet) -> list[str]:
    """Each gold value missing from one of its gold pages, as 'id: value not on page N' (empty: none)."""
    from pypdf import PdfReader

    pages: dict[str, list[str]] = {}
    problems = []
    for line in filings.questions.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["doc_file"] not in pages:
            reader = PdfReader(filings.questions.parent / row["doc_file"], strict=False)
            pages[row["doc_file"]] = [_flat(p.extract_text()) for p in reader.pages]
        for index in row["gold_page_indexes"]:
            problems += [
                f"{row['id']}: {v!r} not on page {index}"
                for v in row["gold_values"]
                if _flat(v) not in pages[row["doc_file"]][index]
            ]
    return problems
