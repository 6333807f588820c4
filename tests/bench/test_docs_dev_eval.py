"""bench/real_docs.py (`bench eval --docs-dev`): reading the gold text, list answers, the question
sets, scoping each question to its document, and the figures per kind, on hand-made rows; one
corpus test ingests two small docs-dev PDFs and a file that is not a PDF."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bench.eval import judge
from bench.real_docs import (
    answer_scoped,
    corpus_questions,
    doc_ids,
    holds,
    normalize,
    our_questions,
    question_sets,
    render_docs_dev,
    run_docs_dev,
    scopes,
    summarize_by_kind,
)
from bench.snapshot import answers
from ingest.types import PageLocator
from rag.retrieval.retrieve import Retrieval
from rag.types import Answer, CitationSpan, Evidence, Footnote


def _record(qid: str, kind: str, answer: str, doc: str = "pdfs/paper.pdf", **extra: Any) -> dict[str, Any]:
    answerable = kind != "unanswerable"
    return {
        "id": qid,
        "question": f"question {qid}?",
        "doc_file": doc,
        "gold_pages": [4] if answerable else [],
        "gold_page_indexes": [3] if answerable else [],
        "answer": answer,
        "answerable": answerable,
        "kind": kind,
        **extra,
    }


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_normalize_reads_text_as_the_corpus_verification_did() -> None:
    assert normalize("  The \ufb01rst\u00a0\u201cWeak\u201d\n model\u2019s  ") == 'the first "weak" model\'s'
    assert normalize("face\u2013to\u2014face \u2212 3") == "face-to-face - 3"
    assert normalize("infor\u00ad\nmation") == "information"  # ingest's soft hyphen: one word


@pytest.mark.parametrize(
    ("gold", "text", "expected"),
    [
        ("72.3", "It reaches 72.3(1.4) on TACREV [abc1234].", True),
        ("6", "There are 6 steps [abc1234].", True),
        ("6", "There are 16 steps in 2016.", False),  # not inside a longer number
        ("DecoupledSOLOHead", "the decoupledsolohead class", True),
        ("head", "the DecoupledSOLOHead class", False),  # not inside a longer word
        ('"humans supervise"', "\u201cHumans   supervise\u201d it", True),
        ("face-to-face", "meet face\u2013to\u2013face.", True),
        ("abc1234", "The value [abc1234].", False),  # a citation marker is not answer text
        ("", "anything", False),
    ],
)
def test_holds_finds_the_gold_text_as_written(gold: str, text: str, expected: bool) -> None:
    assert holds(gold, text) is expected


def _evidence(page: int) -> Evidence:
    return Evidence(
        "abc1234", "chunk", "doc", "Paper", "paper.pdf", "text", 0.5, (PageLocator(page, "4", 0, 4),)
    )


def _answer(text: str, cited: tuple[Evidence, ...]) -> Answer:
    notes = tuple(
        Footnote(n, e.short_id, e, (CitationSpan(e.short_id, 0, 1, 0, 1),)) for n, e in enumerate(cited, 1)
    )
    return Answer("q", text, notes, (), cited)


def test_a_list_answer_needs_every_item(tmp_path: Path) -> None:
    _write(
        tmp_path / "questions.jsonl",
        [
            _record("dd-1", "list", "event relation extraction; deductive reasoning"),
            _record("dd-2", "unanswerable", "Not answerable"),
        ],
    )
    listed, impossible = corpus_questions(tmp_path)
    assert listed["gold_values"] == ["event relation extraction", "deductive reasoning"]
    assert listed["doc_file"] == "paper.pdf" and not listed["is_impossible"]
    assert impossible["is_impossible"] and impossible["gold_values"] == []
    page = _evidence(3)
    one = _answer("It covers event relation extraction [abc1234].", (page,))
    both = _answer("Event relation extraction and deductive reasoning [abc1234].", (page,))
    assert judge(listed, Retrieval((page,)), one, holds=holds)["contains"] is False
    row = judge(listed, Retrieval((page,)), both, holds=holds)
    assert row["contains"] is True and row["hit"] and row["cited_gold"] == 1


def test_our_file_gives_gold_values_and_is_a_second_set(tmp_path: Path) -> None:
    _write(tmp_path / "questions.jsonl", [_record("dd-1", "fact", "6")])
    ours = _write(
        tmp_path / "ours.jsonl",
        [_record("od-1", "short-line", "Step 3; then 4", gold_values=["Step 3; then 4"], note="n")],
    )
    assert question_sets(tmp_path, tmp_path / "absent.jsonl").keys() == {"mmlongbench-doc"}
    assert our_questions(tmp_path / "absent.jsonl") == []
    sets = question_sets(tmp_path, ours)
    assert list(sets) == ["mmlongbench-doc", "ours"]
    assert sets["ours"][0]["gold_values"] == ["Step 3; then 4"]  # not split: gold_values are the gold
    assert sets["mmlongbench-doc"][0]["gold_values"] == ["6"]
    _write(ours, [_record("dd-1", "fact", "6", gold_values=["6"])])
    with pytest.raises(ValueError, match="dd-1"):
        question_sets(tmp_path, ours)


def test_scopes_group_questions_by_their_document() -> None:
    questions = [{"id": q, "doc_file": f} for q, f in [("1", "a.pdf"), ("2", "b.pdf"), ("3", "a.pdf")]]
    found = scopes(questions, {"a.pdf": "id-a"})
    assert [(doc_id, [q["id"] for q in group]) for doc_id, group in found] == [
        ("id-a", ["1", "3"]),
        (None, ["2"]),
    ]


class _NoLibrary:
    embeddings = None  # the extractive answerer ranks sentences without embeddings then


def test_each_question_retrieves_from_its_own_document_and_a_missing_pdf_is_a_miss() -> None:
    rows = [
        {**q, "question": f"What does {q['doc_file']} say?"}
        for q in corpus_rows([("1", "a.pdf", "fact"), ("2", "b.pdf", "fact"), ("3", "a.pdf", "unanswerable")])
    ]
    asked: list[tuple[str, str]] = []

    def retriever_for(doc_id: str) -> Any:
        def retrieve(question: Any) -> Retrieval:
            asked.append((doc_id, question.text))
            return Retrieval(())

        return retrieve

    judged = answer_scoped(rows, _NoLibrary(), {"a.pdf": "id-a"}, retriever_for, gate=True)
    assert asked == [("id-a", "What does a.pdf say?")] * 2  # b.pdf is not in the library: never searched
    assert [r["id"] for r in judged] == ["1", "2", "3"]
    missing = judged[1]
    assert not missing["pdf_added"] and missing["unsupported"] and not missing["hit"]
    assert missing["contains"] is False  # counted as a miss, not skipped
    kinds = summarize_by_kind(judged)
    assert kinds["fact"]["questions"] == 2 and kinds["fact"]["on_pdf_not_added"] == 1
    assert kinds["fact"]["answer_contains_gold"] == 0.0


def corpus_rows(spec: list[tuple[str, str, str]]) -> list[dict[str, Any]]:
    """Rows in the eval's format, as corpus_questions gives them."""
    return [
        {
            "id": qid,
            "question": "q",
            "doc_file": doc,
            "kind": kind,
            "is_impossible": kind == "unanswerable",
            "gold_page_indexes": [] if kind == "unanswerable" else [3],
            "gold_values": [] if kind == "unanswerable" else ["6"],
            "answers": [],
        }
        for qid, doc, kind in spec
    ]


