"""Chat page: ask, watch the answer stream, click a footnote to open its passage beside the chat."""

import streamlit as st

from components.chat import chat_panel, chat_view, model_picker
from components.library import jobs_view
from components.panel import side_panel
from components.shared import identity, resources, state
from components.shared.render import escape_markdown
from ingest.errors import IndexMismatch, LibraryError
from rag.answering.answer import answer_stream
from wiring import stream_options

state.init()
state.set_chat_drawn(False)  # until this run reaches its end (components/chat/chat_panel.py)
settings = state.settings()
user = identity.current_user(settings)
try:
    library = resources.get_reader()
except IndexMismatch as exc:
    st.warning(escape_markdown(str(exc)), icon=":material/sync_problem:")
    st.page_link("pages/library.py", label="Re-index on the Library page", icon=":material/sync:")
    st.stop()
except LibraryError as exc:  # a damaged library: the message names the recover command
    st.error(escape_markdown(str(exc)), icon=":material/error:")
    st.stop()
store = resources.get_conversations(str(settings.data_dir), user)
documents = library.documents()
conv_id = chat_view.current_conversation(store)
model = model_picker.pick_model(settings, store, conv_id)
chat_model, provider = resources.get_chat_model(settings, model)
chat_view.show_sidebar(store, documents, provider, settings.retrieval_k)
with st.sidebar:
    jobs_view.adding_link(library)
turns = chat_view.saved_turns(store, conv_id)
prompt = st.chat_input("Ask about your documents", disabled=not documents)

# Once there is a chat the layout keeps its two columns, so opening or closing the panel never
# remounts the answers (measured: 0.8 s instead of 0.4 s at 30 turns).
chat_col, panel_col = st.columns([7, 5], gap="medium") if turns or prompt else (st.container(), None)

with chat_col:
    if not documents:
        st.info("The library is empty: add PDFs first, then ask about them here.", icon=":material/info:")
        st.page_link("pages/library.py", label="Open the Library", icon=":material/library_books:")
        jobs_view.wait_for_first_document(library)  # one being added: ask as soon as its words are in
    elif not turns and not prompt:
        st.caption(
            f"Ask a question about your {len(documents)} document(s). "
            f"Answering with: {escape_markdown(provider)}."
        )
    chat_view.show_history(turns)
    if prompt and documents:
        if conv_id is None:
            conv_id = store.create()
            st.query_params[chat_view.CONV_PARAM] = conv_id
        if model:
            store.set_model(conv_id, model)
        history = [t.answer for t in turns if t.answer.text]
        chat_view.stream_answer(
            prompt,
            lambda: answer_stream(
                prompt,
                library=library,
                chat_model=chat_model,
                provider_label=provider,
                k=state.top_k(settings.retrieval_k),
                history=history,
                doc_ids=state.doc_filter() or None,
                **stream_options(settings),
            ),
            lambda answer: store.add_turn(conv_id, answer),
            provider,
            len(state.doc_filter()) or len(documents),
        )
        turns = store.turns(conv_id)  # with the new answer: the panel's next runs look its footnotes up

if panel_col is None:
    state.clear_selection()  # no turns on screen: nothing a selection could point at
else:
    with panel_col:
        side_panel.show_style()
        chat_panel.show_chat_panel({t.turn_id: t for t in turns}, library)  # a click reruns only this
state.set_chat_drawn(True)
