"""Issue 14 item 3 on PostgreSQL: a document deleted by another instance while this one answers
from it gives that answer a clear outcome, never a crash: the answer finishes from the evidence it
retrieved, the evidence of a document deleted during retrieval is left out, and the lookups the
side panel makes afterwards say the document is gone (tests/pg/test_pg_app.py: the panel)."""

from __future__ import annotations

import pytest

from ingest.embeddings import HashEmbeddings
from ingest.team.library import PgLibrary
from rag.answering.answer import answer_stream
from rag.answering.events import Done, Failed, Retrieved
from rag.answering.scripted import ScriptedChatModel
from tests.rag.conftest import ENGINES, GARDEN, HASH_NAME, make_pdf

QUESTION = "When was the greenhouse built?"
OPTIONS = dict(embedding_name=HASH_NAME, chunk_size=400, chunk_overlap=60)


@pytest.fixture
def writer(pg_url: str) -> PgLibrary:
    """The instance that deletes (its own library object and connections)."""
    library = PgLibrary.open(pg_url, HashEmbeddings(384), **OPTIONS)
    library.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    library.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    return library


def garden_id(library: PgLibrary) -> str:
    return next(d.doc_id for d in library.documents() if d.file_name == "garden.pdf")


def test_a_document_deleted_mid_answer_leaves_the_answer_whole(pg_url: str, writer: PgLibrary) -> None:
    reader = PgLibrary.open_reader(pg_url, HashEmbeddings(384), **OPTIONS)
    garden = garden_id(writer)
    events = answer_stream(QUESTION, library=reader, chat_model=ScriptedChatModel(), provider_label="t", k=3)
    retrieved = next(events)
    assert isinstance(retrieved, Retrieved) and retrieved.evidence[0].doc_id == garden
    assert writer.delete(garden)  # while the model is still to answer
    rest = list(events)
    assert not [e for e in rest if isinstance(e, Failed)]
    answer = rest[-1].answer
    assert isinstance(rest[-1], Done) and not answer.interrupted
    assert answer.footnotes[0].evidence.doc_id == garden and "1987" in answer.footnotes[0].evidence.text
    # What the side panel asks for next: the saved evidence stays; the page is gone, said plainly.
    assert reader.document(garden) is None and reader.pages(garden) == []
    with pytest.raises(FileNotFoundError):
        reader.pdf_bytes(garden)


class DeletedDuringRetrieval(PgLibrary):
    """A reader whose dense search returns the garden guide just before another instance deletes it."""

    writer: PgLibrary | None = None

    def search_vector(self, *args, **kwargs):
        hits = super().search_vector(*args, **kwargs)
        if self.writer is not None:
            assert any(c.doc_id == garden_id(self.writer) for c, _ in hits)
            self.writer.delete(garden_id(self.writer))
            self.writer = None
        return hits


def test_evidence_of_a_document_deleted_during_retrieval_is_left_out(pg_url: str, writer: PgLibrary) -> None:
    reader = DeletedDuringRetrieval.open_reader(pg_url, HashEmbeddings(384), **OPTIONS)
    reader.writer = writer
    garden = garden_id(writer)
    events = list(
        answer_stream(QUESTION, library=reader, chat_model=ScriptedChatModel(), provider_label="t", k=3)
    )
    assert reader.writer is None  # the delete happened inside retrieval
    assert not [e for e in events if isinstance(e, Failed)] and isinstance(events[-1], Done)
    answer = events[-1].answer
    assert all(e.doc_id != garden for e in answer.evidence)
    assert all(f.evidence.doc_id != garden for f in answer.footnotes)
