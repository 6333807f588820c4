"""bench/eval.py's judging and figures, counted on a tiny hand-made case of real Answer objects."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.eval import QUICK_COMPANIES, QUICK_QUESTIONS, by_kind, judge, render, run_filings, summarize
from ingest.types import PageLocator
from rag.retrieval.retrieve import Retrieval
from rag.types import Answer, CitationSpan, Evidence, Footnote

UNSUPPORTED = "The documents do not answer this question."


def _evidence(short_id: str, page: int, file_name: str = "report.pdf") -> Evidence:
    return Evidence(
        short_id,
        f"chunk-{short_id}",
        "doc",
        "Report",
        file_name,
        f"text on page {page}",
        0.5,
        (PageLocator(page, str(page - 2), 0, 10),),
    )


def _answer(
    text: str,
    evidence: tuple[Evidence, ...],
    cited: tuple[Evidence, ...] = (),
    *,
    unsupported: bool = False,
    closest: bool = False,
) -> Answer:
    footnotes = tuple(
        Footnote(n, e.short_id, e, (CitationSpan(e.short_id, 0, 1, 0, 1),)) for n, e in enumerate(cited, 1)
    )
    return Answer("q", text, footnotes, (), evidence, unsupported=unsupported, closest=closest)


def _question(qid: str, pages: list[int], kind: str, **extra: Any) -> dict[str, Any]:
    answers = [{"text": v} for v in extra.get("gold_values", ["x"])]
    return {
        "id": qid,
        "is_impossible": False,
        "kind": kind,
        "gold_page_indexes": pages,
        "doc_file": "report.pdf",
        "answers": answers,
        **extra,
    }


def test_judge_and_summarize_count_each_outcome() -> None:
    p3, p7, p9 = _evidence("a", 3), _evidence("b", 7), _evidence("c", 9)
    both = Retrieval((p3, p7))
    cases = [
        # retrieved and cited the gold page, answered with the value as printed
        (
            _question("n1", [3], "number", gold_values=["1,234"]),
            both,
            _answer("Capital expenditures were $1,234 million [a].", (p3, p7), (p3,)),
        ),
        # a list needs every item: one of two is missing; a third of the evidence is another file's
        (
            _question("l1", [7], "list", gold_values=["Canada", "Mexico"]),
            Retrieval((p3, p7, _evidence("d", 7, "other.pdf"))),
            _answer("We operate in Canada [b] and [a].", (p3, p7), (p7, p3)),
        ),
        # gold page retrieved, closest passages quoted instead of an answer
        (
            _question("c1", [7], "number", gold_values=["55"]),
            both,
            _answer("No passage answers directly; closest: 55 [b].", (p3, p7), (p7,), closest=True),
        ),
        # the right document but not the gold page; answered "the documents do not answer"
        (
            _question("u1", [9], "number", gold_values=["9"]),
            Retrieval((p3,)),
            _answer(UNSUPPORTED, (p3,), unsupported=True),
        ),
        # SQuAD style: any one of the answers counts; doc_file is relative to the questions file
        (
            _question(
                "s1", [9], "", answers=[{"text": "France"}, {"text": "Normandy"}], doc_file="pdfs/report.pdf"
            ),
            Retrieval((p9,)),
            _answer("The region is Normandy [c].", (p9,), (p9,)),
        ),
        # unanswerable and marked unsupported
        (
            {**_question("i1", [], ""), "is_impossible": True},
            Retrieval((p3,)),
            _answer(UNSUPPORTED, (p3,), unsupported=True),
        ),
    ]
    rows = [judge(q, r, a) for q, r, a in cases]
    assert [r["contains"] for r in rows] == [True, False, True, False, True, False]
    assert [r["hit"] for r in rows[:5]] == [True, True, True, False, True]
    assert [r["doc_share"] for r in rows] == [1.0, round(2 / 3, 3), 1.0, 1.0, 1.0, 1.0]
    elsewhere = judge({**cases[0][0], "doc_file": "other.pdf"}, cases[0][1], cases[0][2])
    assert elsewhere["doc_share"] == 0.0 and not elsewhere["hit"] and elsewhere["cited_gold"] == 0
    assert [r["cited_gold"] for r in rows[:5]] == [1, 1, 1, 0, 1] and rows[1]["cited"] == 2
    figures = summarize(rows)
    assert figures["answerable"] == 5 and figures["unanswerable"] == 1
    assert figures["doc_share"] == round((4 + round(2 / 3, 3)) / 5, 3)
    assert figures["hit_at_k"] == 0.8 and figures["gold_page_cited"] == 0.8
    assert figures["cited_page_precision"] == round(4 / 5, 3)
    assert figures["answer_contains_gold"] == 0.6
    assert (
        figures["wrongly_unsupported"] == 0.2 and figures["answered"] == 0.6
    )  # neither unsupported nor closest
    assert figures["closest_passages"] == 0.2
    assert figures["abstention_accuracy"] == 1.0
    kinds = by_kind(rows)
    assert set(kinds) == {"number", "list"}
    two_thirds = round(2 / 3, 3)
    assert kinds["number"] == {
        "questions": 3,
        "hit_at_k": two_thirds,
        "gold_page_cited": two_thirds,
        "answer_contains_gold": two_thirds,
        "answered": round(1 / 3, 3),  # n1 answered; c1 closest passages, u1 unsupported
        "excluded_share": None,  # no company known: nothing is excluded
    }
    result = {
        "questions": 6,
        "k": 6,
        "ingest_s": 0.1,
        "documents": 1,
        "chunks": 3,
        "ours": figures,
        "baseline": figures,
        "ours_by_kind": kinds,
        "baseline_by_kind": kinds,
    }
    table = render(result)
    assert "| closest passages quoted instead of an answer (answerable) | 0.2 | 0.2 |" in table
    assert "| list | 1 | 1.0 / 1.0 | 1.0 / 1.0 | 0.0 / 0.0 |" in table
    alone = render({**result, "baseline": None, "baseline_by_kind": None})  # --no-baseline
    assert "| closest passages quoted instead of an answer (answerable) | 0.2 | - |" in alone
    assert "| list | 1 | 1.0 / - | 1.0 / - | 0.0 / - |" in alone


def test_evidence_from_another_filing_of_the_company_or_another_company_is_counted_apart() -> None:
    own, sibling = _evidence("a", 3, "ACME_2020.pdf"), _evidence("b", 3, "ACME_2019.pdf")
    stranger = _evidence("c", 3, "OTHER_2020.pdf")
    companies = {"ACME_2020.pdf": "Acme", "ACME_2019.pdf": "Acme", "OTHER_2020.pdf": "Other"}
    question = {**_question("q1", [3], "number"), "doc_file": "ACME_2020.pdf", "category": "fact"}
    retrieval = Retrieval((own, sibling, sibling, stranger))
    row = judge(question, retrieval, _answer("x [a]", retrieval.evidence, (own,)), companies)
    assert row["sibling_share"] == 0.5 and row["stranger_share"] == 0.25
    assert summarize([row])["sibling_share"] == 0.5
    assert by_kind([row], "category")["fact"]["excluded_share"] == 0.75
    unknown = judge(question, retrieval, _answer("x [a]", retrieval.evidence, (own,)))
    assert unknown["sibling_share"] is None and summarize([unknown])["stranger_share"] is None


def test_the_filings_eval_runs_on_two_generated_reports_in_one_library(tmp_path: Path) -> None:
    result = run_filings(quick=True, out_dir=tmp_path)
    assert result["documents"] == QUICK_COMPANIES and result["questions"] == QUICK_QUESTIONS
    assert result["pages"] >= 50 and result["chunks"] > result["pages"]
    for side in ("ours", "baseline"):
        figures = result[side]
        assert figures["answerable"] == QUICK_QUESTIONS and figures["unanswerable"] == 0
        assert all(
            0 <= figures[key] <= 1
            for key in (
                "hit_at_k",
                "gold_page_cited",
                "answer_contains_gold",
                "wrongly_unsupported",
                "closest_passages",
            )
        )
        assert sum(row["questions"] for row in result[f"{side}_by_kind"].values()) == QUICK_QUESTIONS
    assert all(f"| {kind} | " in render(result) for kind in result["ours_by_kind"])


def test_confident_quotes_off_the_evidence_and_on_unanswerables_are_counted() -> None:
    p3, p7 = _evidence("a", 3), _evidence("b", 7)
    cases = [
        # answered, but the cited page is not the evidence page: a confident quote off the gold
        (
            _question("o1", [7], "number", gold_values=["7"]),
            Retrieval((p3, p7)),
            _answer("It is 3 [a].", (p3,), (p3,)),
        ),
        # answered on the gold page
        (
            _question("o2", [7], "number", gold_values=["7"]),
            Retrieval((p7,)),
            _answer("It is 7 [b].", (p7,), (p7,)),
        ),
        # closest passages off the gold page: not an answer given as the answer
        (
            _question("o3", [7], "number", gold_values=["7"]),
            Retrieval((p3,)),
            _answer("Closest: 3 [a].", (p3,), (p3,), closest=True),
        ),
        # a computed figure with no gold text: "answer contains" does not count it either way
        (
            _question("o4", [3], "computed", gold_values=[], answers=[]),
            Retrieval((p3,)),
            _answer("3 [a].", (p3,), (p3,)),
        ),
        # unanswerable, answered as if answerable
        (
            {**_question("i1", [], ""), "is_impossible": True},
            Retrieval((p3,)),
            _answer("It is 3 [a].", (p3,), (p3,)),
        ),
        # unanswerable, closest passages
        (
            {**_question("i2", [], ""), "is_impossible": True},
            Retrieval((p3,)),
            _answer("Closest: 3 [a].", (p3,), (p3,), closest=True),
        ),
    ]
    rows = [judge(q, r, a) for q, r, a in cases]
    assert rows[3]["contains"] is None
    figures = summarize(rows)
    assert figures["answered_off_gold"] == 0.25  # o1 of the four answerable
    assert figures["answer_contains_gold"] == round(1 / 3, 3)  # o2 of o1-o3 (o4 has no gold text)
    assert figures["answered_unanswerable"] == 0.5 and figures["abstention_accuracy"] == 0.5
