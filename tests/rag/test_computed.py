"""rag.passages.computed and the offline answerer's computed-from answer, on statement passages."""

from __future__ import annotations

from ingest.types import Chunk, Document, PageLocator
from rag.citations.evidence import build_evidence
from rag.offline.extractive import ExtractiveChatModel
from rag.passages.computed import computed_rows
from rag.passages.units import passage_units
from rag.prompts import COMPUTED_FROM, build_messages
from rag.questions.read import Input, read_question

BALANCE = """Consolidated Balance Sheets
(in millions)
2021 2020
Total current assets 15,000 14,500
Other current liabilities 2,100 1,900
Total current liabilities 9,100 8,700
Total assets 50,000 47,000"""
CASH = """Consolidated Statements of Cash Flows
(in millions)
2021 2020 2019
Net cash provided by operating activities 4,300 3,900 3,800
Purchases of property and equipment (1,577) (1,602) (1,499)"""


def inputs(*items: str) -> tuple[Input, ...]:
    """The line items as a question that defines a metric of them is read (rag.questions.read)."""
    found = read_question(f"What is the ratio? The ratio is defined as: {' / '.join(items)}.").inputs
    assert tuple(i.text for i in found) == items
    return found


def test_each_input_gets_the_row_that_holds_all_of_it_with_the_asked_year() -> None:
    units = passage_units("a", BALANCE) + passage_units("b", CASH)
    rows = computed_rows(inputs("cash from operations", "total current liabilities"), units, [2021])
    assert rows is not None
    assert [u.row.label for u in rows] == [
        "Net cash provided by operating activities",
        "Total current liabilities",
    ]
    # an input no row holds: no computation from two of three inputs
    assert computed_rows(inputs("total current liabilities", "inventory"), units, [2021]) is None


def test_a_row_whose_columns_are_other_years_is_no_input() -> None:
    units = passage_units("a", BALANCE) + passage_units("b", CASH)
    # the cash flow statement's columns are 2021-2019: no operating cash flow for 2018 is there
    assert computed_rows(inputs("cash from operations", "total current liabilities"), units, [2018]) is None
    assert computed_rows(inputs("cash from operations"), units, [2019]) is not None


def _evidence(texts: list[str]):
    doc = Document("d" * 16, "Acme annual report", "acme.pdf", 2, 100, 2, "2026-01-01", ())
    chunks = [
        Chunk(f"{n}" * 16, doc.doc_id, n, t, (PageLocator(n, str(n + 1), 0, len(t)),))
        for n, t in enumerate(texts)
    ]
    return build_evidence([(c, doc, 0.5) for c in chunks])


def test_a_defined_metric_is_answered_with_its_input_rows_cited_never_a_made_up_figure() -> None:
    evidence = _evidence([BALANCE, CASH])
    question = (
        "What is Acme's FY2021 operating cash flow ratio? Operating cash flow ratio is defined as: cash "
        "from operations / total current liabilities. Round your answer to two decimal places."
    )
    text = ExtractiveChatModel().answer_text(build_messages(question, evidence))
    assert text.startswith(COMPUTED_FROM)
    assert "Net cash provided by operating activities: 4,300 in 2021" in text
    assert "Total current liabilities: 9,100 in 2021" in text
    assert f"[{evidence[0].short_id}]" in text and f"[{evidence[1].short_id}]" in text
    assert "0.47" not in text  # the ratio itself is left to the reader
