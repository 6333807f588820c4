"""Ingestion jobs on the pages: the Library page's list (stage, progress, cancel), refreshed while
any job is active, and the chat sidebar's "N documents being added" link.

Jobs run in a worker, never in a page's script run (components/shared/resources.py starts it), so
leaving the page, reloading it or closing the browser changes nothing. File names are untrusted:
they reach the page only as plain text (st.text) or escaped.
"""

from __future__ import annotations

import streamlit as st

from components.shared import state
from components.shared.render import escape_markdown
from ingest.jobs import BY_OCR, CANCELLED, DONE, EMBEDDING, FAILED, QUEUED, READING, Job

REFRESH_S = 1.0  # how often the list redraws while a job is queued or running
FINISHED_SHOWN = 10  # finished jobs listed under the active ones, latest first
ICONS = {DONE: ":material/check_circle:", FAILED: ":material/error:", CANCELLED: ":material/cancel:"}


def describe(job: Job, worker_running: bool = True) -> str:
    """What a job is doing or how it ended, in one plain sentence (without the file name)."""
    counted = f" ({job.done:,} of {job.total:,})" if job.total else ""
    if job.stage == QUEUED:
        return (
            "Queued"
            if worker_running
            else "Queued: waiting for a worker (this app runs none: `python -m cli.ingest worker`)"
        )
    if job.stage == READING:
        return ("Reading pages by OCR" if job.message == BY_OCR else "Reading pages") + counted
    if job.stage == EMBEDDING:
        return "Searchable by words; embedding chunks" + counted
    if job.stage == DONE:
        return job.message if job.message == "already in the library" else f"added: {job.message}"
    if job.stage == FAILED:
        if job.error == "PasswordRequired":
            first = "the password is wrong" if "wrong" in job.message else "is password-protected"
            return f"{first}: type its password in the Password field and add it again"
        return job.message.removeprefix(f"{job.file_name}: ")  # the list names the file already
    return "cancelled"


def show_jobs(library, worker_running: bool) -> None:
    """Every active job with its stage, progress and a Cancel button, then the latest finished
    ones; redrawn every REFRESH_S while any is active, the whole page once one lands or ends."""
    jobs = library.jobs.list()
    active = [j for j in jobs if j.active]
    if not jobs:
        return
    st.fragment(run_every=REFRESH_S if active else None)(_draw)(library, worker_running)


def _draw(library, worker_running: bool) -> None:
    jobs = library.jobs.list()
    active = [j for j in jobs if j.active]
    # The page's table and search change when a job's words land and when it ends: then the
    # whole page runs again, not only this list.
    seen = (library.generation, tuple(j.job_id for j in active))
    if state.jobs_seen(seen):
        st.rerun()
    with st.container(key="library_jobs"):
        st.subheader(f"Being added ({len(active)})" if active else "Recently added")
        for job in active:
            _active_row(library, job, worker_running)
        for job in [j for j in jobs if not j.active][:FINISHED_SHOWN]:
            st.markdown(f"{ICONS.get(job.stage, '')} " + escape_markdown(f"{job.file_name}: {describe(job)}"))


def _active_row(library, job: Job, worker_running: bool) -> None:
    with st.container(border=True, key=f"job_{job.job_id}"):
        name, cancel = st.columns([5, 1], vertical_alignment="center")
        name.text(job.file_name)
        cancel.button(
            "Cancel",
            key=f"cancel_{job.job_id}",
            icon=":material/cancel:",
            disabled=job.cancel,
            on_click=library.jobs.cancel,
            args=(job.job_id,),
        )
        text = describe(job, worker_running) + (" (cancelling)" if job.cancel else "")
        st.progress(job.fraction if job.stage != QUEUED else 0.0, text=escape_markdown(text))


def adding_link(library) -> None:
    """In the chat sidebar: "N documents being added", linking to the Library page, while any are."""
    count = sum(j.active for j in library.jobs.list())
    if count:
        label = f"{count} document{'s' if count != 1 else ''} being added"
        st.page_link("pages/library.py", label=label, icon=":material/hourglass_top:")


def wait_for_first_document(library) -> None:
    """On an empty chat page while jobs are active: rerun the page once a document's words land."""
    if not any(j.active for j in library.jobs.list()):
        return

    def _check() -> None:
        if library.documents():
            st.rerun()

    st.fragment(run_every=REFRESH_S * 2)(_check)()
