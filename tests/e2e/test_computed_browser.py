"""A computed answer in a real browser: each operand is a footnote of its own, and clicking one
opens its page with that cell highlighted (the row label, the number more strongly), not the
chunk: the highlighted pixels hold the number and cover under a tenth of the chunk's area."""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fpdf import FPDF
from PIL import Image
from playwright.sync_api import Page, expect

from components.panel.page_resources import PICTURE_SCALE
from components.panel.picture import crop_box
from ingest.pdf.render import draw_page
from rag.stores.conversations import ConversationStore
from tests.e2e.conftest import FOOTNOTE, PANEL, ask, loaded_width, wait_idle
from tests.e2e.server import offline_env, run_app
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
QUESTION = "What is Acme's FY2021 current ratio?"
STATEMENT = [
    "Acme Corp",
    "Consolidated Balance Sheets",
    "(in millions)",
    "2021 2020",
    "Cash and cash equivalents 1,234 1,100",
    "Accounts receivable, net 567 540",
    "Inventories 800 760",
    "Total current assets 3,000 2,800",
    "Property and equipment, net 4,100 3,900",
    "Goodwill 2,500 2,500",
    "Total assets 12,000 11,000",
    "Accounts payable 1,900 1,800",
    "Accrued liabilities 1,556 1,500",
    "Total current liabilities 3,456 3,300",
    "Long-term debt 2,000 2,100",
    "Total shareholders' equity 5,000 4,600",
]


def statement_pdf() -> bytes:
    """A one-page annual report excerpt: a balance sheet, one row a line."""
    pdf = FPDF(format="A4")
    pdf.set_title("Acme annual report 2021")
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    for line in STATEMENT:
        pdf.cell(0, 7, line, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, bytes]]:
    root = tmp_path_factory.mktemp("computed_e2e")
    data_dir = root / "data"
    pdf = statement_pdf()
    build_library(data_dir, [("acme.pdf", pdf)], chunk_size=1000)
    with run_app(offline_env(data_dir, chunk_size=1000), root / "streamlit.log") as url:
        yield url, data_dir, pdf


def _highlighted(picture: Image.Image) -> tuple[int, tuple[int, int, int, int] | None]:
    """How many pixels carry a highlight's tint (yellow or orange over the page), and their box."""
    rgb = picture.convert("RGB")
    width, height = rgb.size
    pixels = rgb.load()
    found = [
        (x, y)
        for y in range(height)
        for x in range(width)
        if (lambda r, g, b: r > 200 and b < 175 and r - b > 70)(*pixels[x, y])
    ]
    if not found:
        return 0, None
    xs, ys = [x for x, _ in found], [y for _, y in found]
    return len(found), (min(xs), min(ys), max(xs), max(ys))


def _image_bytes(page: Page, url: str, src: str) -> bytes:
    """The bytes an img's src names (a data: URL, or a media URL of the app)."""
    if src.startswith("data:"):
        return base64.b64decode(src.partition(",")[2])
    return page.request.get(src if src.startswith("http") else url + src).body()


def _area(boxes) -> int:
    return sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes)


def test_an_operand_footnote_opens_its_page_with_the_cell_highlighted(app, page: Page) -> None:
    url, data_dir, pdf = app
    page.goto(url)
    wait_idle(page)
    ask(page, QUESTION)
    answer = page.locator('[data-testid="stBidiComponentIsolated"] .fn-answer')
    expect(answer).to_contain_text("Current ratio, FY2021 = current assets 3,000")
    expect(answer).to_contain_text("= 0.87")
    buttons = page.locator(FOOTNOTE)
    expect(buttons).to_have_count(2)  # two operands of one chunk: two footnotes

    conv = re.search(r"[?&]conv=([0-9a-f]+)", page.url)
    assert conv
    turn = ConversationStore(data_dir / "conversations.sqlite3").turns(conv.group(1))[-1]
    cell = turn.answer.footnotes[1].evidence
    assert cell.cell is not None and cell.cell.label == "Total current liabilities"
    buttons.nth(1).click()
    panel = page.locator(PANEL)
    expect(panel).to_contain_text("cell of")
    expect(panel).to_contain_text("Total current liabilities, 2021: 3,456")
    wait_idle(page)
    img = panel.locator(".st-key-panel_pages img").first
    assert loaded_width(page, img) > 100
    shown = Image.open(io.BytesIO(_image_bytes(page, url, img.get_attribute("src") or "")))

    # What the page's own boxes say, drawn the way the panel draws them (rag's cell, not the chunk).
    loc = cell.locators[0]
    chunk_start, chunk_end = loc.char_start, loc.char_end
    for other in turn.answer.evidence:
        if other.chunk_id == cell.chunk_id and other.cell is None:
            chunk_start, chunk_end = other.locators[0].char_start, other.locators[0].char_end
    chunk = draw_page(pdf, loc.page_index, [(chunk_start, chunk_end)], scale=PICTURE_SCALE)
    drawn = draw_page(
        pdf,
        loc.page_index,
        [(cell.cell.label_start, cell.cell.label_end)],
        [(loc.char_start, loc.char_end)],
        scale=PICTURE_SCALE,
    )
    assert _area(drawn.boxes + drawn.focus_boxes) < 0.1 * _area(chunk.boxes)

    count, box = _highlighted(shown)
    assert count > 0 and box is not None
    area = (box[2] - box[0]) * (box[3] - box[1])
    assert area < 0.1 * _area(chunk.boxes), (area, _area(chunk.boxes))
    # the number's box, where the panel's cut picture shows it, is inside the highlighted pixels
    left, top, _, _ = crop_box(drawn)
    number = drawn.focus_boxes[0]
    inside = (number[0] - left, number[1] - top, number[2] - left, number[3] - top)
    slack = 4
    assert box[0] - slack <= inside[0] and inside[2] <= box[2] + slack
    assert box[1] - slack <= inside[1] and inside[3] <= box[3] + slack
