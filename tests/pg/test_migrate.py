"""`python -m cli.ingest migrate --to URL`: a local library, its chats and verdicts in PostgreSQL,
vectors copied as stored (not re-embedded), old conversations opening their footnotes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ingest.embeddings import HashEmbeddings
from ingest.team.library import PgLibrary
from rag.questions.read import read_question
from rag.retrieval.retrieve import search_evidence
from rag.stores.conversations import ConversationStore
from rag.stores.postgres_conversations import PgConversationStore
from rag.stores.postgres_verdicts import PgVerdictStore
from rag.stores.verdicts import AUDIT_DB_NAME, VerdictStore
from tests.rag.conftest import ENGINES, GARDEN, HASH_NAME, make_pdf, open_hash_library
from tests.rag.test_conversations import _answer

ROOT = Path(__file__).resolve().parents[2]


def migrate(data_dir: Path, url: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("FOOTNOTE_", "OPENAI_"))}
    environ.update(FOOTNOTE_EMBEDDING_PROVIDER="fake")
    return subprocess.run(
        [sys.executable, "-m", "cli.ingest", "migrate", "--to", url, "--data-dir", str(data_dir)],
        check=False,
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_migrate_copies_library_chats_and_verdicts_once(pg_url: str, tmp_path: Path) -> None:
    data_dir = tmp_path / "lib"
    local = open_hash_library(data_dir)
    local.add_pdf(make_pdf(GARDEN, "Garden guide"), "garden.pdf")
    local.add_pdf(make_pdf(ENGINES, "Engines primer"), "engines.pdf")
    chats = ConversationStore(data_dir / "conversations.sqlite3")
    conv = chats.create()
    turn = chats.add_turn(conv, _answer("What is it?"))
    VerdictStore(data_dir / AUDIT_DB_NAME).save((turn.turn_id, 1, 0), "abc1234", "supported", note="p. 3")
    # A second user (the app behind a login proxy on the local backend): hers stay hers.
    hers = chats.for_user("ann@example.com")
    her_turn = hers.add_turn(hers.create(), _answer("What did Ann ask?"))
    VerdictStore(data_dir / AUDIT_DB_NAME, "ann@example.com").save(
        (her_turn.turn_id, 1, 0), "abc1234", "supported"
    )

    done = migrate(data_dir, pg_url)
    assert done.returncode == 0, done.stderr
    assert "copied 2 documents" in done.stdout and "copied 2 conversations and 2 verdicts" in done.stdout
    # A library whose HNSW index and embeddings are real: the same evidence as the local library.
    shared = PgLibrary.open_reader(
        pg_url, HashEmbeddings(384), embedding_name=HASH_NAME, chunk_size=400, chunk_overlap=60
    )
    assert shared.chunk_count() == local.chunk_count()
    question = "When was the greenhouse built?"
    assert [e.text for e in search_evidence(shared, read_question(question), k=2).evidence] == [
        e.text for e in search_evidence(local, read_question(question), k=2).evidence
    ]
    vector = local.embeddings.embed_query(question)
    assert [(c.chunk_id, round(s, 5)) for c, s in shared.search_vector(vector, 3)] == [
        (c.chunk_id, round(s, 5)) for c, s in local.search_vector(vector, 3)
    ]
    assert shared.pdf_bytes(local.documents()[0].doc_id) == local.pdf_bytes(local.documents()[0].doc_id)
    [copied] = PgConversationStore(pg_url).turns(conv)
    assert copied == turn  # same ids and times: ?conv= links and their footnotes still open
    assert PgVerdictStore(pg_url).get((turn.turn_id, 1, 0)).note == "p. 3"
    ann = PgConversationStore(pg_url, "ann@example.com")
    assert ann.all_turns() == [her_turn] and ann.get_turn(turn.turn_id) is None
    assert [v.key for v in PgVerdictStore(pg_url, "ann@example.com").all()] == [(her_turn.turn_id, 1, 0)]
    assert [v.key for v in PgVerdictStore(pg_url).all()] == [(turn.turn_id, 1, 0)]

    again = migrate(data_dir, pg_url)
    assert again.returncode == 0, again.stderr
    assert "copied 0 documents" in again.stdout and "2 were already there" in again.stdout
    assert "copied 0 conversations and 0 verdicts" in again.stdout
    assert shared.chunk_count() == local.chunk_count()


def test_migrate_from_a_folder_without_a_library_says_so(pg_url: str, tmp_path: Path) -> None:
    done = migrate(tmp_path / "nothing", pg_url)
    assert done.returncode == 1 and "no library at" in done.stderr and "Traceback" not in done.stderr
