"""The st.cache_data wrappers for what the side panels draw: page pictures with a passage
highlighted, page texts, PDF excerpts, and each saved answer's HTML and footnote previews (the other st.cache_*
wrappers are in components/shared/resources.py). Shared by all sessions: never mutate what they return.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from components.panel.preview import footnote_previews
from components.shared.render import render_answer_html
from ingest.local.library import Library
from rag.types import Answer

T = TypeVar("T")


PICTURE_SCALE = 1.5  # page pictures at 1.5x the PDF's 72 dpi: small print stays legible


@st.cache_data(max_entries=256, show_spinner=False)
def _pictures(
    data_dir: str,
    generation: int,
    doc_id: str,
    page_index: int,
    char_start: int,
    char_end: int,
    focus: tuple[int, int] | None = None,
    whole: bool = False,
    *,
    _library: Library,
) -> tuple[bytes, bool] | None:
    # The whole page is encoded only when asked for (the panel's "Whole page" stays closed unless
    # opened): 12 filings-dev pages drew in 62 ms, cut to the passage 2.7 ms, whole 11 ms (load 2).
    from components.panel.picture import cut_picture, whole_picture
    from ingest.pdf.render import draw_page  # pypdfium2 loads only when a panel is first opened

    try:
        pdf = _library.pdf_bytes(doc_id)
    except FileNotFoundError:
        return None
    ocr = _library.page_ocr(doc_id, page_index)  # a scanned page: its words' boxes place the text
    picture = draw_page(
        pdf,
        page_index,
        [(char_start, char_end)],
        [focus] if focus else (),
        scale=PICTURE_SCALE,
        ocr_boxes=ocr.boxes if ocr is not None else None,
    )
    cut = None if whole else cut_picture(picture)
    return (cut, True) if cut is not None else (whole_picture(picture), False)


@st.cache_data(max_entries=256, show_spinner=False)
def _page_text(
    data_dir: str, generation: int, doc_id: str, page_index: int, *, _library: Library
) -> str | None:
    pages = _library.pages(doc_id)
    return pages[page_index].text if 0 <= page_index < len(pages) else None


@st.cache_data(max_entries=32, show_spinner=False)
def _excerpt(
    data_dir: str, generation: int, doc_id: str, first: int, last: int, *, _library: Library
) -> bytes | None:
    from ingest.pdf.excerpt import excerpt_pages

    try:
        return excerpt_pages(_library.pdf_bytes(doc_id), first, last)
    except FileNotFoundError:
        return None


def _bound(cached: Callable[..., T], library: Library) -> Callable[..., T]:
    """`cached` for this library: keyed on its folder and generation (which changes on every add,
    delete and re-index), so a changed library is never answered from an old entry."""
    return functools.partial(cached, str(library.data_dir), library.generation, _library=library)


def passage_picture(library: Library) -> Callable[..., tuple[bytes, bool] | None]:
    """(doc_id, page_index, char_start, char_end, focus=None, whole=False) -> (JPEG, whether it is
    cut): the page cut to the cited passage `focus` (page offsets), else to the highlighted chunk
    (the whole page when nothing on it was highlighted), or with whole=True the whole page; the
    chunk highlighted and the passage more strongly; None when the document is gone."""
    return _bound(_pictures, library)


def page_picture(library: Library) -> Callable[[str, int, int, int], bytes | None]:
    """(doc_id, page_index, char_start, char_end) -> the whole page as JPEG with those characters
    highlighted, or None when the document is gone."""
    pictures = _bound(_pictures, library)

    def whole(doc_id: str, page_index: int, char_start: int, char_end: int) -> bytes | None:
        found = pictures(doc_id, page_index, char_start, char_end, None, True)
        return None if found is None else found[0]

    return whole


def page_text(library: Library) -> Callable[[str, int], str | None]:
    """(doc_id, page_index) -> that page's extracted text, or None when it is gone."""
    return _bound(_page_text, library)


def pdf_excerpt(library: Library) -> Callable[[str, int, int], bytes | None]:
    """(doc_id, first, last page index) -> those pages of the original as a PDF, or None when gone."""
    return _bound(_excerpt, library)


@st.cache_data(max_entries=512, show_spinner=False)
def _answer_html(turn_id: str, answer_text: str, _answer: Answer) -> str:
    return render_answer_html(_answer)


def answer_html(turn_id: str, answer: Answer) -> str:
    """A saved answer's sanitised HTML, rendered once per turn (a saved answer never changes)."""
    return _answer_html(turn_id, answer.text, answer)


@st.cache_data(max_entries=512, show_spinner=False)
def _answer_previews(turn_id: str, answer_text: str, _answer: Answer) -> list[dict[str, object]]:
    return footnote_previews(_answer)


def answer_previews(turn_id: str, answer: Answer) -> list[dict[str, object]]:
    """A saved answer's footnote previews (components/panel/preview.py), built once per turn."""
    return _answer_previews(turn_id, answer.text, answer)
