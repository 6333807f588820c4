"""The audit page's metrics and export tabs: citation-quality figures overall, per conversation and
per document, the answers table, and the exports (CSV, JSON, one answer as Markdown).

Untrusted text goes through st.text, st.dataframe, or st.markdown after escape_markdown.
"""

from __future__ import annotations

import streamlit as st

from components.shared import state
from rag.audit.export import answer_markdown, rows_csv, rows_json, verdict_rows
from rag.audit.metrics import SCORE_BINS, ScopeMetrics, audit_metrics, count_answer
from rag.audit.records import (
    LEVELS,
)
from rag.stores.verdicts import VERDICT_LABELS, VERDICTS
from rag.types import Turn


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


def metrics_tab(turns, records, scores, verdicts, titles) -> None:
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


def exports_tab(store, all_records, all_scores, turns, verdicts) -> None:
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
