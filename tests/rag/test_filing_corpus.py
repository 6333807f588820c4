"""A filings-dev filing on both backends: Johnson & Johnson's 24-page Q2 2023 earnings release in a
local library (local embeddings), copied into PostgreSQL with the same chunks and vectors, asked
every filings-dev question on it (FinanceBench's and ours). The backends rank words differently
(BM25 here, PostgreSQL full text there), so their evidence may come in another order; the evidence
page must be retrieved, and cited by the offline answerer, for the same questions on both."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.eval import answer_all, open_corpus_library
from bench.real_filings import questions
from ingest.embeddings import LocalEmbeddings
from rag.retrieval.retrieve import search_evidence
from tests.rag.conftest import copy_to_team

pytestmark = pytest.mark.corpus

FILING = "JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf"


@pytest.fixture(scope="session")
def filing_libraries(corpus: Path, tmp_path_factory: pytest.TempPathFactory, pg_server) -> dict:
    pdf = corpus / "filings-dev" / "pdfs" / FILING
    local = open_corpus_library([pdf], tmp_path_factory.mktemp("filing"), LocalEmbeddings(), "local-test")
    return {"local": local, "team": copy_to_team(local, pg_server)}


def _outcomes(library) -> list[tuple[str, bool, bool]]:
    """(id, evidence page retrieved, evidence page cited) of each answerable question on the filing."""
    asked = [q for q in questions() if q["doc_file"].endswith(FILING)]
    rows = answer_all(
        asked, lambda q: search_evidence(library, q, k=6), gate=True, embeddings=library.embeddings
    )
    return [(r["id"], r["hit"], r["cited_gold"] > 0) for r in rows if not r["impossible"]]


def test_the_filings_evidence_pages_are_found_and_cited_for_the_same_questions(
    filing_libraries: dict,
) -> None:
    local = _outcomes(filing_libraries["local"])
    assert _outcomes(filing_libraries["team"]) == local
    assert len(local) >= 5 and sum(hit for _, hit, _ in local) > len(local) / 2
