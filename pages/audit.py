"""Audit page: step through saved citations, file verdicts, read citation-quality metrics, export.

Untrusted text (answers, chunks, titles, model replies) goes through st.text, or st.markdown
after rag.audit.text.escape_markdown; never through HTML.
"""

from __future__ import annotations

import streamlit as st

from components.audit.audit_report import exports_tab, metrics_tab
from components.audit.audit_review import filter_turns, review
from components.shared import identity, state
from components.shared.resources import get_conversations, get_reader, get_verdicts
from rag.audit.records import (
    CitationRecord,
    citation_records,
    score_records,
)
from rag.audit.text import escape_markdown
from rag.stores.verdicts import VerdictStore


def _open_library():
    """The library (for page pictures and embeddings) or None with the reason it cannot open."""
    try:
        return get_reader(), ""
    except Exception as exc:  # the page still audits from the saved snapshots
        return None, f"{type(exc).__name__}: {exc}"


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
    kept, doc = filter_turns(turns, titles)
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
    review_tab, metrics, export = st.tabs(["Review", "Metrics", "Export"])
    with review_tab:
        review(records, all_scores, verdicts, store, library, problem)
    with metrics:
        metrics_tab(kept, records, all_scores, verdicts, titles)
    with export:
        exports_tab(store, all_records, all_scores, kept, verdicts)


main()
