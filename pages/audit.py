"""Audit page: step through saved citations, file verdicts, read citation-quality metrics, export.

Untrusted text (answers, chunks, titles, model replies) goes through st.text, or st.markdown
after rag.audit.text.escape_markdown; never through HTML.
"""

from __future__ import annotations

import datetime as dt

import streamlit as st

from components import identity, state
from components.render import ocr_note
from components.resources import get_chat_model, get_conversations, get_reader, get_verdicts, page_picture
from rag.audit.export import answer_markdown, rows_csv, rows_json, verdict_rows
from rag.audit.metrics import SCORE_BINS, ScopeMetrics, audit_metrics, count_answer
from rag.audit.records import (
    LEVELS,
    CitationRecord,
    SupportScore,
    citation_records,
    judge_support,
    score_records,
)
from rag.audit.text import emphasis_segments, escape_markdown
from rag.stores.verdicts import VERDICT_LABELS, VERDICTS, Verdict, VerdictStore
from rag.types import Turn

SHORTCUTS = dict(zip(VERDICTS, "1234"))
ALL = ""


def _open_library():
    """The library (for page pictures and embeddings) or None with the reason it cannot open."""
    try:
        return get_reader(), ""
    except Exception as exc:  # the page still audits from the saved snapshots
        return None, f"{type(exc).__name__}: {exc}"


def _date_of(turn: Turn) -> dt.date:
    return dt.date.fromisoformat(turn.created_at[:10])


def _filter_turns(turns: list[Turn], titles: dict[str, str]) -> tuple[list[Turn], str]:
    """Filter widgets (conversation, document, dates); the turns they keep and the chosen document."""
    convs = list(dict.fromkeys(t.conv_id for t in turns))
    docs = {e.doc_id: e.title or e.file_name for t in turns for e in t.answer.evidence}
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


def _review(records, scores, verdicts, store, library, problem) -> None:
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
            f"[{record.number}] {ev.title or ev.file_name}, page {ev.page_label} · id {ev.short_id}{ocr_note(ev)}"
        )
        st.caption(_origin(record))
        with st.container(key="audit_chunk", height=320):
            st.markdown(_emphasised(ev.text, score.matched))
        _score_and_judge(record, score)
    with right:
        _picture(record, library, problem)


def _origin(record: CitationRecord) -> str:
    """Who made the citation, and whether the answer's support check flagged it."""
    if record.kind == "matched":
        return ":green[Matched by Footnote]: the model cited nothing for this sentence."
    if record.flagged:
        return ":orange[Cited by the model, flagged]: its passages hardly hold the sentence."
    return "Cited by the model."


def _percent(value: float) -> str:
    return f"{value:.0%}"


def _table(scopes: tuple[ScopeMetrics, ...]) -> list[dict[str, object]]:
    return [
        {
            "name": m.label,
            "answers": m.answers,
            "coverage": round(m.coverage, 3),
            "matched by Footnote": m.matched_sentences,
            "unsourced": m.unsourced_sentences,
            "flagged": m.flagged_sentences,
            "dangling rate": round(m.dangling_rate, 3),
            "citations": m.citations,
            "judged": m.judged,
            "supported": round(m.supported_share, 3),
            "agreement": round(m.agreement, 3),
        }
        for m in scopes
    ]


def _metrics(turns, records, scores, verdicts, titles) -> None:
    found = audit_metrics(turns, records, scores, verdicts, titles)
    o = found.overall
    cols = st.columns(4)
    cols[0].metric(
        "Citation coverage", _percent(o.coverage), help="Sentences with at least one valid citation"
    )
    cols[1].metric("Dangling rate", _percent(o.dangling_rate), help="Unresolved markers / all markers")
    cols[2].metric(
        "Marked supported", _percent(o.supported_share), help=f"{o.judged} of {o.citations} judged"
    )
    cols[3].metric("Score agrees with verdict", _percent(o.agreement), help=f"{o.compared} compared")
    left, right = st.columns(2)
    with left:
        st.subheader("Automatic scores")
        bins = [f"{i / SCORE_BINS:.1f}" for i in range(SCORE_BINS)]
        st.bar_chart({"score from": bins, "citations": list(o.score_bins)}, x="score from", y="citations")
    with right:
        st.subheader("Verdicts")
        if o.judged:
            st.bar_chart(
                {
                    "verdict": [VERDICT_LABELS[v] for v in VERDICTS],
                    "citations": [o.verdicts.get(v, 0) for v in VERDICTS],
                },
                x="verdict",
                y="citations",
            )
        else:
            st.caption("No verdicts yet.")
    _tables(found, o, turns)


