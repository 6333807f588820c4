"""The one owner of st.session_state: every key, its default and typed accessors live here.

Session state holds plain data only (ids, strings, numbers), never indexes or clients; those
are cached resources (components/shared/resources.py).
"""

from __future__ import annotations

import streamlit as st

from settings import Settings, load_settings

_DEFAULTS: dict[str, object] = {}


def init() -> None:
    """Set every key's default once per session (and make sure app.py's navigation is in charge)."""
    _leave_pages_folder_mode()
    for key, value in _DEFAULTS.items():
        st.session_state.setdefault(key, value)


_NAV_CHECKED = "nav_checked"


def _leave_pages_folder_mode() -> None:
    """Rerun through app.py when Streamlit ran a page in its old pages-folder mode.

    Until some session has run app.py's st.navigation, Streamlit treats a `pages/` folder as the
    old multipage layout: a first visit to /audit after a server start runs pages/audit.py with
    an auto-generated sidebar (app, audit, chat, library) and without app.py. Clearing the flag
    that st.navigation itself clears, then rerunning, runs app.py, which opens the page asked for.
    SEE: streamlit/runtime/scriptrunner/script_runner.py (_mpa_v1) and commands/navigation.py
    """
    from streamlit.runtime.pages_manager import PagesManager

    # Only on a session's first run: AppTest resets the flag before every run, and a rerun
    # there would swallow the widget event (a chat input) that started the run.
    first_run = _NAV_CHECKED not in st.session_state
    st.session_state[_NAV_CHECKED] = True
    if PagesManager.uses_pages_directory and first_run:
        PagesManager.uses_pages_directory = False
        st.rerun()


def settings() -> Settings:
    """Settings from the environment and .streamlit/secrets.toml, read as the CLI reads them."""
    return load_settings()


# --- Chat page ---------------------------------------------------------------------------
# The footnote selection is (turn_id, footnote number): the panel always shows that turn's own
# saved evidence, so a click in an older answer can never show a newer answer's chunk.

SELECTION = "chat_selection"
DOC_FILTER = "chat_doc_filter"
TOP_K = "chat_k"
STOP_STREAM = "chat_stop"  # the Stop button under a streaming answer: its click's rerun ends the stream
# Whether the chat page's last full run reached its end: then the chat on screen is whole and its
# side panel fragment is registered, so a footnote click may rerun the panel alone.
CHAT_DRAWN = "chat_drawn"
_DEFAULTS.update({SELECTION: None, DOC_FILTER: [], CHAT_DRAWN: False})


def selection() -> tuple[str, int] | None:
    """The selected footnote as (turn_id, number), or None when the panel is closed."""
    value = st.session_state.get(SELECTION)
    return (value[0], int(value[1])) if value else None


def select(turn_id: str, number: int) -> None:
    """Open the panel on a footnote of a turn."""
    st.session_state[SELECTION] = (turn_id, int(number))


def clear_selection() -> None:
    """Close the panel."""
    st.session_state[SELECTION] = None


def answer_key(turn_id: str) -> str:
    """The widget key of a turn's interactive answer."""
    return f"answer_{turn_id}"


def on_cite(turn_id: str) -> bool:
    """Callback of a turn's answer component: its 'cite' trigger carries the clicked number;
    whether a footnote was selected."""
    value = st.session_state.get(answer_key(turn_id))
    number = value.get("cite") if value is not None else None
    if number is not None:
        select(turn_id, int(number))
    return number is not None


CITE_RELAY = "chat_cite_relay"  # the side panel's relay of footnote clicks (components/chat/chat_panel.py)


def on_relayed_cite() -> bool:
    """Callback of the side panel's relay: its 'cite' trigger carries {turn, n} of the click;
    whether a footnote was selected (a turn not on screen is cleared by the panel)."""
    value = st.session_state.get(CITE_RELAY)
    cite = value.get("cite") if value is not None else None
    if not isinstance(cite, dict):
        return False
    turn_id, number = cite.get("turn"), cite.get("n")
    if not isinstance(turn_id, str) or not isinstance(number, int) or isinstance(number, bool):
        return False
    select(turn_id, number)
    return True


