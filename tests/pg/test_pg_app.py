"""The app on PostgreSQL (AppTest): the chat page answers from the shared library, cites it, and
saves the turn in the database, not in the data folder."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from components.shared import resources, state
from ingest.embeddings import HashEmbeddings
from ingest.team.library import PgLibrary
from rag.stores.postgres_conversations import PgConversationStore
from settings import load_settings
from tests.pages.conftest import CHUNK_OVERLAP, CHUNK_SIZE, ROOT, WATER, answers, make_pdf


@pytest.fixture
def pg_app(pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PgLibrary]:
    library = PgLibrary.open(
        pg_url,
        HashEmbeddings(384),
        embedding_name="fake:hash:384",
        chunk_size=CHUNK_SIZE,
        chunk_overlap=CHUNK_OVERLAP,
    )
    library.add_pdf(make_pdf(WATER, "Water facts"), "water.pdf")
    for key, value in {
        "DATABASE_URL": pg_url,
        "DATA_DIR": str(tmp_path / "data"),
        "EMBEDDING_PROVIDER": "fake",
        "LLM_PROVIDER": "fake",
        "CHUNK_SIZE": str(CHUNK_SIZE),
        "CHUNK_OVERLAP": str(CHUNK_OVERLAP),
    }.items():
        monkeypatch.setenv(f"FOOTNOTE_{key}", value)
    monkeypatch.chdir(ROOT)
    st.cache_resource.clear()
    st.cache_data.clear()
    yield library
    st.cache_resource.clear()
    st.cache_data.clear()


def test_chat_answers_cites_and_saves_in_postgres(pg_app: PgLibrary, pg_url: str, tmp_path: Path) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    water = next(c.chunk_id[:7] for c in pg_app.chunks() if "Water boils" in c.text)
    model, _label = resources.get_chat_model(load_settings())
    model.replies.append(f"Water boils at one hundred degrees Celsius at sea level [{water}].")
    at.chat_input[0].set_value("When does water boil?").run()
    assert not at.exception, at.exception
    [payload] = [json.loads(el.proto.json) for el in answers(at)]
    assert re.findall(r'class="fn-ref" data-n="(\d)"', payload["html"]) == ["1"]
    conv = at.query_params["conv"]
    conv = conv[0] if isinstance(conv, list) else conv
    [turn] = PgConversationStore(pg_url).turns(conv)
    assert [f.short_id for f in turn.answer.footnotes] == [water]
    assert not (tmp_path / "data").exists()  # nothing local: library and chats are in the database


def _session(user: dict, conv: str | None = None, page: str | None = None) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.user = user
    if conv:
        at.query_params["conv"] = conv
    if page:
        at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    return at


def test_two_users_on_postgres_see_only_their_own_chats(pg_app: PgLibrary, pg_url: str) -> None:
    alice = {"is_logged_in": True, "email": "alice@example.com"}
    bob = {"is_logged_in": True, "email": "bob@example.com"}
    water = next(c.chunk_id[:7] for c in pg_app.chunks() if "Water boils" in c.text)
    model, _label = resources.get_chat_model(load_settings())
    model.replies.append(f"Water boils at one hundred degrees Celsius at sea level [{water}].")
    at = _session(alice)
    at.chat_input[0].set_value("Alice asks when water boils").run()
    conv = at.query_params["conv"]
    conv = conv[0] if isinstance(conv, list) else conv

    intruder = _session(bob, conv=conv)
    assert "conv" not in intruder.query_params and not answers(intruder)
    assert not [b for b in intruder.button if b.key.startswith("conv_")]
    assert "No answered questions yet" in _session(bob, page="pages/audit.py").info[0].value
    assert len(answers(_session(alice, conv=conv))) == 1
    assert PgConversationStore(pg_url).list_recent() == []  # not the local user's either
    assert [i.conv_id for i in PgConversationStore(pg_url, "alice@example.com").list_recent()] == [conv]


def test_panel_of_a_document_another_instance_deleted_says_so(pg_app: PgLibrary, pg_url: str) -> None:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    water = next(c.chunk_id[:7] for c in pg_app.chunks() if "Water boils" in c.text)
    model, _label = resources.get_chat_model(load_settings())
    model.replies.append(f"Water boils at one hundred degrees Celsius at sea level [{water}].")
    at.chat_input[0].set_value("When does water boil?").run()
    conv = at.query_params["conv"]
    [turn] = PgConversationStore(pg_url).turns(conv[0] if isinstance(conv, list) else conv)
    evidence = turn.answer.footnotes[0].evidence
    assert pg_app.delete(evidence.doc_id)  # pg_app is another library object: another instance
    at.session_state[state.SELECTION] = (turn.turn_id, 1)
    at.run()
    assert not at.exception, at.exception
    assert any("no longer in the library" in w.value for w in at.warning)
    shown = " ".join(" ".join(t.value.split()) for t in at.text)
    assert " ".join(evidence.text.split()[:8]) in shown and f"id {water}" in shown
    assert not at.image
