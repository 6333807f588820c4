"""Hand-made answers for the audit tests (no tests here): texts with known citations, resolved
through the real citation grammar onto hand-written evidence."""

from __future__ import annotations

from pathlib import Path

from ingest.types import PageLocator
from rag.citations import citation_spans, resolve
from rag.conversations import ConversationStore
from rag.types import Answer, Evidence, Turn

WATER = "Water boils at 100 degrees Celsius at sea level. Salt raises the boiling point of water slightly."
ICE = "Ice is less dense than liquid water, so it floats. Frozen lakes keep fish alive in winter."
BIRDS = "Many birds migrate south in autumn to find food."


def make_evidence(short_id: str, text: str, doc_id: str = "doc-water", title: str = "Water Facts",
                  page_index: int = 2, page_label: str = "iii") -> Evidence:
    """One piece of evidence on one page."""
    return Evidence(
        short_id=short_id, chunk_id=short_id + "0" * 57, doc_id=doc_id, title=title,
        file_name=doc_id + ".pdf", text=text, score=0.5,
        locators=(PageLocator(page_index, page_label, 10, 10 + len(text)),),
    )


def make_answer(question: str, text: str, evidence: tuple[Evidence, ...], **extra: object) -> Answer:
    """An Answer whose footnotes come from rag.citations.resolve over text."""
    res = resolve(citation_spans(text), evidence)
    return Answer(question=question, text=text, footnotes=res.footnotes, unresolved=res.unresolved,
                  evidence=evidence, **extra)  # type: ignore[arg-type]


def make_turn(answer: Answer, turn_id: str = "t1", conv_id: str = "c1", index: int = 0,
              created_at: str = "2026-11-01T10:00:00+00:00") -> Turn:
    return Turn(turn_id=turn_id, conv_id=conv_id, index=index, answer=answer, created_at=created_at)


EV_WATER = make_evidence("wat1234", WATER)
EV_ICE = make_evidence("ice5678", ICE, page_index=4, page_label="v")
EV_BIRDS = make_evidence("brd0001", BIRDS, doc_id="doc-birds", title="Birds *of* [Europe]",
                         page_index=0, page_label="1")

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
