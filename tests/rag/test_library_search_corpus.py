"""Phrase search on the real PDFs of ../shared/corpus/squad-dev: every multi-word SQuAD answer is
an exact stretch of its paragraph, so searching it in quotes must land on the paragraph's page.

Measured when the bar was set (fake embeddings; search does not use them; default chunks of
1,000 characters with 150 overlap): 247 of 248 distinct answers found on a gold page (0.996).
The one miss ("as a function of the size of the instance") straddles two chunks that the
splitter did not overlap there: phrases are matched within a chunk.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench.eval import open_corpus_library
from ingest.embeddings import HashEmbeddings
from rag.retrieval.library_search import search_library
from rag.retrieval.retrieve import lexical_index

pytestmark = pytest.mark.corpus


def _words(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.lower())) + " "


def test_quoted_answers_are_found_on_their_gold_page(corpus: Path, tmp_path: Path) -> None:
    squad = corpus / "squad-dev"
    library = open_corpus_library(
        sorted((squad / "pdfs").glob("*.pdf")), tmp_path / "lib", HashEmbeddings(384), "fake:hash:384"
    )
    doc_of = {d.file_name: d.doc_id for d in library.documents()}
    rows = [json.loads(line) for line in (squad / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    cases = {
        (r["answers"][0]["text"].strip('"'), Path(r["doc_file"]).name): set(r["paragraph_page_indexes"])
        for r in rows
        if not r["is_impossible"] and len(r["answers"][0]["text"].split()) >= 2
    }
    found = 0
    for (answer, file_name), pages in cases.items():
        hits = search_library(
            library, f'"{answer}"', lexical_index(library), limit=50, doc_ids=[doc_of[file_name]]
        )
        assert all(_words(answer) in _words(h.evidence.text) for h in hits), answer  # punctuation aside
        found += any(h.page_index in pages for h in hits)
    assert len(cases) >= 200
    assert found / len(cases) >= 0.98
