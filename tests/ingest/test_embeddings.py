"""The local MiniLM gives known vectors; the fake is deterministic; providers are wired right."""

from __future__ import annotations

import numpy as np
import pytest

from ingest.embeddings import LOCAL_NAME, HashEmbeddings, LocalEmbeddings, make_embeddings
from settings import load_settings

SENTENCES = [
    "The cat sits on the mat.",
    "A kitten is resting on a rug.",
    "Quarterly revenue grew by twelve percent.",
]
# Computed once with this code (int8 ONNX, tokenizer fixed to 256 tokens, mean pooling).
FIRST_DIMS = [
    [0.1309, -0.0326, -0.0226, 0.0399, -0.0360, 0.0414],
    [0.0725, 0.0142, 0.0142, 0.0586, -0.0044, 0.0561],
    [0.0892, 0.0018, -0.0512, -0.0674, -0.0149, -0.0140],
]
COSINES = {(0, 1): 0.6388, (0, 2): -0.0138, (1, 2): -0.0148}


@pytest.fixture(scope="module")
def local() -> LocalEmbeddings:
    return LocalEmbeddings(batch_size=4)


def test_local_vectors_match_pinned_values(local: LocalEmbeddings) -> None:
    vectors = np.array(local.embed_documents(SENTENCES))
    assert vectors.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(vectors[:, :6], FIRST_DIMS, atol=3e-3)
    for (i, j), cosine in COSINES.items():
        assert float(vectors[i] @ vectors[j]) == pytest.approx(cosine, abs=5e-3)


def test_related_sentences_are_closer_than_unrelated(local: LocalEmbeddings) -> None:
    query = np.array(local.embed_query("Where is the cat sleeping?"))
    docs = np.array(local.embed_documents(SENTENCES))
    scores = docs @ query
    assert scores[0] > scores[2] + 0.3 and scores[1] > scores[2]


def test_padding_does_not_change_a_vector(local: LocalEmbeddings) -> None:
    alone = np.array(local.embed_query(SENTENCES[0]))
    batched = np.array(local.embed_documents([SENTENCES[0], "word " * 200])[0])
    np.testing.assert_allclose(alone, batched, atol=1e-4)


def test_truncates_at_256_tokens_not_128(local: LocalEmbeddings) -> None:
    head = " ".join(f"w{n % 7}" for n in range(60))  # 120 tokens: "w", "##n" per word
    a, b, c = local.embed_documents([
        head + " alpha beta gamma" * 10,
        head + " delta epsilon zeta" * 10,
        head + " lorem" * 300 + " delta",
    ])
    # Text after token 128 still counts (the shipped tokenizer would cut it off) ...
    assert float(np.dot(a, b)) < 0.99
    # ... and text after token 256 does not.
    d = local.embed_query(head + " lorem" * 300 + " omega")
    assert float(np.dot(c, d)) == pytest.approx(1.0, abs=1e-5)


def test_hash_embeddings_are_deterministic_and_unit_length() -> None:
    fake = HashEmbeddings(dim=64)
    a, b = fake.embed_documents(["Fog rolls in", "fog ROLLS in"])
    assert a == b and len(a) == 64
    assert float(np.linalg.norm(a)) == pytest.approx(1.0)
    assert fake.embed_query("") == fake.embed_query("   ")
    assert float(np.dot(fake.embed_query("fog horn"), fake.embed_query("fog"))) > 0.5


@pytest.mark.parametrize(
    ("provider", "cls_name", "name"),
    [("local", "LocalEmbeddings", LOCAL_NAME), ("fake", "HashEmbeddings", "fake:hash:384"),
     ("openai", "OpenAIEmbeddings", "openai:text-embedding-3-small")],
)
def test_make_embeddings_per_provider(provider: str, cls_name: str, name: str) -> None:
    settings = load_settings(embedding_provider=provider, llm_api_key="sk-test", embed_batch_size=8)
    embeddings, recorded = make_embeddings(settings)
    assert type(embeddings).__name__ == cls_name and recorded == name
    if provider == "openai":  # must never reach tiktoken's downloader
        assert embeddings.check_embedding_ctx_length is False


def test_threads_share_one_model(local: LocalEmbeddings) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(local.embed_query, SENTENCES * 2))
    np.testing.assert_allclose(np.array(results[:3]), np.array(results[3:]), atol=1e-6)
    np.testing.assert_allclose(np.array(results[:3])[:, :6], FIRST_DIMS, atol=3e-3)


def test_token_counts_follow_the_truncation(local: LocalEmbeddings) -> None:
    short, long = local.token_counts(["Fog.", "fog " * 1000])
    assert short == 4 and long == 256  # [CLS] fog . [SEP]; the long one is cut at 256
