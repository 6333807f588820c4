"""The generated filings: gold values are on their gold pages, labels differ from indexes, totals add up."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from bench.filings import COMPANIES, FilingSet, check_gold, generate, render
from bench.filings.numbers import build

# One company whose continued statements repeat the year header, one whose do not.
PAIR = (next(c for c in COMPANIES if c.repeat_header), next(c for c in COMPANIES if not c.repeat_header))


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> FilingSet:
    return generate(tmp_path_factory.mktemp("filings"), PAIR)


def _rows(filings: FilingSet) -> list[dict]:
    return [json.loads(line) for line in filings.questions.read_text(encoding="utf-8").splitlines()]


def test_every_gold_value_is_on_each_of_its_gold_pages(pair: FilingSet) -> None:
    rows = _rows(pair)
    assert {r["company"] for r in rows} == {c.name for c in PAIR}
    assert all(r["gold_page_indexes"] and r["gold_values"] for r in rows)
    assert check_gold(pair) == []


def test_the_gold_check_reports_a_value_moved_off_its_page(pair: FilingSet, tmp_path: Path) -> None:
    rows = _rows(pair)
    rows[0]["gold_page_indexes"] = [0]  # the cover page
    moved = tmp_path / "questions.jsonl"
    moved.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    for pdf in pair.pdfs:
        (tmp_path / pdf.name).write_bytes(pdf.read_bytes())
    problems = check_gold(FilingSet(pair.pdfs, moved))
    assert problems
    assert all(p.startswith(f"{rows[0]['id']}: ") and p.endswith("not on page 0") for p in problems)


def test_printed_page_labels_differ_from_indexes(pair: FilingSet) -> None:
    for path in pair.pdfs:
        reader = PdfReader(path)
        labels = list(reader.page_labels)
        assert labels[:3] == ["i", "ii", "iii"] and labels[3] == "1"
        assert labels[-1] == str(len(labels) - 3)
        assert 25 <= len(labels) <= 40
        last_footer = reader.pages[-1].extract_text().splitlines()
        assert any(line.endswith(f"Form 10-K {labels[-1]}") for line in last_footer)


def test_a_continued_statement_repeats_its_year_header_only_for_some_companies(pair: FilingSet) -> None:
    repeated = []
    for path in pair.pdfs:
        texts = [p.extract_text() for p in PdfReader(path).pages]
        page = next(t for t in texts if "Purchases of property and equipment" in t)
        assert "Consolidated Statements of Cash Flows" in "".join(texts)
        repeated.append("Fiscal year ended" in page)
    assert repeated == [True, False]


def test_generation_is_deterministic() -> None:
    first, questions = render(PAIR[0])
    again, questions_again = render(PAIR[0])
    assert first == again and questions == questions_again


def test_statements_add_up() -> None:
    for company in COMPANIES:
        fin = build(company)
        bs, cf = fin.balance, fin.cash_flow
        assert bs.value("Total assets") == bs.value("Total liabilities and stockholders' equity")
        for i in range(2):
            assert bs.value("Total assets")[i] == sum(
                bs.value(label)[i]
                for label in (
                    "Total current assets",
                    "Property, plant and equipment, net",
                    "Goodwill",
                    "Intangible assets, net",
                    "Other assets",
                )
            )
        cash = "Cash and cash equivalents"
        assert bs.value(cash) == cf.value(f"{cash} at end of year")[:2]
        ppe = "Property, plant and equipment, net"
        assert bs.value(ppe) == fin.ppe.value(ppe)
        assert fin.segments.value("Total revenue") == fin.income.value("Revenue")
        by_geography = [v for _, v, style in fin.geographies.rows if not style]
        assert [sum(col) for col in zip(*by_geography, strict=True)] == list(fin.income.value("Revenue"))


def test_the_question_set_mixes_kinds_across_every_company() -> None:
    questions = [q for company in COMPANIES for q in render(company)[1]]
    kinds = Counter(q.kind for q in questions)
    assert len(questions) >= 60 and len(COMPANIES) >= 8
    assert {"statement_number", "year_column", "shorthand", "list", "yes_no", "restructuring"} <= set(kinds)
    assert len({q.id for q in questions}) == len(questions)
    assert len({c.last_year for c in COMPANIES}) >= 4 and len({c.fy_end for c in COMPANIES}) >= 3


def test_some_reports_name_the_company_only_on_the_cover_and_in_the_prose() -> None:
    company = next(c for c in COMPANIES if not c.name_on_pages)
    reader = PdfReader(io.BytesIO(render(company)[0]))
    texts = [" ".join(p.extract_text().split()) for p in reader.pages]
    statement = next(t for t in texts if "Consolidated Statements of Income" in t and "Net income" in t)
    assert company.name in texts[0] and company.name not in statement
    assert (
        "Annual Report on Form 10-K" in statement and sum(company.name in t for t in texts) < len(texts) / 2
    )


def test_the_long_report_is_long_and_prints_the_issue_answers_on_their_gold_pages() -> None:
    from bench.filings.long import ISSUE_QUESTIONS, render_long

    data, questions = render_long()
    reader = PdfReader(io.BytesIO(data))
    labels = list(reader.page_labels)
    assert len(labels) > 100 and labels[:4] == ["i", "ii", "iii", "1"]
    texts = [" ".join(p.extract_text().split()).lower() for p in reader.pages]
    assert "table of contents" in texts[1] and "item 3. legal proceedings" in texts[1]
    assert [q.question for q in questions] == list(ISSUE_QUESTIONS)
    for q in questions:
        assert q.gold_page_indexes
        assert all(v.lower() in texts[i] for v in q.gold_values for i in q.gold_page_indexes), q.question
