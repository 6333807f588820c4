"""The offline answerer and hybrid retrieval on ../shared/corpus/squad-dev, with local embeddings.

A fixed sample (seed 0: 40 answerable, 40 unanswerable questions), answered with the library's
embeddings as the app does; the same library copied into PostgreSQL (team mode: the same chunks and
vectors, its own word ranking and HNSW) finds the gold page for the same questions. Measured on it when these thresholds were set: hit@6 1.0, gold page
cited 0.90, answer holding the gold text 0.85, cited-page precision 0.804, unanswerable marked
unsupported or given closest passages 0.40. (Before the SQuAD-tuned word lists were removed from
rag/offline/extractive.py: 0.775, 0.75, 0.886, 0.725; those lists declined many of SQuAD 2.0's
unanswerable questions, which are answerable ones with a word changed.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.eval import answer_all, load_questions, open_corpus_library, render, run_eval, summarize
from ingest.embeddings import LocalEmbeddings
from rag.answering.answer import answer_stream
from rag.answering.scripted import ScriptedChatModel
from rag.questions.read import read_question
from rag.retrieval.retrieve import search_evidence
from tests.rag.conftest import copy_to_team

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="session")
def squad_library(corpus: Path, tmp_path_factory: pytest.TempPathFactory):
    pdfs = sorted((corpus / "squad-dev" / "pdfs").glob("*.pdf"))
    assert len(pdfs) == 3
    return open_corpus_library(pdfs, tmp_path_factory.mktemp("squad"), LocalEmbeddings(), "local-test")


@pytest.fixture(scope="session")
def squad_team(squad_library, pg_server):
    return copy_to_team(squad_library, pg_server)


@pytest.fixture(scope="session")
def squad_figures(corpus: Path, squad_library) -> dict:
    questions = load_questions(corpus / "squad-dev" / "questions.jsonl", limit=80, seed=0)
    assert sum(q["is_impossible"] for q in questions) == 40
    rows = answer_all(
        questions,
        lambda q: search_evidence(squad_library, q, k=6),
        gate=True,
        embeddings=squad_library.embeddings,
    )
    return summarize(rows)


def test_the_gold_page_is_retrieved_for_nearly_every_answerable_question(squad_figures: dict) -> None:
    assert squad_figures["hit_at_k"] >= 0.95


def test_most_answerable_questions_cite_their_gold_page(squad_figures: dict) -> None:
    # 0.900 on 2026-12-01; pinned at 0.8 while it was 0.875
    assert squad_figures["gold_page_cited"] >= 0.85
    assert squad_figures["cited_page_precision"] >= 0.75


def test_most_answers_to_answerable_questions_hold_the_gold_text(squad_figures: dict) -> None:
    assert squad_figures["answer_contains_gold"] >= 0.8


def test_many_unanswerable_questions_are_marked_unsupported_or_get_closest_passages(
    squad_figures: dict,
) -> None:
    assert squad_figures["abstention_accuracy"] >= 0.3


@pytest.mark.parametrize(
    "question",
    [
        "How do I bake sourdough bread at home?",
        "What is the capital of Mongolia?",
        "Who won the 2018 football world cup?",
    ],
)
def test_off_topic_questions_never_reach_the_model(backend: str, request, question: str) -> None:
    library = request.getfixturevalue("squad_library" if backend == "local" else "squad_team")
    model = ScriptedChatModel()
    events = list(answer_stream(question, library=library, chat_model=model, provider_label="t", k=6))
    assert model.calls == [] and events[-1].answer.unsupported


def test_run_eval_reports_ours_beside_the_langchain_baseline(corpus: Path, squad_library) -> None:
    result = run_eval(corpus / "squad-dev" / "questions.jsonl", limit=10, k=6, library=squad_library)
    assert result["questions"] == 10 and result["ours"]["answerable"] == 5
    for side in ("ours", "baseline"):
        assert set(result[side]) >= {
            "hit_at_k",
            "cited_page_precision",
            "answer_contains_gold",
            "abstention_accuracy",
        }
        assert 0.0 <= result[side]["hit_at_k"] <= 1.0
    assert "| hit@k" in render(result)


def gold_found(library, questions) -> dict[str, bool]:
    """Each answerable question's id: whether a gold page of its own file is among its evidence."""
    return {
        q["id"]: any(
            e.file_name == Path(q["doc_file"]).name
            and bool({loc.page_index for loc in e.locators} & set(q["gold_page_indexes"]))
            for e in search_evidence(library, read_question(q["question"]), k=6).evidence
        )
        for q in questions
        if not q["is_impossible"]
    }


def test_both_backends_retrieve_the_gold_page_for_the_same_questions(
    corpus: Path, squad_library, squad_team
) -> None:
    questions = load_questions(corpus / "squad-dev" / "questions.jsonl", limit=80, seed=0)
    local = gold_found(squad_library, questions)
    assert gold_found(squad_team, questions) == local
    assert sum(local.values()) >= 0.95 * len(local)