def set_chat_drawn(drawn: bool) -> None:
    """Record that a full run of the chat page started (False) or reached its end (True)."""
    st.session_state[CHAT_DRAWN] = drawn


def chat_drawn() -> bool:
    """Whether the chat page's last full run reached its end (none was cut off since)."""
    return bool(st.session_state.get(CHAT_DRAWN))


def doc_filter() -> list[str]:
    """Document ids the chat is limited to (empty: all)."""
    return list(st.session_state.get(DOC_FILTER) or [])


def prune_doc_filter(existing: set[str]) -> None:
    """Drop documents that left the library from the filter (before its widget is drawn)."""
    st.session_state[DOC_FILTER] = [d for d in doc_filter() if d in existing]


def top_k(default: int) -> int:
    """Pieces of evidence per question, from the sidebar slider."""
    st.session_state.setdefault(TOP_K, default)
    return int(st.session_state[TOP_K])


# --- Chat page: the model picked for the conversation (an OpenAI-compatible endpoint only) ----

MODEL_PICK = "chat_model_pick"
_MODEL_FOR = "chat_model_for"  # the conversation the picker last showed ('' for a new chat)


def show_model_of(conv_id: str | None, saved: str, models: tuple[str, ...], default: str) -> None:
    """Before the picker is drawn: a conversation just opened shows the model saved with it; a
    pick the endpoint no longer lists falls back to `default`."""
    if st.session_state.get(_MODEL_FOR) != (conv_id or ""):
        st.session_state[_MODEL_FOR] = conv_id or ""
        if saved in models:
            st.session_state[MODEL_PICK] = saved
    if st.session_state.get(MODEL_PICK) not in models:
        st.session_state[MODEL_PICK] = default


def picked_model() -> str | None:
    """The model picked in the sidebar, or None when there is no picker."""
    return st.session_state.get(MODEL_PICK)


# --- Audit page --------------------------------------------------------------------------
# The auditor's place in the list of citations, the filters, and LLM judgements of this session.
# Verdicts themselves live in SQLite (rag.stores.verdicts), never here.

AUDIT_POS = "audit_pos"
AUDIT_CONV = "audit_conv"
AUDIT_DOC = "audit_doc"
AUDIT_DATES = "audit_dates"
AUDIT_EXPORT_TURN = "audit_export_turn"
AUDIT_TURN = "audit_turn"
AUDIT_OCR = "audit_ocr"  # only citations of pages read by OCR (auditors check those first)
AUDIT_JUDGEMENTS = "audit_judgements"
_DEFAULTS.update({AUDIT_POS: 0, AUDIT_JUDGEMENTS: {}})


def audit_position(count: int) -> int:
    """The citation on screen, kept within 0..count-1."""
    pos = min(max(int(st.session_state.get(AUDIT_POS, 0)), 0), max(count - 1, 0))
    st.session_state[AUDIT_POS] = pos
    return pos


def audit_step(delta: int, count: int) -> None:
    """Move to the previous (-1) or next (+1) citation, staying in range."""
    st.session_state[AUDIT_POS] = min(
        max(int(st.session_state.get(AUDIT_POS, 0)) + delta, 0), max(count - 1, 0)
    )


def audit_restart() -> None:
    """Back to the first citation (the filters changed)."""
    st.session_state[AUDIT_POS] = 0


def audit_note_key(record_key: tuple[str, int, int]) -> str:
    """The widget key of the note field of one citation."""
    turn_id, number, occurrence = record_key
    return f"audit_note_{turn_id}_{number}_{occurrence}"


