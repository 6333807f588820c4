"""Hand-made answers for the audit tests (no tests here): texts with known citations, resolved
through the real citation grammar onto hand-written evidence."""

from __future__ import annotations

from pathlib import Path

from ingest.types import PageLocator
from rag.citations.parser import citation_spans
from rag.citations.table import resolve
from rag.stores.conversations import ConversationStore
from rag.types import Answer, Evidence, Turn

WATER = "Water boils at 100 degrees Celsius at sea level. Salt raises the boiling point of water slightly."
ICE = "Ice is less dense than liquid water, so it floats. Frozen lakes keep fish alive in winter."
BIRDS = "Many birds migrate south in autumn to find food."


def make_evidence(
    short_id: str,
    text: str,
    doc_id: str = "doc-water",
    title: str = "Water Facts",
    page_index: int = 2,
    page_label: str = "iii",
) -> Evidence:
    """One piece of evidence on one page."""
    return Evidence(
        short_id=short_id,
        chunk_id=short_id + "0" * 57,
        doc_id=doc_id,
        title=title,
        file_name=doc_id + ".pdf",
        text=text,
        score=0.5,
        locators=(PageLocator(page_index, page_label, 10, 10 + len(text)),),
    )


def make_answer(question: str, text: str, evidence: tuple[Evidence, ...], **extra: object) -> Answer:
    """An Answer whose footnotes come from rag.citations.table.resolve over text."""
    res = resolve(citation_spans(text), evidence)
    return Answer(
        question=question,
        text=text,
        footnotes=res.footnotes,
        unresolved=res.unresolved,
        evidence=evidence,
        unresolved_spans=res.unresolved_spans,
        **extra,
    )  # type: ignore[arg-type]


def make_turn(
    answer: Answer,
    turn_id: str = "t1",
    conv_id: str = "c1",
    index: int = 0,
    created_at: str = "2026-11-01T10:00:00+00:00",
) -> Turn:
    return Turn(turn_id=turn_id, conv_id=conv_id, index=index, answer=answer, created_at=created_at)


EV_WATER = make_evidence("wat1234", WATER)
EV_ICE = make_evidence("ice5678", ICE, page_index=4, page_label="v")
EV_BIRDS = make_evidence(
    "brd0001", BIRDS, doc_id="doc-birds", title="Birds *of* [Europe]", page_index=0, page_label="1"
)

# Three sentences: two cited (one of them twice, once by an unknown id), one uncited.
BOILING_TEXT = (
    "Water boils at 100 degrees Celsius at sea level [wat1234]. "
    "Ice floats because it is less dense than water [ice5678, zzz9999]. "
    "Birds are not mentioned here."
)
# Two sentences, both citing the birds chunk: rightly, then wrongly (the water chunk says it).
MIGRATION_TEXT = "Birds migrate south in autumn [brd0001]. Salt raises the boiling point [brd0001]."


def boiling_answer() -> Answer:
    return make_answer("Why does ice float?", BOILING_TEXT, (EV_WATER, EV_ICE))


def migration_answer() -> Answer:
    return make_answer("When do birds migrate?", MIGRATION_TEXT, (EV_BIRDS, EV_WATER))


def seed_store(data_dir: Path) -> list[Turn]:
    """A chats.sqlite3 under data_dir with two conversations: boiling, then migration."""
    store = ConversationStore(data_dir / "chats.sqlite3")
    first = store.add_turn(store.create(), boiling_answer())
    second = store.add_turn(store.create(), migration_answer())
    return [first, second]


# --- A real library and saved turns citing its chunks (page tests, browser test) -------------

# Each page is longer than one chunk, so the two cited chunks sit on different pages.
PDF_PAGES = [
    "Water boils at one hundred degrees Celsius at sea level. At higher altitudes the boiling point "
    "drops because the air pressure is lower. "
    + " ".join(f"Filler sentence number {i} about kettles and steam." for i in range(20)),
    "Ice melts at zero degrees Celsius. Salt lowers the freezing point of water, which is why roads "
    "are salted in winter. "
    + " ".join(f"Filler sentence number {i} about frost and snow." for i in range(20)),
]


def make_pdf(pages: list[str], title: str) -> bytes:
    """A text PDF made with fpdf2, one string per page."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    pdf.set_title(title)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 8, text)
    return bytes(pdf.output())


def seed_app_data(data_dir: Path, conversations_file: str) -> list[Turn]:
    """A real library (hash embeddings, as FOOTNOTE_EMBEDDING_PROVIDER=fake opens it) holding one
    two-page PDF, and two saved turns citing its chunks: one right, one wrong, one uncited claim."""
    from ingest.embeddings import HashEmbeddings
    from ingest.local.library import Library
    from rag.citations.evidence import build_evidence

    library = Library.open(data_dir, HashEmbeddings(384), embedding_name="fake:hash:384")
    library.add_pdf(make_pdf(PDF_PAGES, "Water <b>facts</b>"), "water.pdf")
    doc = library.documents()[0]
    chunks = library.chunks()
    boil = next(c for c in chunks if "Water boils" in c.text)
    ice = next(c for c in chunks if "Ice melts" in c.text)
    assert boil.chunk_id != ice.chunk_id, "the fixture PDF must give the two facts separate chunks"
    ev_boil, ev_ice = build_evidence([(boil, doc, 0.9), (ice, doc, 0.8)])
    store = ConversationStore(data_dir / conversations_file)
    first = store.add_turn(
        store.create(),
        make_answer(
            "When does water boil?",
            f"Water boils at one hundred degrees Celsius at sea level [{ev_boil.short_id}]. "
            f"Roads are salted in winter [{ev_boil.short_id}]. Nobody knows why.",
            (ev_boil, ev_ice),
        ),
    )
    second = store.add_turn(
        store.create(),
        make_answer(
            "When does ice melt?",
            f"Ice melts at zero degrees Celsius [{ev_ice.short_id}].",
            (ev_boil, ev_ice),
        ),
    )
    return [first, second]
