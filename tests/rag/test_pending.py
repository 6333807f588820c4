"""An answer drawing on a document whose vectors are still being embedded says so in one line,
saved with it; once the vectors are in, the same library answers without the line (no reopen).
On both backends: the worker's job store is the library's own (local queue or PostgreSQL)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from ingest.embeddings import GatedEmbeddings
from ingest.types import LibraryReader
from ingest.worker import run_job
from rag.answering.answer import answer_stream
from rag.answering.events import Done
from rag.offline.extractive import ExtractiveAnswerer
from rag.retrieval.pending import words_only_lines
from rag.stores.serialize import answer_from_dict, answer_to_dict
from tests.rag.conftest import GARDEN, OpenLibrary, make_pdf

QUESTION = "When does the gardener stake each tomato plant?"


def _answer(library: LibraryReader):
    events = answer_stream(
        QUESTION,
        library=library,
        chat_model=ExtractiveAnswerer(embeddings=library.embeddings),
        provider_label="extractive",
        k=3,
    )
    return next(e.answer for e in events if isinstance(e, Done))


def _wait(condition, what: str) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_words_only_answer_says_so_and_then_no_longer(
    tmp_path: Path, open_backend_library: OpenLibrary
) -> None:
    gate = tmp_path / "gate"
    library = open_backend_library(GatedEmbeddings(gate), chunk_size=200, chunk_overlap=0, batch_size=2)
    job = library.jobs.enqueue(make_pdf(GARDEN * 3, "Garden guide"), "garden.pdf")
    thread = threading.Thread(
        target=run_job, args=(library, library.jobs.claim("t:0:w", 60), 60), daemon=True
    )
    thread.start()
    try:
        _wait(lambda: library.vector_progress().get(job.doc_id), "the first batch of vectors")
        share = library.vector_progress()[job.doc_id]
        answer = _answer(library)
        assert answer.footnotes  # found, and cited, by its words alone
        assert answer.words_only == (f"words only for Garden guide: vectors {int(share * 100)}% done",)
        assert answer_from_dict(answer_to_dict(answer)).words_only == answer.words_only  # saved with it
        # its passages were not embedded at the question: no cosine, saved as none
        assert {e.score for e in answer.evidence if e.doc_id == job.doc_id} == {None}
        assert answer_from_dict(answer_to_dict(answer)).evidence == answer.evidence
    finally:
        gate.touch()
    thread.join(60)
    after = _answer(library)
    assert after.footnotes and after.words_only == ()
    assert all(isinstance(e.score, float) for e in after.evidence)
    assert any(
        c.doc_id == job.doc_id for c, _ in library.search_vector(library.embeddings.embed_query(QUESTION), 3)
    )


def test_lines_name_each_cited_document_once(tmp_path: Path) -> None:
    from rag.types import Answer, Evidence, Footnote

    def evidence(short_id: str, doc_id: str, title: str) -> Evidence:
        return Evidence(short_id, short_id * 8, doc_id, title, f"{doc_id}.pdf", "text", 0.5, ())

    a1, a2, b = (
        evidence("a1", "A", "Annual  report"),
        evidence("a2", "A", "Annual  report"),
        evidence("b1", "B", ""),
    )
    answer = Answer(
        "q", "t", tuple(Footnote(n, e.short_id, e, ()) for n, e in enumerate((a1, a2, b), 1)), (), (a1, a2, b)
    )
    assert words_only_lines(answer, {"A": 0.4, "C": 0.1}) == (
        "words only for Annual report: vectors 40% done",
    )
    assert words_only_lines(answer, {"B": 0.0}) == ("words only for B.pdf: vectors 0% done",)
    assert words_only_lines(answer, {}) == ()
