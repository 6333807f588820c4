"""What the side panel shows for a footnote as plain strings (pure, no Streamlit): the panel draws
them (components/panel/side_panel.py), and each answer carries them so that the browser shows a clicked
footnote's text at once, before the panel's run (components/chat/chat_panel.py: the click relay)."""

from __future__ import annotations

from components.panel.passage import cited_passage, split_passage
from components.shared.names import document_name
from components.shared.render import footnote_kind_label, ocr_note, page_range
from rag.types import Answer, Evidence

SECTION_PARTS = 3  # a longer section path shows its first part and its last two (the panel is narrow)


def panel_meta(ev: Evidence) -> str:
    """The panel's line under the title: page(s), index(es), the cell (a computed figure's operand),
    id, similarity and any OCR note."""
    pages, index = page_range(ev)
    similarity = "words only, no similarity yet" if ev.score is None else f"similarity {ev.score:.2f}"
    cell = ev.cell
    where = "" if cell is None else f" · cell of {cell.chunk}: {cell.label}, {cell.column}: {cell.printed}"
    return f"Page {pages} (index {index}){where} · id {ev.short_id} · {similarity}{ocr_note(ev)}"


def section_line(ev: Evidence) -> str:
    """Where the passage sits in its document ("In PART II > … > Note 10 - Debt"; for a chunk
    that runs into a later section, "…, then" that one), or "" when its sections are not known."""
    paths = [p for p in (_short(path) for path in ev.sections) if p]
    if not paths:
        return ""
    return f"In {paths[0]}" + (f", then {paths[-1]}" if len(paths) > 1 else "")


def _short(path: str) -> str:
    parts = [p.strip() for p in path.split(" > ") if p.strip()]
    shown = parts if len(parts) <= SECTION_PARTS else [parts[0], "…", *parts[-(SECTION_PARTS - 1) :]]
    return " > ".join(shown)


def chunk_parts(text: str, passage: tuple[int, int] | None) -> tuple[str, str, str]:
    """The chunk before, inside and after the cited passage, each as one flowing line (PDF line
    breaks are layout, not content)."""
    before, inside, after = split_passage(text, passage)
    return " ".join(before.split()), " ".join(inside.split()), " ".join(after.split())


def footnote_previews(answer: Answer) -> list[dict[str, object]]:
    """Per footnote, in number order, the panel's text as plain strings (untrusted: the browser
    sets them with textContent only)."""
    count = len(answer.footnotes)
    out: list[dict[str, object]] = []
    for footnote in answer.footnotes:
        ev = footnote.evidence
        before, inside, after = chunk_parts(ev.text, cited_passage(answer, footnote))
        out.append(
            {
                "n": footnote.number,
                "id": ev.short_id,
                "count": count,
                "title": document_name(ev.title, ev.file_name),
                "meta": panel_meta(ev),
                "where": section_line(ev),
                "kind": footnote_kind_label(footnote),
                "before": before,
                "inside": inside,
                "after": after,
            }
        )
    return out
