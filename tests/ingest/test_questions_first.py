"""Questions first: an ingest's local embedding waits between texts while a question of the same
process is being searched (ingest.embeddings.asking), for a bounded time, and never changes a vector."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from ingest import embeddings
from ingest.embeddings import INGEST_BATCH, LocalEmbeddings, asking, yield_to_questions

TEXTS = ["Net revenue rose 5% in 2021.", "The certifications are on the last pages.", "Capital spending."]


def test_no_question_no_wait() -> None:
    assert embeddings._asking == 0
    yield_to_questions(timeout=60)  # returns at once: nothing to wait for


def test_an_ingest_text_waits_until_the_question_is_searched() -> None:
    started, done = threading.Event(), threading.Event()

    def ingest_text() -> None:
        started.set()
        yield_to_questions(timeout=60)
        done.set()

    with asking():
        with asking():  # nested: the outer one still holds
            pass
        thread = threading.Thread(target=ingest_text, daemon=True)
        thread.start()
        assert started.wait(10)
        assert not done.wait(0.2)
    assert done.wait(10)
    thread.join(10)
    assert embeddings._asking == 0


def test_the_wait_is_bounded() -> None:
    with asking():
        yield_to_questions(timeout=0.01)  # a gate left up slows an ingest, never stops it
    assert embeddings._asking == 0


def test_asking_ends_when_the_search_raises() -> None:
    with pytest.raises(RuntimeError), asking():
        raise RuntimeError("search failed")
    assert embeddings._asking == 0


@pytest.fixture(scope="module")
def local() -> LocalEmbeddings:
    return LocalEmbeddings()


def test_only_ingest_texts_yield_and_their_vectors_are_the_same(
    local: LocalEmbeddings, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[float] = []
    monkeypatch.setattr(embeddings, "yield_to_questions", lambda timeout=0.0: calls.append(timeout))
    asked = local.embed_array(TEXTS)
    assert calls == []
    token = INGEST_BATCH.set(0)
    try:
        ingested = local.embed_array(TEXTS)
        one = local.embed_array(TEXTS[:1])
    finally:
        INGEST_BATCH.reset(token)
    assert len(calls) == len(TEXTS) + 1  # before each text, on the pool's threads too
    np.testing.assert_array_equal(asked, ingested)
    np.testing.assert_array_equal(asked[:1], one)
