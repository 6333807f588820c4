"""A failure is said in words where it happens: a problem in a file's text is the file's, never the
embedding model's, and no exception class name or codec message reaches the user."""

from __future__ import annotations

from pathlib import Path

import pytest

import ingest.worker
from ingest.errors import UnreadableText
from ingest.local.vectors import embed_in_batches, embedding_cause
from ingest.worker import run_job
from tests.ingest.pdfs import PARAGRAPH, make_pdf
from tests.ingest.test_library import open_library


class APIConnectionError(Exception):  # named as openai's is: the name must not reach the user
    pass


class APITimeoutError(Exception):
    pass


class APIStatusError(Exception):
    status_code = 400


@pytest.mark.parametrize(
    ("exc", "said"),
    [
        (APIConnectionError("Connection error."), "the embedding endpoint could not be reached"),
        (APITimeoutError("Request timed out."), "the embedding endpoint did not answer in time"),
        (APIStatusError("input too long\nmore"), "the embedding endpoint answered 400: input too long"),
        (RuntimeError(""), "the embedding model gave no reason"),
    ],
)
def test_an_embedding_failure_is_said_in_words(exc: Exception, said: str) -> None:
    assert embedding_cause(exc) == said
    assert type(exc).__name__ not in embedding_cause(exc)


class Refuses:
    """Embeddings that must never be called."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        raise AssertionError("a text problem reached the model")


def test_invalid_text_is_the_files_problem_before_the_model_is_asked() -> None:
    with pytest.raises(UnreadableText, match=r"^paper\.pdf: holds text that could not be read"):
        embed_in_batches(Refuses(), ["fine", "bad \ud835 half"], 8, "paper.pdf", lambda d, t: None)


@pytest.mark.parametrize(
    ("raised", "expected"),
    [
        (RuntimeError("the index said no"), "pages.pdf: could not be added because of an internal error"),
        (
            UnicodeEncodeError("utf-8", "\ud835", 0, 1, "surrogates not allowed"),
            "pages.pdf: holds text that could not be read as characters",
        ),
    ],
)
def test_a_failed_job_says_why_without_class_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raised: Exception, expected: str
) -> None:
    library = open_library(tmp_path)
    job = library.jobs.enqueue(make_pdf([PARAGRAPH]), "pages.pdf")

    def broken(*args: object, **kwargs: object) -> None:
        raise raised

    monkeypatch.setattr(ingest.worker, "prepare_words", broken)  # a fault where reading happens
    ended = run_job(library, library.jobs.claim("test-worker", 60.0))
    assert ended is not None and ended.stage == "failed" and ended.job_id == job.job_id
    assert ended.message.startswith(expected)
    for leak in (type(raised).__name__, "codec", "surrogates"):
        assert leak not in ended.message
