"""Team mode in Chromium: the app on the suite's own PostgreSQL (FOOTNOTE_DATABASE_URL), with a
PDF ingested into the database, answers, opens a footnote's passage and page picture drawn from
the PDF stored there, and files an audit verdict that survives a reload; nothing is written to
the data folder."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from ingest.embeddings import HashEmbeddings
from ingest.team import connect as pg_connect
from ingest.team.library import PgLibrary
from tests.e2e.conftest import FOOTNOTE, PANEL, ask, loaded_width, wait_idle
from tests.e2e.documents import GUIDE_QUESTION, GUIDE_TITLE, guide_pdf
from tests.e2e.server import offline_env, run_app

pytestmark = pytest.mark.browser
SUPPORTED = ".st-key-audit_verdict_supported button"


def test_footnote_click_and_audit_verdict_on_postgresql(pg_url: str, page: Page, tmp_path: Path) -> None:
    library = PgLibrary.open(
        pg_url, HashEmbeddings(384), embedding_name="fake:hash:384", chunk_size=400, chunk_overlap=0
    )
    assert library.add_pdf(guide_pdf(), "guide.pdf").status == "ok"
    chunks = {c.chunk_id: c for c in library.chunks()}
    pg_connect.close_pools()  # the app is another process; this one is done with the database
    data_dir = tmp_path / "data"
    env = offline_env(data_dir, FOOTNOTE_DATABASE_URL=pg_url)
    with run_app(env, tmp_path / "streamlit.log") as url:
        page.goto(url)
        wait_idle(page)
        ask(page, GUIDE_QUESTION)
        page.locator(FOOTNOTE).first.click()
        panel = page.locator(PANEL)
        expect(panel).to_contain_text(GUIDE_TITLE)
        wait_idle(page)
        shown = " ".join(panel.inner_text().split())
        short_id = re.search(r"· id ([0-9a-f]+) ·", shown).group(1)
        [cited] = [c for chunk_id, c in chunks.items() if chunk_id.startswith(short_id)]
        assert " ".join(cited.text.split()) in shown  # the passage, as stored in the database
        assert (
            loaded_width(page, panel.locator(".st-key-panel_pages img").first) > 100
        )  # drawn from its bytea

        page.get_by_test_id("stSidebarNav").get_by_text("Audit", exact=True).click()
        expect(page.get_by_text("Citation 1 of")).to_be_visible(timeout=30_000)
        wait_idle(page)
        page.locator(SUPPORTED).click()
        expect(page.get_by_text("Saved: Supported")).to_be_visible()
        page.reload()
        expect(page.get_by_text("Citation 1 of")).to_be_visible(timeout=30_000)
        wait_idle(page)
        expect(page.get_by_text("Saved: Supported")).to_be_visible()
    assert not data_dir.exists()  # the library, the chat and the verdict are all in PostgreSQL