def _row(
    kind: str, *, hit: bool = False, cited: bool = False, contains: bool | None = None, **flags: Any
) -> dict:
    return {
        "kind": kind,
        "impossible": kind == "unanswerable",
        "hit": hit,
        "doc_share": 1.0,
        "cited": int(cited),
        "cited_gold": int(cited),
        "contains": contains,
        "unsupported": flags.get("unsupported", False),
        "closest": flags.get("closest", False),
        "pdf_added": flags.get("pdf_added", True),
    }


def test_summarize_by_kind_gives_each_kind_its_own_figures_then_all() -> None:
    rows = [
        _row("unanswerable", unsupported=True),
        _row("unanswerable"),  # answered as if answerable
        _row("list", hit=True, cited=True, contains=True),
        _row("list", hit=True, contains=False, pdf_added=False),
        _row("fact", hit=False, contains=False, unsupported=True),
        _row("other"),
    ]
    kinds = summarize_by_kind(rows)
    assert list(kinds) == ["fact", "list", "unanswerable", "other", "all"]  # KINDS' order, then the rest
    assert kinds["list"]["questions"] == 2 and kinds["list"]["on_pdf_not_added"] == 1
    assert kinds["list"]["hit_at_k"] == 1.0 and kinds["list"]["gold_page_cited"] == 0.5
    assert kinds["list"]["answer_contains_gold"] == 0.5
    assert kinds["list"]["answered_unanswerable"] is None  # no unanswerable question of that kind
    assert kinds["unanswerable"]["answered_unanswerable"] == 0.5
    assert kinds["unanswerable"]["hit_at_k"] is None  # no gold page to retrieve
    assert kinds["all"]["questions"] == 6 and kinds["all"]["hit_at_k"] == 0.5


