"""Whether a passage prints the row of a line item a question defines or writes out
(rag.questions.read.Question.inputs), by which retrieval's page stage takes a metric's input rows
first (rag.retrieval.page_stage); the figure itself is computed by rag.compute.

A row *holds* an input when its label holds every concept of the input (rag.questions.asked: a
shorthand such as "COGS" counts through its spelled-out words) or, for a synonym group, one of its
phrases: a label holding "current liabilities" but not "total" is another row.
"""

from __future__ import annotations

from rag.questions.read import Input
from rag.tables.lines import read_row
from rag.text import acronyms, tokenize

# Share of an input's concepts a row label must hold. 1.0: every one (a label holding "current
# liabilities" but not "total" is another row). Set on filings-dev's FinanceBench questions.
INPUT_SHARE = 1.0


def _holds(item: Input, label: str) -> float:
    """The share of the item's concepts the row's label holds."""
    concepts = item.concepts
    if not concepts:
        return 0.0
    terms = set(tokenize(label)) | acronyms(label)
    return sum(c.credit(terms) for c in concepts) / len(concepts)


def holds_row(item: Input, text: str) -> bool:
    """Whether a passage has a table row whose label holds the item."""
    return any(
        _holds(item, row.label) >= INPUT_SHARE
        for line in text.splitlines()
        if (row := read_row(" ".join(line.split()))) is not None
    )
