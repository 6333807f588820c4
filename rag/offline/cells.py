"""The value of A under B: when the question names a row's label and a column's header of one table
in the evidence, the answer is that cell, with its row and column named, cited by its source.

The question's A and B are read off the table, never off a word list: a cell is a candidate when
the question holds at least half of its row label's words and at least half of its column name's
words (an abbreviated column name, "Rel.", matching the start of a question's word, "relevance"),
the column's words not all the label's. Rows and columns come from the one table reader
(rag.tables.passages.table_rows); only columns a header of words names are read here. A question
naming a period asks for a period's column (computed answers, rag.compute, and the row quotes),
never a header of words'; one naming a table ("Table 4") is answered only from the table whose
caption names it. Two candidates as good as each other are both quoted, each with its row, rather
than one picked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rag.offline.scoring import Scored, Source
from rag.questions.read import Question
from rag.tables.passages import TableCell, TableRow, table_rows
from rag.text import STOPWORDS, tokenize

# Share of a row label's words, and of a column name's, the question must hold for the cell to be
# the one it asks for: half, so that "fully fine-tuned RoBERTa-Large" finds "RoBERTa-Large (fully
# fine-tuned)" and a label sharing one word of three with the question is another row.
NAMED_SHARE = 0.5
# A column name's word matches the start of a question's word when it is at least this long
# ("rel" in "relevance"); shorter ones must be the word.
PREFIX_CHARS = 3
AMBIGUOUS = "Two cells of the table could be the one asked for:"
_TABLE_NAMED = re.compile(r"\btable\s+(\d+)\b", re.IGNORECASE)  # "in Table 4", "table 2's"
_CAPTION = re.compile(r"^\s*table\s+(\d+)\b", re.IGNORECASE)  # "Table 4: Evaluation on ..."


@dataclass(frozen=True)
class _Found:
    score: float
    source: str
    row: TableRow
    cell: TableCell
    label: str  # the row's label with any cell printed in its column ("GPT-4 (0.5)")
    table: str  # the number of the table's caption nearest the row ("4" for "Table 4: ..."), or ""


def _share(words: Sequence[str], terms: set[str], prefix: bool) -> tuple[float, set[str]]:
    """The share of the words the question's terms hold, and which of them."""
    words = [w for w in words if w not in STOPWORDS]
    if not prefix and any(not w.isdigit() for w in words):  # a label's number held is no word of it missed
        words = [w for w in words if not w.isdigit() or w in terms]
    held = {
        w
        for w in words
        if w in terms or (prefix and len(w) >= PREFIX_CHARS and any(a.startswith(w) for a in terms))
    }
    return (len(held) / len(words) if words else 0.0), held


def cell_answer(question: Question, sources: Sequence[Source]) -> list[Scored]:
    """The cell the question names by its row and column (see the module docstring), quoted as
    "A, B: cell (row: ...)"; two equally named cells each quoted with their row; else none."""
    asked = {t for t in tokenize(question.core) if t not in STOPWORDS}
    if not asked or question.periods.asked or question.concepts.years:
        return []  # no words to name a cell by, or a period's column asked for
    found: list[_Found] = []
    for source in sources:
        for row in table_rows(source.text, source.context):
            lead = [c.text for c in row.cells if not c.column_name]
            label = (
                " ".join([row.label, *lead])
                if all(c.column_name for c in row.cells[len(lead) :])
                else row.label
            )
            label_share, label_held = _share(tokenize(label), asked, False)
            if label_share < NAMED_SHARE:
                continue
            for cell in row.cells:
                if not cell.column_name:
                    continue
                name_share, name_held = _share(tokenize(cell.column_name), asked, True)
                if name_share >= NAMED_SHARE and not name_held <= label_held:
                    table = _caption(source.text, row.label_start)
                    found.append(_Found(label_share + name_share, source.short_id, row, cell, label, table))
    named = _TABLE_NAMED.search(question.text)
    if named:  # the table the question names, or none
        found = [f for f in found if f.table == named.group(1)]
    if not found:
        return []
    best = max(f.score for f in found)
    chosen = list({(f.source, f.row.label_start, f.cell.start): f for f in found if f.score == best}.values())
    quotes = [Scored(best, f.source, _quote(f), best / 2) for f in chosen]
    if len(quotes) > 1:
        quotes[0] = replace(quotes[0], sentence=f"{AMBIGUOUS} {quotes[0].sentence}")
    return quotes


def _caption(text: str, at: int) -> str:
    """The number of the "Table N" caption line nearest the character at, by lines, or ""."""
    lines = text.split("\n")
    here = text.count("\n", 0, at)
    numbered = [(abs(i - here), m.group(1)) for i, line in enumerate(lines) if (m := _CAPTION.match(line))]
    return min(numbered)[1] if numbered else ""


def _quote(found: _Found) -> str:
    """ "Alpaca-7B, Rel.: 3.76 (row: Alpaca-7B 4.10 4.46 4.23 3.76; columns Coh., Con., Flu., Rel.)"."""
    row = found.row
    named = [c for c in row.cells if c.column_name]
    cells = " ".join(c.text for c in named)
    columns = ", ".join(c.column_name for c in named)
    return f"{found.label}, {found.cell.column_name}: {found.cell.text} (row: {found.label} {cells}; columns {columns})"
