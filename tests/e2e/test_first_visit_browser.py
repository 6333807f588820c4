"""A fresh server's first visit straight to a page's URL gets app.py's navigation, not
Streamlit's old pages-folder mode (which listed "app, audit, chat, library" and skipped app.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import wait_idle
from tests.e2e.server import run_app

pytestmark = pytest.mark.browser


def test_first_visit_to_audit_runs_through_app_navigation(page: Page, tmp_path: Path) -> None:
    env = {"FOOTNOTE_DATA_DIR": str(tmp_path / "data"), "FOOTNOTE_EMBEDDING_PROVIDER": "fake"}
    with run_app(env, tmp_path / "app.log") as url:
        page.goto(f"{url}/audit")
        nav = page.get_by_test_id("stSidebarNav")
        expect(nav.get_by_text("Chat", exact=True)).to_be_visible(timeout=30_000)
        wait_idle(page)
        expect(page.get_by_role("heading", name="Audit citations")).to_be_visible()
        expect(page).to_have_url(f"{url}/audit")
        entries = [line.strip() for line in nav.inner_text().splitlines() if line.strip()]
        assert "app" not in entries  # the old mode names pages after their files: app, audit, ...
        assert {"Chat", "Library", "Audit"} <= set(entries)
