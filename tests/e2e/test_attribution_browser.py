"""Footnote's own matches in Chromium: an answer from a real OpenAI-compatible endpoint (scripted,
on loopback) cites one sentence in a half-followed style and leaves a copied sentence uncited;
the chat shows the two badge styles and the side panel names who made each footnote."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from rag.questions.read import read_question
from rag.retrieval.retrieve import search_evidence
from rag.text import split_sentences, tokenize
from tests.e2e.conftest import CHAT_INPUT, PANEL, wait_idle
from tests.e2e.documents import guide_pdf
from tests.e2e.server import run_app, scripted_env
from tests.openai_server import ScriptedOpenAIServer, stream
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
QUESTION = "When does water boil?"
ANSWER = '[data-testid="stBidiComponentIsolated"] .fn-answer'


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, ScriptedOpenAIServer, list]]:
    """The app answering through the scripted server, and the evidence it will give the model."""
    root = tmp_path_factory.mktemp("attribution_e2e")
    library = build_library(root / "data", [("guide.pdf", guide_pdf())])
    evidence = list(
        search_evidence(library, read_question(QUESTION), k=6).evidence
    )  # what the app retrieves too
    with (
        ScriptedOpenAIServer() as llm,
        run_app(scripted_env(root / "data", llm.base_url), root / "app.log") as url,
    ):
        yield url, llm, evidence


def _copied_sentence(evidence: list) -> tuple[str, object]:
    """A sentence of the second or a later piece, long enough to be matched, word for word."""
    for item in evidence[1:]:
        for sentence in split_sentences(item.text):
            if len(set(tokenize(sentence))) >= 5 and sentence.endswith("."):
                return sentence, item
    raise AssertionError("no piece of evidence has a sentence to copy")


def test_cited_and_matched_badges_look_different_and_the_panel_names_them(app, page: Page) -> None:
    url, llm, evidence = app
    cited = evidence[0]
    copied, source = _copied_sentence(evidence)
    reply = f"The guide covers boiling [Source ID: {cited.short_id}]. {copied}"
    llm.push(stream(*(reply[i : i + 5] for i in range(0, len(reply), 5))))
    page.goto(url)
    wait_idle(page)
    page.locator(CHAT_INPUT).fill(QUESTION)
    page.locator(CHAT_INPUT).press("Enter")
    answer = page.locator(ANSWER).last
    model_badge = answer.locator("button.fn-ref:not(.fn-matched)")
    matched_badge = answer.locator("button.fn-ref.fn-matched")
    expect(model_badge).to_have_count(1, timeout=30_000)
    expect(matched_badge).to_have_count(1)
    wait_idle(page)
    assert (model_badge.inner_text(), matched_badge.inner_text()) == ("1", "2")
    style = "b => getComputedStyle(b).borderTopStyle + ' ' + getComputedStyle(b).fontStyle"
    assert model_badge.evaluate(style) == "solid normal"
    assert matched_badge.evaluate(style) == "dashed italic"
    assert "Source ID" not in answer.inner_text()  # the marker became the button
    expect(page.get_by_text("1 sentence matched by Footnote", exact=False)).to_be_visible()

    matched_badge.click()
    panel = page.locator(PANEL)
    expect(panel.locator(".st-key-panel_kind_matched")).to_contain_text("Matched by Footnote")
    expect(panel).to_contain_text(f"id {source.short_id}")
    wait_idle(page)
    assert " ".join(copied.split()) in " ".join(panel.inner_text().split())
    model_badge.click()
    expect(panel.locator(".st-key-panel_kind_cited")).to_contain_text("Cited by the model")
    expect(panel).to_contain_text(f"id {cited.short_id}")
    wait_idle(page)
