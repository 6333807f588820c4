"""The original PDF: a viewer that opens at the cited page, and a download of the whole file.

st.pdf (Streamlit 1.67, via the streamlit-pdf component) has no "open at page" option, so the
viewer gets a PDF cut from the original starting at the cited page (the pages themselves, text
selectable), and the download button gives the whole file.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable
from pathlib import PurePath

import streamlit as st

from components.shared import state
from components.shared.names import document_name
from components.shared.render import escape_markdown
from rag.types import Evidence

READ_ON_PAGES = 4  # pages after the cited ones that the viewer also gets, to read on (a UX choice)
VIEWER_HEIGHT = 620

# (doc_id, first, last page index) -> those pages of the original as a PDF, or None when gone.
ExcerptFn = Callable[[str, int, int], bytes | None]
# doc_id -> the original PDF's bytes (called only when a download is clicked).
OriginalFn = Callable[[str], bytes]


def can_view() -> bool:
    """Whether st.pdf can draw (it needs the streamlit-pdf package)."""
    return importlib.util.find_spec("streamlit_pdf") is not None


def download_name(file_name: str) -> str:
    """A safe file name for the download: the base name, odd characters replaced, ending in .pdf."""
    name = re.sub(r"[^\w.\- ]", "_", PurePath(file_name.replace("\\", "/")).name).strip(" .") or "document"
    return name if name.lower().endswith(".pdf") else f"{name}.pdf"


def download_button(doc_id: str, file_name: str, original: OriginalFn, key: str) -> None:
    """Download the whole original; its bytes are read only when the button is clicked."""
    st.download_button(
        "Download PDF",
        data=lambda: original(doc_id),
        file_name=download_name(file_name),
        mime="application/pdf",
        icon=":material/download:",
        key=key,
    )


def viewer(data: bytes, alt: str, key: str) -> None:
    """st.pdf of data, or a note that only the download is available."""
    if can_view():
        st.pdf(data, height=VIEWER_HEIGHT, key=key, alt=" ".join(alt.split()))
    else:
        st.info(
            "The PDF viewer needs the streamlit-pdf package (pip install streamlit-pdf); "
            "download the file instead.",
            icon=":material/picture_as_pdf:",
        )


def show_original(
    ev: Evidence, excerpt: ExcerptFn, original: OriginalFn, start: tuple[int, str] | None = None
) -> None:
    """A toggle that opens the original at the cited page (or start: page index and label), beside
    a download of the whole file."""
    with st.container(horizontal=True, vertical_alignment="center", key="panel_original_bar"):
        shown = st.toggle(
            "Original PDF", key=state.PANEL_ORIGINAL, help="Open the original PDF at the cited page"
        )
        download_button(ev.doc_id, ev.file_name, original, key="panel_download")
    if not shown:
        return
    index, label = start or (ev.page_index, ev.page_label)
    data = excerpt(ev.doc_id, index, max(index, ev.page_end_index) + READ_ON_PAGES)
    if data is None:
        st.warning("This document is no longer in the library.", icon=":material/hide_source:")
        return
    with st.container(key="panel_original_note"):
        st.caption(
            escape_markdown(
                f"From page {label} (index {index}) on, up to {READ_ON_PAGES} pages "
                "past the passage; download the PDF for the whole file."
            )
        )
    viewer(data, f"Original PDF from page {label}: {document_name(ev.title, ev.file_name)}", key="panel_pdf")
