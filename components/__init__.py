"""Streamlit edge: session state, cached resources and the custom components the pages draw.

A question's hops, from the chat input to the side panel (the core's part: ``rag/__init__.py``):

1. pages/chat.py - ``st.chat_input``; the library (components/shared/resources.py:get_reader), the chat
   model (resources.get_chat_model) and the stream options (wiring.py:stream_options).
2. components/chat/chat_view.py:stream_answer - the status line and the streamed text.
3. components/chat/stream.py:answer_events - rag.retrieval.retrieve.search_evidence, then Searched (the sources
   shown before the first token), then rag.answering.answer.stream_answer's events.
4. components/chat/stream.py:BadgeStream.pieces - the text as it streams, citations as numbered badges
   read from the Cited events (no second parse);
   chat_view._LiveStream.save_once stores the Done answer (rag/stores/conversations.py:add_turn).
5. components/chat/chat_view.py:show_history -> show_answer_block -> components/chat/answer_view.py:
   show_answer, which mounts the saved answer's HTML (page_resources.answer_html ->
   components/shared/render.py:render_answer_html from the answer's saved spans, sanitised, footnotes as buttons).
6. A footnote click: the answer's DOM event, carrying the footnote's panel text from the answer's
   data (components/panel/preview.py:footnote_previews), taken by the side panel's relay (a widget inside
   the panel's fragment, components/chat/cite_relay.py), which shows that text at once in the panel's
   place -> components/chat/chat_panel.py:on_relayed_click -> state.on_relayed_cite (the
   selection is (turn_id, footnote number)) -> a rerun of the panel's fragment alone
   (chat_panel.show_chat_panel), not of pages/chat.py: the saved turns are not sent again. While a
   run is on its way the answer's own cite event goes instead (on_footnote_click, a full run).
7. components/panel/side_panel.py:selected_footnote -> show_panel - the saved evidence; the cited passage
   (components/panel/passage.py:cited_passage, from the saved spans; page offsets via _focus) emphasised in the chunk text.
8. side_panel._pages -> page_resources.passage_picture -> ingest/pdf/render.py:draw_page (the page rendered
   once, chunk in yellow, cited passage in orange, boxes returned) -> components/panel/picture.py:panel_pictures (JPEG).
"""
