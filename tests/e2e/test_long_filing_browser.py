"""Issue 12's "done when", in a real browser with the default local embeddings and offline
answerer: the three analysts' questions asked of one long annual report (the generator's 127-page
10-K, bench/filings/long.py) each get an answer or closest passages that quote the gold words and
cite a page holding them. The report is ingested through the library API before the app starts
(an upload would only add the embedding time); the asking is in the browser."""

from __future__ import annotations

import re
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from bench.filings.long import LONG_COMPANY, render_long
from bench.filings.questions import Question
from ingest.local.library import Library
from settings import load_settings
from tests.e2e.conftest import FOOTNOTE, PANEL, ask, wait_idle
from tests.e2e.server import run_app
from wiring import make_embeddings

pytestmark = pytest.mark.browser
_INDEX = re.compile(r"\(index (\d+)(?:-(\d+))?\)")


def _flat(text: str) -> str:
    return " ".join(text.split()).lower()


def holds(text: str, values: tuple[str, ...]) -> bool:
    """Whether text holds every gold value (a number as a whole number: "76" is not in "1,760")."""
    flat = _flat(text)
    return all(re.search(rf"(?<![\w,.]){re.escape(_flat(v))}(?![\w]|[,.]\d)", flat) for v in values)


@pytest.fixture(scope="module")
def filing(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Question], list[str]]:
    """The long report ingested into a fresh library folder with the default settings; its
    questions and its page texts."""
    root = tmp_path_factory.mktemp("long_filing_e2e")
    data, questions = render_long()
    pages = [p.extract_text() for p in PdfReader(BytesIO(data), strict=False).pages]
    assert len(pages) > 100
    ingest_with_defaults(root / "data", data, LONG_COMPANY.file_name)
    return root, questions, pages


def ingest_with_defaults(data_dir: Path, data: bytes, file_name: str) -> None:
    """One PDF added to a library folder through the library API, with the app's default settings."""
    settings = load_settings(data_dir=str(data_dir))
    embeddings, name = make_embeddings(settings)
    library = Library.open(
        settings.data_dir,
        embeddings,
        embedding_name=name,
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
    )
    library.add_pdf(data, file_name)


@pytest.fixture(scope="module")
def app(filing: tuple[Path, list[Question], list[str]]) -> Iterator[str]:
    """The app on that library folder, every other setting at its default."""
    root = filing[0]
    with run_app({"FOOTNOTE_DATA_DIR": str(root / "data")}, root / "streamlit.log") as url:
        yield url


def cited_pages(page: Page) -> list[int]:
    """The page indexes of every footnote of the last answer, read from the side panel."""
    answer = page.get_by_test_id("stChatMessage").last
    found: list[int] = []
    for n in range(answer.locator(FOOTNOTE).count()):
        page.get_by_test_id("stChatMessage").last.locator(FOOTNOTE).nth(n).click()
        wait_idle(page)
        panel = page.locator(PANEL)
        expect(panel).to_contain_text("(index ")
        for match in _INDEX.finditer(panel.inner_text()):
            first = int(match.group(1))
            found += range(first, int(match.group(2) or first) + 1)
    return found


def test_the_issue_questions_on_a_long_filing_cite_a_page_holding_the_answer(
    app: str, filing: tuple[Path, list[Question], list[str]], page: Page
) -> None:
    _root, questions, texts = filing
    page.set_default_timeout(90_000)  # the first question loads the model and the BM25 index of 127 pages
    page.goto(app)
    wait_idle(page)
    expect(page.get_by_text("Ask a question about your 1 document(s)")).to_be_visible()
    for question in questions:
        ask(page, question.question)
        answer = page.get_by_test_id("stChatMessage").last
        expect(answer.locator(FOOTNOTE).first).to_be_visible(timeout=60_000)
        said = answer.locator(".fn-answer").inner_text()
        assert holds(said, question.gold_values), (question.question, said)
        pages = cited_pages(page)
        assert any(holds(texts[i], question.gold_values) for i in pages), (question.question, pages)
