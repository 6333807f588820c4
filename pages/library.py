"""Library page: add PDFs (upload or the samples), list them, delete, re-index after a settings change;
view or download a document; search every document, a hit opening the source side panel."""

import streamlit as st

from components.library import jobs_view, library_search, library_view
from components.shared import identity, resources, state
from components.shared.render import escape_markdown
from ingest.errors import IndexMismatch, IngestError, LibraryError

state.init()
identity.current_user(state.settings())  # the library is shared, but only with someone named
st.title("Library")

try:
    library = resources.get_library()
except IndexMismatch as exc:
    st.warning(escape_markdown(str(exc)), icon=":material/sync_problem:")
    if st.button("Re-index all documents", type="primary", icon=":material/sync:"):
        bar = st.progress(0.0, text="Re-indexing")
        try:
            done = resources.rebuild_library(
                lambda p: bar.progress(
                    p.done / p.total if p.total else 0.0, text=f"{p.stage}: {p.done} of {p.total}"
                )
            )
        except IngestError as exc:  # the embedding endpoint failed: nothing was changed
            st.error(escape_markdown(str(exc)), icon=":material/error:")
        else:
            st.success(f"Re-indexed {done} chunks.")
            st.rerun()
    st.stop()
except LibraryError as exc:  # damaged (the message names the recover command) or busy
    st.error(escape_markdown(str(exc)), icon=":material/error:")
    st.stop()

for line in library.open_report:
    st.warning(escape_markdown(line), icon=":material/build:")
if library.missing_vectors:
    library_view.offer_repair(library.missing_vectors, resources.repair_library)

with st.container(border=True):
    uploads = st.file_uploader(
        "Add PDFs", type=["pdf"], accept_multiple_files=True, key=state.LIBRARY_UPLOADS
    )
    st.text_input("Password (only for password-protected PDFs)", type="password", key=state.LIBRARY_PASSWORD)
    add_col, sample_col = st.columns(2)
    add = add_col.button("Add to library", type="primary", disabled=not uploads, icon=":material/upload:")
    samples = sample_col.button("Load sample documents", icon=":material/menu_book:")
    if add or samples:
        # Read each upload once, here at the edge, into bytes; a worker adds them (not this run).
        files = [(f.name, f.getvalue()) for f in uploads or []] if add else library_view.sample_files()
        resources.enqueue_files(library, files, state.library_password())
        st.rerun()  # the job list shows them from the next run on

jobs_view.show_jobs(library, resources.worker_enabled(state.settings()))
documents = library.documents()
st.subheader(f"Documents ({len(documents)})")
if not documents:
    st.info("No documents yet: upload PDFs above or load the samples.", icon=":material/info:")
    st.stop()

st.caption(escape_markdown(library_view.index_summary(library, documents)))
st.dataframe(library_view.document_rows(documents, library.vector_progress()), hide_index=True)

by_id = {d.doc_id: d for d in documents}


def _delete(doc_id: str) -> None:
    library.delete(doc_id)
    state.ask_delete(None)
    state.clear_delete_choice()


with st.expander("Delete a document", icon=":material/delete:"):
    doc_id = st.selectbox(
        "Document",
        list(by_id),
        index=None,
        key=state.LIBRARY_DELETE_CHOICE,
        format_func=lambda i: f"{by_id[i].title} ({by_id[i].file_name})",
        placeholder="Choose a document",
    )
    if doc_id is not None and state.pending_delete() != doc_id:
        st.button("Delete", icon=":material/delete:", on_click=state.ask_delete, args=(doc_id,))
    elif doc_id is not None:
        chosen = by_id[doc_id]
        st.warning(
            escape_markdown(f"Delete {chosen.title} ({chosen.file_name})? Its chunks and file go too.")
        )
        yes, no = st.columns(2)
        yes.button("Yes, delete", type="primary", on_click=_delete, args=(doc_id,))
        no.button("Cancel", on_click=state.ask_delete, args=(None,))

library_search.show_viewer(library, documents)
library_search.show_search(library)
