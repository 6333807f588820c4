"""The audit page's review tab: which saved answers to audit, one citation at a time with its
passage, page picture, automatic score and verdict controls (keys 1-4), saved as the auditor goes.

Untrusted text goes through st.text, or st.markdown after rag.audit.text.escape_markdown.
"""

from __future__ import annotations

import datetime as dt

import streamlit as st

from components.panel.page_resources import page_picture
from components.shared import state
from components.shared.names import document_name
from components.shared.render import ocr_note
from components.shared.resources import get_chat_model
from rag.audit.records import (
    CitationRecord,
    SupportScore,
    judge_support,
)
from rag.audit.text import emphasis_segments, escape_markdown
from rag.stores.verdicts import VERDICT_LABELS, VERDICTS, Verdict, VerdictStore
from rag.types import Turn

SHORTCUTS = dict(zip(VERDICTS, "1234"))
ALL = ""


def _date_of(turn: Turn) -> dt.date:
    return dt.date.fromisoformat(turn.created_at[:10])


def filter_turns(turns: list[Turn], titles: dict[str, str]) -> tuple[list[Turn], str]:
    """Filter widgets (conversation, document, dates); the turns they keep and the chosen document."""
    convs = list(dict.fromkeys(t.conv_id for t in turns))
    docs = {e.doc_id: document_name(e.title, e.file_name) for t in turns for e in t.answer.evidence}
    first, last = min(map(_date_of, turns)), max(map(_date_of, turns))
    c1, c2, c3 = st.columns(3)
    conv = c1.selectbox(
        "Conversation",
        [ALL, *convs],
        key=state.AUDIT_CONV,
        on_change=state.audit_restart,
        format_func=lambda c: (titles.get(c) or c) if c else "All conversations",
    )
    doc = c2.selectbox(
        "Document",
        [ALL, *sorted(docs, key=lambda d: docs[d].lower())],
        key=state.AUDIT_DOC,
        on_change=state.audit_restart,
        format_func=lambda d: docs[d] if d else "All documents",
    )
    dates = c3.date_input(
        "Asked between", value=(first, last), key=state.AUDIT_DATES, on_change=state.audit_restart
    )
    start, end = (dates[0], dates[-1]) if isinstance(dates, (tuple, list)) and dates else (first, last)
    kept = [
        t
        for t in turns
        if (not conv or t.conv_id == conv)
        and start <= _date_of(t) <= end
        and (not doc or any(e.doc_id == doc for e in t.answer.evidence))
    ]
    by_id = {t.turn_id: t for t in kept}
    one = st.selectbox(
        f"Answer ({len(kept)} answered questions match)",
        [ALL, *by_id],
        key=state.AUDIT_TURN,
        on_change=state.audit_restart,
        format_func=lambda t: _turn_label(by_id[t]) if t else "All answers",
    )
    return ([by_id[one]] if one in by_id else kept), doc


def _turn_label(turn: Turn) -> str:
    cited = sum(len(f.spans) for f in turn.answer.footnotes)
    return f"{turn.answer.question[:90]} ({turn.created_at[:16].replace('T', ' ')}, {cited} citations)"


def _save_verdict(store: VerdictStore, record: CitationRecord, verdict: str) -> None:
    store.save(record.key, record.evidence.short_id, verdict, state.audit_note(record.key))


def _save_note(store: VerdictStore, record: CitationRecord) -> None:
    store.set_note(record.key, state.audit_note(record.key) or "")


def _judge(record: CitationRecord) -> None:
    model, _label = get_chat_model(state.settings())
    try:
        verdict, reason = judge_support(model, record.sentence, record.evidence.text)
    except Exception as exc:  # the endpoint failed: say so, keep the auditor's work
        verdict, reason = "failed", f"{type(exc).__name__}: {exc}"
    state.set_audit_judgement(record.key, verdict, reason)


def _emphasised(text: str, stems: tuple[str, ...]) -> str:
    """Escaped markdown of text with the matching words in bold."""
    flat = " ".join(text.split())
    return "".join(
        f"**{escape_markdown(p)}**" if hit else escape_markdown(p)
        for p, hit in emphasis_segments(flat, stems)
    )


