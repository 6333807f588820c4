"""The offline answer to a question about a document's structure, from the section paths the
evidence carries (Evidence.sections, read at ingest: ingest.pdf.sections), not from its sentences.

A question that names a section and asks for its subsections ("Which subsections does section 3
have?") is answered with the title of each subsection the evidence holds, in the document's order,
each cited to the piece of evidence where it begins (retrieval puts one where each begins first:
rag.retrieval.sections); one that asks for its title ("What is chapter 4 called?") with the title,
cited where the section begins. The named section is the one Section.names rates best among the
evidence's paths and their prefixes, the shallowest of equals, the first in the document of those.
"""

from __future__ import annotations

from collections.abc import Sequence

from ingest.pdf.sections import PATH_JOIN
from rag.questions.read import Question
from rag.questions.section import SUBSECTIONS, TITLE
from rag.types import Evidence


def section_answer(question: Question, evidence: Sequence[Evidence]) -> str | None:
    """The cited subsection titles or title of the section the question names (see the module
    docstring), or None: no section named, nothing asked of its structure, or the evidence holds
    no path of it (or of a subsection of it)."""
    asked = question.section
    if asked is None or asked.asks not in (SUBSECTIONS, TITLE):
        return None
    first = _where_each_begins(evidence)
    rated = [
        (asked.names(path.split(PATH_JOIN)[-1]), -path.count(PATH_JOIN), -n, path)
        for n, path in enumerate(first)
    ]
    best = max(rated, default=None)
    if best is None or best[0] <= 0:
        return None
    named = best[-1]
    title = _plain(named.split(PATH_JOIN)[-1])
    if asked.asks == TITLE:
        return f"{title} [{first[named].short_id}]"
    below = named + PATH_JOIN
    children = [p for p in first if p.startswith(below) and PATH_JOIN not in p[len(below) :]]
    if not children:
        return None
    listed = "; ".join(f"{_plain(p[len(below) :])} [{first[p].short_id}]" for p in children)
    return f"{title} has {len(children)} subsection{'s' if len(children) > 1 else ''}: {listed}."


def _where_each_begins(evidence: Sequence[Evidence]) -> dict[str, Evidence]:
    """Every section path the evidence holds and every prefix of one, in the documents' order, each
    with the first piece (by document, page and offset) that holds it: where it begins, when
    retrieval brought that piece."""
    documents = {e.doc_id: n for n, e in reversed(list(enumerate(evidence)))}
    ordered = sorted(evidence, key=lambda e: (documents[e.doc_id], e.page_index, e.char_start))
    first: dict[str, Evidence] = {}
    for piece in ordered:
        for path in piece.sections:
            parts = path.split(PATH_JOIN)
            for depth in range(1, len(parts) + 1):
                first.setdefault(PATH_JOIN.join(parts[:depth]), piece)
    return first


def _plain(title: str) -> str:
    """A title as answer text: no bracket a citation could be read from."""
    return " ".join(title.replace("[", "(").replace("]", ")").split())
