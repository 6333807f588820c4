"""Pages read by OCR in the app (AppTest): the panel says so with the confidence and draws the
highlighted page from the word boxes; the audit page filters citations to OCR pages."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from components.shared import resources, state
from ingest.embeddings import HashEmbeddings
from ingest.local.library import Library
from ingest.types import OcrOptions, PageLocator
from rag.stores.conversations import ConversationStore
from settings import load_settings
from tests.ingest.scans import HARBOUR, scanned
from tests.pages.conftest import CHUNK_OVERLAP, CHUNK_SIZE, ROOT
from tests.rag.test_audit_fixtures import EV_WATER, WATER, make_answer, make_evidence


def test_the_panel_says_read_by_ocr_and_draws_the_scanned_page(app_env: Path) -> None:
    library = Library.open(
        app_env,
        HashEmbeddings(384),
        embedding_name="fake:hash:384",
        chunk_size=CHUNK_SIZE,
        chunk_overlap=CHUNK_OVERLAP,
        ocr=OcrOptions(),
    )
    library.add_pdf(scanned(HARBOUR)[1], "harbour-scan.pdf")
    chunk = next(c for c in library.chunks() if "trawlers" in c.text)
    confidence = chunk.first.ocr_confidence
    assert confidence is not None
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    model, _label = resources.get_chat_model(load_settings())
    model.replies.append(f"Forty seven trawlers were at anchor [{chunk.chunk_id[:7]}].")
    at.chat_input[0].set_value("How many trawlers were at anchor?").run()
    [turn] = ConversationStore(app_env / resources.CONVERSATIONS_FILE).turns(
        ConversationStore(app_env / resources.CONVERSATIONS_FILE).list_recent()[0].conv_id
    )
    at.session_state[state.SELECTION] = (turn.turn_id, 1)
    at.run()
    assert not at.exception, at.exception
    meta = next(t.value for t in at.text if t.value.startswith("Page 1 (index 0)"))
    assert meta.endswith(f"· read by OCR (confidence {confidence:.0%})")
    assert len(at.image) == 1  # the page cut to the highlighted words (boxes were found)
    assert len(at.expander) == 1  # ... with the whole page behind "Whole page"


def test_the_audit_page_can_show_only_citations_of_ocr_pages(app_env: Path) -> None:
    scanned_water = make_evidence("ocr1234", WATER, doc_id="doc-scan", title="Scanned water")
    loc = scanned_water.locators[0]
    scanned_water = type(scanned_water)(
        **{**scanned_water.__dict__, "locators": (PageLocator(loc.page_index, loc.page_label, 10, 90, 0.91),)}
    )
    store = ConversationStore(app_env / resources.CONVERSATIONS_FILE)
    store.add_turn(
        store.create(),
        make_answer(
            "When does water boil?",
            "Water boils at 100 degrees [wat1234]. It boils at sea level [ocr1234].",
            (EV_WATER, scanned_water),
        ),
    )
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/audit.py")
    at.run()
    assert not at.exception, at.exception
    toggle = at.toggle(key=state.AUDIT_OCR)
    assert toggle.label == "Only citations of pages read by OCR (1 of 2)"
    assert "**Citation 1 of 2**" in [m.value for m in at.markdown]
    toggle.set_value(True).run()
    assert "**Citation 1 of 1**" in [m.value for m in at.markdown]
    line = next(t.value for t in at.text if t.value.startswith("[2] Scanned water"))
    assert line.endswith("· id ocr1234 · read by OCR (confidence 91%)")
