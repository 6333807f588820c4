"""Streamlit edge: session state, cached resources and the custom components the pages draw."""
