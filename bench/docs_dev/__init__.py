"""Our own questions on the real non-filing PDFs of ../shared/corpus/docs-dev (issue 50)."""
