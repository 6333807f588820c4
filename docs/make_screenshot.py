"""Regenerate docs/screenshot.png: the chat with the side panel open, on the sample documents.

Run from the repository root: `.venv/bin/python docs/make_screenshot.py`. Uses the default
(offline) settings, a throwaway data directory and the Debian chromium.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from scripts.ensure_browser import find_chromium  # noqa: E402
from tests.e2e.conftest import FOOTNOTE, PANEL, ask, wait_idle  # noqa: E402
from tests.e2e.server import CHROMIUM_ARGS, run_app  # noqa: E402

QUESTIONS = (
    "How many days a week are employees expected in the office?",
    "What does the company pay for home office equipment?",
)


def _seed(data_dir: Path) -> None:
    from ingest.local.library import Library
    from settings import load_settings
    from wiring import make_embeddings

    settings = load_settings(data_dir=data_dir)
    embeddings, name = make_embeddings(settings)
    library = Library.open(data_dir, embeddings, embedding_name=name)
    for pdf in sorted((ROOT / "samples").glob("*.pdf")):
        library.add_pdf(pdf.read_bytes(), pdf.name)


def main(out: Path = ROOT / "docs" / "screenshot.png") -> None:
    """Ask the questions, open the last answer's first footnote, save the picture."""
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        _seed(data_dir)
        with (
            run_app({"FOOTNOTE_DATA_DIR": str(data_dir)}, Path(tmp) / "streamlit.log") as url,
            sync_playwright() as playwright,
        ):
            browser = playwright.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 900}, device_scale_factor=1)
            page.goto(url)
            wait_idle(page)
            for question in QUESTIONS:
                ask(page, question)
            page.locator(FOOTNOTE).nth(page.locator(FOOTNOTE).count() - 2).click()
            expect(page.locator(PANEL).locator("img").first).to_be_visible()
            wait_idle(page)
            page.wait_for_timeout(800)
            page.screenshot(path=str(out))
            browser.close()
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
