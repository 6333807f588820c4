"""Library page (placeholder until the ingestion issue lands)."""

import streamlit as st

st.title("Library")
st.info("Uploading PDFs is not built yet.")