def _navigation(pos: int, count: int) -> None:
    left, mid, right = st.columns([2, 5, 2], vertical_alignment="center")
    left.button(
        "Previous",
        key="audit_prev",
        icon=":material/chevron_left:",
        shortcut="K",
        disabled=pos == 0,
        on_click=state.audit_step,
        args=(-1, count),
        help="Previous citation (K)",
    )
    mid.markdown(f"**Citation {pos + 1} of {count}**")
    right.button(
        "Next",
        key="audit_next",
        icon=":material/chevron_right:",
        shortcut="J",
        disabled=pos >= count - 1,
        on_click=state.audit_step,
        args=(1, count),
        help="Next citation (J)",
    )


def _verdict_controls(record: CitationRecord, saved: Verdict | None, store: VerdictStore) -> None:
    state.seed_audit_note(record.key, saved.note if saved else "")
    cols = st.columns(len(VERDICTS))
    for col, verdict in zip(cols, VERDICTS):
        chosen = saved is not None and saved.verdict == verdict
        col.button(
            VERDICT_LABELS[verdict],
            key=f"audit_verdict_{verdict}",
            shortcut=SHORTCUTS[verdict],
            type="primary" if chosen else "secondary",
            icon=":material/check:" if chosen else None,
            on_click=_save_verdict,
            args=(store, record, verdict),
            width="stretch",
        )
    st.text_input(
        "Note (optional)",
        key=state.audit_note_key(record.key),
        on_change=_save_note,
        args=(store, record),
        placeholder="Saved with the verdict",
    )
    st.caption(
        "Saved: " + (f"{VERDICT_LABELS[saved.verdict]} at {saved.updated_at}" if saved else "no verdict yet")
    )


def _score_and_judge(record: CitationRecord, score: SupportScore) -> None:
    cosine = "" if score.cosine is None else f" · embedding cosine {score.cosine:.2f}"
    st.metric(
        "Automatic support",
        f"{score.score:.2f}",
        help="Offline heuristic: share of the sentence's "
        "content words found in the passage, averaged with embedding similarity when available.",
    )
    st.caption(f"**{score.meaning}** · word overlap {score.overlap:.0%}{cosine}")
    if state.settings().llm_provider == "extractive":
        return
    st.button("Ask the model (LLM judge)", key="audit_judge", on_click=_judge, args=(record,))
    found = state.audit_judgement(record.key)
    if found:
        st.text(f"Model verdict: {found[0].replace('_', ' ')}. {found[1]}")


def _picture(record: CitationRecord, library, problem: str) -> None:
    ev = record.evidence
    if library is None:
        st.caption("Page pictures are unavailable: the library did not open.")
        st.text(problem)
        return
    for loc in ev.locators:
        try:
            picture = page_picture(library)(ev.doc_id, loc.page_index, loc.char_start, loc.char_end)
        except Exception as exc:  # a damaged page: the saved passage is still shown
            st.warning(escape_markdown(f"Page {loc.page_label} could not be drawn: {exc}"))
            continue
        if picture is None:
            st.warning("This document is no longer in the library; the passage is the saved snapshot.")
            return
        st.text(f"Page {loc.page_label} (index {loc.page_index})")
        st.image(picture, width="stretch")


def _origin(record: CitationRecord) -> str:
    """Who made the citation, and whether the answer's support check flagged it."""
    if record.kind == "matched":
        return ":green[Matched by Footnote]: the model cited nothing for this sentence."
    if record.flagged:
        return ":orange[Cited by the model, flagged]: its passages hardly hold the sentence."
    return "Cited by the model."


def review(records, scores, verdicts, store, library, problem) -> None:
    if not records:
        st.info("No citations match these filters.")
        return
    pos = state.audit_position(len(records))
    record = records[pos]
    _navigation(pos, len(records))
    st.text(f"Question: {record.question}")
    score = scores[record.key]
    with st.container(key="audit_sentence", border=True):
        st.markdown(_emphasised(record.sentence, score.matched))
    _verdict_controls(record, verdicts.get(record.key), store)
    left, right = st.columns(2)
    with left:
        ev = record.evidence
        st.text(
            f"[{record.number}] {document_name(ev.title, ev.file_name)}, page {ev.page_label} · id {ev.short_id}{ocr_note(ev)}"
        )
        st.caption(_origin(record))
        with st.container(key="audit_chunk", height=320):
            st.markdown(_emphasised(ev.text, score.matched))
        _score_and_judge(record, score)
    with right:
        _picture(record, library, problem)
