"""A question of judgement ("Is AmWater capital-intensive?", "Does Coke look liquid?") names no
line item: it names an analyst's concept, and the vocabulary (rag.questions.vocabulary: concepts
-> line items -> the labels filings print them under) says which statement rows an analyst reads
for it. Retrieval brings those rows (rag.judgement.rows); the answer quotes them and
leaves the judgement to the reader (rag.judgement.answer).

A question that defines a metric or writes out its formula asks for a figure, not a judgement:
its inputs are the rows (rag.questions.request); a concept's name that is also a line item's
printed label ("dividends") asks for that row, and one inside a ratio's name ("supplementary
leverage ratio") asks for that ratio.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from rag.questions.vocabulary import blank, load_vocabulary, phrase_words

# A row prints a line item when its label is one of the item's labels, after a leading "Total"
# and before a qualifying clause after a comma ("Purchases of property and equipment, net",
# "Total operating revenues"); a label inside a longer name is another row ("Cost of sales",
# "Sales and marketing").
_LEADING = ("total ",)


@dataclass(frozen=True)
class Judgement:
    """The concepts a question asks to judge and the line items an analyst reads for them."""

    concepts: tuple[str, ...]  # vocabulary keys, in the order the question names them
    items: tuple[str, ...]  # line-item keys, without repeats, the first concept's first

    def words(self) -> str:
        """The concepts as a reader names them ("capital intensity and liquidity")."""
        names = [c.replace("_", " ") for c in self.concepts]
        return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def read_judgement(core: str, defines_inputs: bool) -> Judgement | None:
    """The judgement the question's asking sentences call for, or None (no concept named, or a
    metric defined: a figure is asked)."""
    if defines_inputs:
        return None
    vocabulary = load_vocabulary()
    words = phrase_words(core)
    for item in vocabulary.line_items.values():  # "dividends" asks for a row, not a judgement
        for label in item.labels:
            words = blank(words, phrase_words(label))
    concepts = vocabulary.concepts_named(" ".join(words))
    if not concepts:
        return None
    # A concept judged by no metric (segment concentration) is read from a note's table by
    # segment, not from the statements' rows.
    items = tuple(dict.fromkeys(i for c in concepts if c.metrics for i in c.line_items))
    return Judgement(tuple(c.key for c in concepts), items)


# The vocabulary's statements by the names rag.questions.request.STATEMENTS gives them.
STATEMENT_KINDS = {"income": "income", "balance": "balance", "cash flow": "cash_flows"}
_NOTE = re.compile(r"\(\s*(?:note|see)[^)]*\)|\(\d+\)|[^a-z0-9&,' ]")


def _label(text: str) -> str:
    """A row label as labels are compared: lower case, notes and marks out, spaces single."""
    return " ".join(_NOTE.sub(" ", text.lower()).replace(",", " , ").split())


@cache
def _item_labels(item: str) -> frozenset[str]:
    """A line item's labels as row labels are compared (read once: row_rank runs for every row)."""
    return frozenset(_label(x) for x in load_vocabulary().line_items[item].labels)


def row_rank(item: str, label: str) -> int | None:
    """How well a table row's label prints a line item (vocabulary key): 0 when it is one of the
    item's labels (after a leading "Total"), 1 when one of them comes before a comma, else None."""
    whole = _label(label).rstrip(" ,")
    forms = {whole, *(whole.removeprefix(lead) for lead in _LEADING)}
    labels = _item_labels(item)
    if forms & labels:
        return 0
    return 1 if any(f.startswith(f"{x} ,") for f in forms for x in labels) else None
