"""The candidate answer every rule of the check reads: a sentence or table row and what surrounds it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Quote"]


@dataclass(frozen=True)
class Quote:
    """A candidate answer: the sentence or row as quoted, what surrounds it, its support score."""

    text: str
    context: str = ""  # its heading, the source's context line, the document title
    before: str = ""  # the sentence or row before it in its passage
    passage: str = ""  # the whole passage
    row: bool = False
    support: float = 1.0
    label: str = ""  # for a row, its label ("Total current liabilities")
    title: str = ""  # the document's title