def test_render_names_each_pdf_not_added_and_gives_both_retrievers() -> None:
    kinds = summarize_by_kind([_row("fact", hit=True, contains=True), _row("unanswerable")])
    result = {
        "built": True,
        "added": 1,
        "pdfs": 2,
        "documents": 1,
        "pages": 9,
        "chunks": 20,
        "ingest_s": 1.0,
        "k": 6,
        "commit": "abc",
        "load_average_1m": [1.0, 2.0],
        "failed": {"b.pdf": "EmbeddingFailed: b.pdf: could not be embedded"},
        "sets": {"mmlongbench-doc": {"questions": 2, "ours_by_kind": kinds, "baseline_by_kind": None}},
    }
    text = render_docs_dev(result)
    assert "1 of 2 PDFs in the library" in text
    assert "- b.pdf: EmbeddingFailed: b.pdf: could not be embedded" in text
    assert "| fact | 1 | 0 | 1.0 / - | 0.0 / - | 1.0 / - | - / - |" in text
    assert "| unanswerable | 1 | 0 | - / - | - / - | - / - | 1.0 / - |" in text
    assert "| mmlongbench-doc, every question | ours | dense |" in text
    assert "right document" not in text and "another company" not in text


SMALL = ("a4f3ced0696009fec3179f493e4f28c4.pdf", "2310.07609v1.pdf")  # 17 and 10 pages


def test_docs_dev_scopes_every_question_and_names_a_pdf_it_could_not_add(
    corpus: Path, tmp_path: Path
) -> None:
    docs_dev = corpus / "docs-dev"
    folder = tmp_path / "docs-dev"
    (folder / "pdfs").mkdir(parents=True)
    for name in SMALL:
        (folder / "pdfs" / name).symlink_to(docs_dev / "pdfs" / name)
    (folder / "pdfs" / "broken.pdf").write_bytes(b"not a pdf")
    _write(folder / "documents.jsonl", [{"doc_file": f"pdfs/{n}"} for n in (*SMALL, "broken.pdf")])
    records = [json.loads(line) for line in (docs_dev / "questions.jsonl").read_text().splitlines()]
    mine = [r for r in records if Path(r["doc_file"]).name in SMALL]
    # Asked of the court opinion in the words of the QACheck paper: only scoping keeps the paper out.
    elsewhere = _record(
        "x-2",
        "unanswerable",
        "",
        doc=f"pdfs/{SMALL[0]}",
        question="How does QACheck's question generator work?",
    )
    mine.append(elsewhere)
    _write(folder / "questions.jsonl", [*mine, _record("x-1", "fact", "6", doc="pdfs/broken.pdf")])
    result = run_docs_dev(data_dir=tmp_path / "library", folder=folder, ours=tmp_path / "absent.jsonl")
    assert result["added"] == 2 and list(result["failed"]) == ["broken.pdf"]
    assert "NotAPdf" in result["failed"]["broken.pdf"]
    found = result["sets"]["mmlongbench-doc"]
    rows = found["rows"]
    assert len(rows) == len(mine) + 1 and found["ours_by_kind"]["all"]["on_pdf_not_added"] == 1
    # Asked of its own document: every retrieved piece comes from the question's file.
    for judged in (rows, found["baseline_rows"]):
        assert [r["doc_share"] for r in judged if r["pdf_added"]] == [1.0] * len(mine)
        assert judged[-2]["id"] == "x-2"
    again = run_docs_dev(
        data_dir=tmp_path / "library", folder=folder, ours=tmp_path / "absent.jsonl", baseline=False
    )
    assert (
        not again["built"] and again["added"] == 2 and "not in the library" in again["failed"]["broken.pdf"]
    )
    assert [r["contains"] for r in again["sets"]["mmlongbench-doc"]["rows"]] == [r["contains"] for r in rows]
    # The snapshot asks the same questions as `rag ask --doc` does: only their own document.
    scope = doc_ids(sorted((folder / "pdfs").glob("*.pdf")))
    replies = {r["id"]: r["reply"] for r in answers(corpus_questions(folder), tmp_path / "library", scope)}
    assert replies["x-1"] == {"not_in_library": "broken.pdf"}
    assert {e["file"] for e in replies["x-2"]["retrieved"]} == {SMALL[0]}
