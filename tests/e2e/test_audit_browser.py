"""The audit page in Chromium: a verdict and a note survive a reload, keyboard shortcuts file a
second verdict, and the CSV download holds both with their context."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from components.shared.resources import CONVERSATIONS_FILE
from tests.e2e.conftest import wait_idle
from tests.e2e.server import offline_env, run_app
from tests.rag.test_audit_fixtures import seed_app_data

pytestmark = pytest.mark.browser

SUPPORTED = ".st-key-audit_verdict_supported button"
NOTE = '[class*="st-key-audit_note_"] input'


FIRST_SENTENCES = {
    "When does water boil?": "Water boils at one hundred degrees Celsius at sea level.",
    "When does ice melt?": "Ice melts at zero degrees Celsius.",
}


def test_verdict_round_trip_and_csv_download(page: Page, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    turns = seed_app_data(data_dir, CONVERSATIONS_FILE)
    env = offline_env(data_dir, chunk_size=None)
    with run_app(env, tmp_path / "app.log") as url:
        # Through app.py's navigation: a fresh server's first session opened at /audit would run
        # the page in the old pages-folder mode, without app.py.
        page.goto(url)
        wait_idle(page)
        page.get_by_test_id("stSidebarNav").get_by_text("Audit", exact=True).click()
        expect(page.get_by_text("Citation 1 of 3")).to_be_visible(timeout=30_000)
        expect(page).to_have_url(f"{url}/audit")
        wait_idle(page)
        page.locator(NOTE).fill("checked against page 1")
        page.locator(NOTE).press("Enter")
        wait_idle(page)
        page.locator(SUPPORTED).click()
        expect(page.get_by_text("Saved: Supported")).to_be_visible()

        page.reload()
        expect(page.get_by_text("Citation 1 of 3")).to_be_visible(timeout=30_000)
        wait_idle(page)
        expect(page.get_by_text("Saved: Supported")).to_be_visible()
        expect(page.locator(NOTE)).to_have_value("checked against page 1")

        page.locator(NOTE).evaluate("e => e.blur()")  # shortcuts are ignored while a field has focus
        page.keyboard.press("j")
        expect(page.get_by_text("Citation 2 of 3")).to_be_visible()
        wait_idle(page)
        page.keyboard.press("4")
        expect(page.get_by_text("Saved: Wrong location")).to_be_visible()
        wait_idle(page)

        page.get_by_role("tab", name="Export").click()
        with page.expect_download() as download:
            page.locator(".st-key-audit_csv button").click()
        text = Path(download.value.path()).read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["verdict"] for r in rows] == ["supported", "wrong_location"]
    assert rows[0]["note"] == "checked against page 1"
    by_turn = {t.turn_id: t for t in turns}
    for row in rows:
        turn = by_turn[row["turn_id"]]
        assert row["question"] == turn.answer.question
        assert row["document"] == "Water <b>facts</b>" and row["chunk_text"]
        assert row["page_label"] in {"1", "2"}
    assert rows[0]["sentence"] == FIRST_SENTENCES[rows[0]["question"]]
