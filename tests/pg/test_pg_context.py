"""Both backends embed a chunk's context with its text (one prepare_pdf for both)."""

from __future__ import annotations

from ingest.team.library import PgLibrary
from tests.ingest.test_chunk_context_store import TITLE, RecordingEmbeddings
from tests.ingest.test_context import _statement_pdf


def test_postgres_embeds_context_before_the_text_on_add_and_reindex(pg_url: str) -> None:
    embeddings = RecordingEmbeddings()
    library = PgLibrary.open(
        pg_url, embeddings, embedding_name="fake:hash:64", chunk_size=250, chunk_overlap=40
    )
    library.add_pdf(_statement_pdf(), "northwind.pdf")
    rows = [c for c in library.chunks() if c.context == TITLE]
    assert rows and all(f"{TITLE}\n{c.text}" in embeddings.seen for c in rows)
    embeddings.seen.clear()
    library.reindex_all()
    assert all(f"{TITLE}\n{c.text}" in embeddings.seen for c in rows)
