"""Uploads that never block (issue 21), in a real browser: upload a long PDF, go to the chat 5 s
later, ask about a sentence on its last page: the answer cites it, by words only, while the
Library page still shows the job embedding; reload the Library page: the job is still there,
and it finishes. The embedding is held at a gate file (FOOTNOTE_FAKE_EMBED_GATE) that the test
opens, so the job is mid-embedding for as long as the test needs, with no timing luck."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import CHAT_INPUT, FOOTNOTE, PANEL, ask, wait_idle
from tests.e2e.server import offline_env, run_app
from tests.pages.conftest import make_pdf

pytestmark = pytest.mark.browser

TITLE = "Annual Report of the Harbour Board"
PAGES = 60
FILLER = (
    "The harbour board met in the long room and read the minutes of the previous meeting. "
    "Tonnage, dues and dredging were discussed at length, and the accounts were approved. "
)
LAST = "The lighthouse keeper named the new brass fog bell Agatha, after her grandmother."
QUESTION = "What did the lighthouse keeper name the new brass fog bell?"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, Path]]:
    """An app on an empty library whose ingest embedding waits at a gate after its first batch."""
    root = tmp_path_factory.mktemp("background_ingest_e2e")
    pages = [f"Page {n + 1}. " + FILLER * 6 for n in range(PAGES - 1)] + [LAST]
    (root / "harbour.pdf").write_bytes(make_pdf(pages, TITLE))
    env = offline_env(
        root / "data",
        chunk_size=300,
        FOOTNOTE_FAKE_EMBED_GATE=str(root / "gate"),
        FOOTNOTE_EMBED_BATCH_SIZE="8",
    )
    with run_app(env, root / "streamlit.log") as url:
        yield url, root / "harbour.pdf", root / "gate"


def test_a_long_upload_is_answerable_by_words_while_it_embeds_and_survives_a_reload(app, page: Page) -> None:
    url, pdf, gate = app
    page.goto(url + "/library")
    wait_idle(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(pdf))
    add = page.get_by_role("button", name="Add to library")
    expect(add).to_be_enabled()
    add.click()
    expect(page.get_by_text("harbour.pdf").first).to_be_visible()  # its job, listed at once

    page.wait_for_timeout(5_000)  # the user goes to the chat 5 s later (a step of the story, not a wait)
    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Chat").click()
    expect(page.locator(CHAT_INPUT)).to_be_enabled(timeout=60_000)  # its words are in
    expect(page.get_by_role("link", name="1 document being added")).to_be_visible()
    ask(page, QUESTION)
    answer = page.get_by_test_id("stChatMessage").last
    expect(answer).to_contain_text("Agatha", timeout=60_000)
    expect(answer).to_contain_text(f"words only for {TITLE}: vectors ")
    page.locator(FOOTNOTE).first.click()
    expect(page.locator(PANEL)).to_contain_text(f"Page {PAGES} (index {PAGES - 1})")  # its last page

    page.get_by_role("link", name="1 document being added").click()  # to the Library page
    wait_idle(page)
    expect(page.get_by_text("Searchable by words; embedding chunks")).to_be_visible()
    page.reload()  # a new session: the job does not belong to one
    wait_idle(page)
    expect(page.get_by_text("Searchable by words; embedding chunks")).to_be_visible()

    gate.touch()  # let the embedding finish
    expect(page.get_by_text("harbour.pdf: added: 60 pages")).to_be_visible(timeout=120_000)
    expect(page.get_by_text("Searchable by words; embedding chunks")).to_have_count(0)

    page.get_by_test_id("stSidebarNav").get_by_role("link", name="Chat").click()
    wait_idle(page)
    expect(page.get_by_role("link", name="1 document being added")).to_have_count(0)
    ask(page, QUESTION)  # in the same session, no reload: now searched both ways
    answer = page.get_by_test_id("stChatMessage").last
    expect(answer).to_contain_text("Agatha", timeout=60_000)
    expect(answer).not_to_contain_text("words only for")