def audit_note(record_key: tuple[str, int, int]) -> str | None:
    """What the auditor typed in a citation's note field this session, or None if untouched."""
    value = st.session_state.get(audit_note_key(record_key))
    return None if value is None else str(value)


def audit_judgement(record_key: tuple[str, int, int]) -> tuple[str, str] | None:
    """The LLM judge's (verdict, reason) for a citation, asked this session."""
    found = st.session_state.setdefault(AUDIT_JUDGEMENTS, {}).get("|".join(map(str, record_key)))
    return (found[0], found[1]) if found else None


def set_audit_judgement(record_key: tuple[str, int, int], verdict: str, reason: str) -> None:
    st.session_state.setdefault(AUDIT_JUDGEMENTS, {})["|".join(map(str, record_key))] = (verdict, reason)


def seed_audit_note(record_key: tuple[str, int, int], saved: str) -> None:
    """Fill a citation's note field with its saved note, unless the auditor is editing it."""
    st.session_state.setdefault(audit_note_key(record_key), saved)


# --- Library page ------------------------------------------------------------------------
# Uploads become jobs (their list is in the library, not here); a delete waits for a second click.

LIBRARY_CONFIRM_DELETE = "library_confirm_delete"
LIBRARY_DELETE_CHOICE = "library_delete_choice"
LIBRARY_PASSWORD = "library_password"
LIBRARY_UPLOADS = "library_uploads"
LIBRARY_JOBS_SEEN = "library_jobs_seen"  # (library generation, active job ids) the job list last drew
_DEFAULTS.update({LIBRARY_CONFIRM_DELETE: None})


def jobs_seen(now: tuple) -> bool:
    """Record what the job list shows now; whether it changed since it was last drawn (a job's
    words landed or a job ended: the whole page should run again)."""
    before = st.session_state.get(LIBRARY_JOBS_SEEN)
    st.session_state[LIBRARY_JOBS_SEEN] = now
    return before is not None and before != now


def pending_delete() -> str | None:
    """The document id waiting for delete confirmation, if any."""
    return st.session_state.get(LIBRARY_CONFIRM_DELETE)


def ask_delete(doc_id: str | None) -> None:
    """Ask to confirm deleting a document (None cancels)."""
    st.session_state[LIBRARY_CONFIRM_DELETE] = doc_id


def clear_delete_choice() -> None:
    """Reset the document picker of the delete box (after a delete)."""
    st.session_state.pop(LIBRARY_DELETE_CHOICE, None)


def library_password() -> str | None:
    """The password typed for protected PDFs, or None."""
    return st.session_state.get(LIBRARY_PASSWORD) or None


# --- Library search and the original PDF -------------------------------------------------
# The open search hit is (query, chunk_id): a new query closes it, and the page finds the hit
# again in that query's results, so a stale hit (document deleted) simply closes.

LIBRARY_QUERY = "library_query"
LIBRARY_HIT = "library_hit"
LIBRARY_VIEW_DOC = "library_view_doc"
PANEL_ORIGINAL = "panel_original"
_DEFAULTS.update({LIBRARY_HIT: None})


def open_hit(query: str, chunk_id: str) -> None:
    """Open the side panel on one search hit."""
    st.session_state[LIBRARY_HIT] = (query, chunk_id)


def close_hit() -> None:
    """Close the search hit panel (also the search box's on_change: a new query)."""
    st.session_state[LIBRARY_HIT] = None


def library_hit(query: str) -> str | None:
    """The chunk id of the open hit, when it belongs to this query."""
    value = st.session_state.get(LIBRARY_HIT)
    return value[1] if value and value[0] == query else None


def whole_page_key(position: int) -> str:
    """The key of the side panel's "Whole page" expander under the passage's page at this position
    (of its pages); open, it stays open as the panel moves to another footnote or hit."""
    return f"panel_whole_page_{position}"


def hit_key(position: int) -> str:
    """The widget key of the button that opens the hit at this position of the results."""
    return f"library_hit_{position}"