def _answer_table(turns: list[Turn]) -> list[dict[str, object]]:
    rows = []
    for t in turns:
        m = count_answer(t.answer)
        rows.append(
            {
                "question": t.answer.question,
                "asked": t.created_at[:16].replace("T", " "),
                "sentences": m.sentences,
                "coverage": round(m.coverage, 3),
                "matched by Footnote": m.matched_sentences,
                "unsourced": m.unsourced_sentences,
                "flagged": m.flagged_sentences,
                "markers": m.markers,
                "unresolved": m.unresolved_markers,
            }
        )
    return rows


def _tables(found, o: ScopeMetrics, turns: list[Turn]) -> None:
    st.subheader("Verdict against automatic level")
    st.dataframe(
        [
            {"verdict": VERDICT_LABELS[v], **{lvl: o.confusion.get((v, lvl), 0) for lvl in LEVELS}}
            for v in VERDICTS
        ]
    )
    st.subheader("Per answer")
    st.dataframe(_answer_table(turns))
    st.subheader("Per conversation")
    st.dataframe(_table(found.conversations))
    st.subheader("Per document")
    st.dataframe(_table(found.documents))


def _exports(store, all_records, all_scores, turns, verdicts) -> None:
    rows = verdict_rows(store.all(), all_records, all_scores)
    count = f"{len(rows)} verdict" + ("" if len(rows) == 1 else "s")
    st.caption(f"{count}, with question, sentence, citation, document, page and chunk text.")
    c1, c2 = st.columns(2)
    c1.download_button(
        "Verdicts as CSV",
        rows_csv(rows),
        "footnote-verdicts.csv",
        "text/csv",
        key="audit_csv",
        on_click="ignore",
        icon=":material/download:",
    )
    c2.download_button(
        "Verdicts as JSON",
        rows_json(rows),
        "footnote-verdicts.json",
        "application/json",
        key="audit_json",
        on_click="ignore",
        icon=":material/download:",
    )
    if not turns:
        return
    by_id = {t.turn_id: t for t in turns}
    chosen = st.selectbox(
        "Answer for a report",
        list(by_id),
        key=state.AUDIT_EXPORT_TURN,
        format_func=lambda t: f"{by_id[t].answer.question[:80]} ({by_id[t].created_at[:10]})",
    )
    turn = by_id.get(chosen) or turns[0]
    st.download_button(
        "Answer as Markdown",
        answer_markdown(turn, verdicts),
        f"answer-{turn.turn_id[:8]}.md",
        "text/markdown",
        key="audit_md",
        on_click="ignore",
        icon=":material/download:",
    )


def _scores(records: list[CitationRecord], library, store: VerdictStore) -> dict:
    """Automatic scores, with the library's embeddings when they work, else word overlap only."""
    if library is not None:
        try:
            return score_records(records, library.embeddings, store, library.config.embedding_name)
        except Exception as exc:  # e.g. model files missing: the overlap half still works
            st.caption(escape_markdown(f"Scores use word overlap only ({type(exc).__name__}: {exc})."))
    return score_records(records)


def main() -> None:
    state.init()
    settings = state.settings()
    user = identity.current_user(settings)
    st.title("Audit citations")
    conversations = get_conversations(str(settings.data_dir), user)
    turns = [t for t in conversations.all_turns() if t.answer.text.strip()]
    if not turns:
        st.info("No answered questions yet. Ask something in Chat; its citations can be audited here.")
        st.page_link("pages/chat.py", label="Go to Chat", icon=":material/chat:")
        return
    titles = {c.conv_id: c.title for c in conversations.list_recent(limit=10_000)}
    store = get_verdicts(settings, user)
    library, problem = _open_library()
    all_records = citation_records(turns)
    with st.spinner("Scoring citations..."):
        all_scores = _scores(all_records, library, store)
    verdicts = store.by_key()
    kept, doc = _filter_turns(turns, titles)
    kept_ids = {t.turn_id for t in kept}
    records = [r for r in all_records if r.turn_id in kept_ids and (not doc or r.evidence.doc_id == doc)]
    on_ocr = sum(1 for r in records if r.evidence.ocr_confidence is not None)
    only_ocr = st.toggle(
        f"Only citations of pages read by OCR ({on_ocr} of {len(records)})",
        key=state.AUDIT_OCR,
        on_change=state.audit_restart,
        help="Scanned pages were read by OCR: their text may hold misread words, so check them first.",
    )
    if only_ocr:
        records = [r for r in records if r.evidence.ocr_confidence is not None]
    review, metrics, export = st.tabs(["Review", "Metrics", "Export"])
    with review:
        _review(records, all_scores, verdicts, store, library, problem)
    with metrics:
        _metrics(kept, records, all_scores, verdicts, titles)
    with export:
        _exports(store, all_records, all_scores, kept, verdicts)


main()
