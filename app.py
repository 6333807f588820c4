"""Footnote: chat with your PDFs; every claim carries a footnote that opens its passage."""

import streamlit as st

st.set_page_config(page_title="Footnote", page_icon=":material/format_quote:", layout="wide")

pages = [
    st.Page("pages/chat.py", title="Chat", icon=":material/chat:", default=True),
    st.Page("pages/library.py", title="Library", icon=":material/library_books:"),
    st.Page("pages/audit.py", title="Audit", icon=":material/fact_check:"),
]
st.navigation(pages).run()
