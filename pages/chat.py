"""Chat page (placeholder until the answering and chat issues land: it never pretends to answer)."""

import streamlit as st

st.title("Footnote")
st.info("No documents yet. Answering is not built yet; the Library page will take your PDFs.")
