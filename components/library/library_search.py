"""Library page pieces: search every document (hits open the side panel) and view or download one.

Core search is rag.retrieval.library_search; here only widgets. Passages, titles and page labels are
untrusted: passages go through st.text, titles and labels into widget labels only escaped.
"""

from __future__ import annotations

import streamlit as st

from components.panel import page_resources, side_panel
from components.panel.original import download_button, viewer
from components.shared import resources, state
from components.shared.names import document_name
from components.shared.render import escape_markdown
from ingest.local.library import Library
from ingest.types import Document
from rag.retrieval.library_search import SearchHit


def _hit_row(query: str, position: int, hit: SearchHit, selected: bool) -> None:
    ev = hit.evidence
    with st.container(border=True, key=f"library_hit_row_{position}"):
        st.button(
            escape_markdown(f"{document_name(ev.title, ev.file_name)} · page {hit.page_label}"),
            key=state.hit_key(position),
            type="primary" if selected else "tertiary",
            icon=":material/description:",
            on_click=state.open_hit,
            args=(query, ev.chunk_id),
        )
        st.text(hit.snippet)


def show_search(library: Library) -> None:
    """The search box, its hits, and the side panel of the hit that is open."""
    st.subheader("Search the library")
    query = st.text_input(
        "Search for words or an exact phrase",
        key=state.LIBRARY_QUERY,
        on_change=state.close_hit,
        placeholder='salt freezing, or "boiling point"',
        help='Words are ranked by BM25; text in "quotes" must appear exactly as typed.',
    )
    if not query.strip():
        return
    hits = resources.search_library(library, query)
    if not hits:
        st.info("No passage matches this search.", icon=":material/search_off:")
        return
    chosen = state.library_hit(query)
    position = next((i for i, h in enumerate(hits) if h.evidence.chunk_id == chosen), None)
    results_col, panel_col = st.columns([7, 5], gap="medium")
    with results_col:
        more = " (the best ones)" if len(hits) == resources.SEARCH_LIMIT else ""
        st.caption(f"{len(hits)} passage(s){more}. Click one to open it beside the list.")
        for i, hit in enumerate(hits):
            _hit_row(query, i, hit, i == position)
    with panel_col:
        side_panel.show_style()
        if position is None:
            side_panel.show_hint("Click a hit to open its passage and page here.")
        else:
            side_panel.show_hit_panel(
                query,
                hits,
                position,
                page_resources.passage_picture(library),
                page_resources.page_text(library),
                page_resources.pdf_excerpt(library),
                library.pdf_bytes,
            )


def show_viewer(library: Library, documents: list[Document]) -> None:
    """View any document in the PDF viewer, or download it."""
    by_id = {d.doc_id: d for d in documents}
    with st.expander("View or download a document", icon=":material/picture_as_pdf:"):
        doc_id = st.selectbox(
            "Document",
            list(by_id),
            index=None,
            key=state.LIBRARY_VIEW_DOC,
            format_func=lambda i: f"{by_id[i].title} ({by_id[i].file_name})",
            placeholder="Choose a document",
        )
        if doc_id is None or doc_id not in by_id:
            return
        doc = by_id[doc_id]
        download_button(doc_id, doc.file_name, library.pdf_bytes, key="library_download")
        try:
            data = library.pdf_bytes(doc_id)
        except FileNotFoundError:
            st.warning(
                "This document's file is missing from the library folder: delete it and add it again.",
                icon=":material/hide_source:",
            )
            return
        viewer(data, document_name(doc.title, doc.file_name), key="library_pdf")
