"""rag.retrieval.lexical quiets bm25s: its index builds' DEBUG notes reach no handler."""

from __future__ import annotations

import logging

import rag.retrieval.lexical  # noqa: F401 (importing it sets bm25s's level)


def test_the_bm25_librarys_debug_notes_reach_no_handler() -> None:
    """bm25s logs "Building index from tokens" at DEBUG on a logger it sets to DEBUG: a command line
    that logs errors to stderr printed it there (tests/cli/test_rag.py compares stderr)."""
    assert not logging.getLogger("bm25s").isEnabledFor(logging.INFO)
