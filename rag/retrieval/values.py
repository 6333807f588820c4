"""Chunks that print the kind of value a question asks for: asked for an e-mail, a phone or fax
number, a web address, a code or a postal address in one document, the chunks of that document
whose short lines hold one (rag.values, read by what it looks like) are candidates, though the
question's word ("email") is no word of the value ("yubo001@e.ntu.edu.sg")."""

from __future__ import annotations

from collections.abc import Sequence

from ingest.types import Chunk, LibraryReader
from rag.questions.read import Question
from rag.text import tokenize
from rag.values import LINE_WORDS, values_in

# The kinds a value's look tells apart from ordinary text (a name or a date is in every chunk).
PATTERNED = frozenset({"email", "phone", "fax", "url", "code", "address"})
# At most this many documents are scanned (a question scoped to its document, or a few).
MAX_DOCUMENTS = 2
# Chunks put among the candidates, the best by the question's words first.
VALUE_CHUNKS = 1


def value_chunks(library: LibraryReader, question: Question, doc_ids: Sequence[str] | None) -> list[Chunk]:
    """The VALUE_CHUNKS chunks of the scoped documents holding a value of the asked kind on a
    short line, the most of the question's words first (the earliest on a tie); none when the
    question asks for no such kind or is not scoped to at most MAX_DOCUMENTS documents."""
    kind = question.asked.value
    if kind not in PATTERNED or not doc_ids or len(doc_ids) > MAX_DOCUMENTS:
        return []
    asked = set(tokenize(question.core)) - {t for w in question.asked.value_words for t in tokenize(w)}
    found = []
    for n, chunk in enumerate(library.chunks(doc_ids)):
        lines = [x for x in chunk.text.splitlines() if 0 < len(x.split()) <= LINE_WORDS]
        if any(values_in(kind, line) for line in lines):
            found.append((-len(asked & set(tokenize(chunk.text))), n, chunk))
    return [chunk for _, _, chunk in sorted(found, key=lambda f: f[:2])[:VALUE_CHUNKS]]


def with_value_chunks(fused: list[tuple[Chunk, float]], extra: Sequence[Chunk]) -> list[tuple[Chunk, float]]:
    """The fused ranking with the value chunks second (after the best by words and meaning), each once."""
    if not extra:
        return fused
    ids = {c.chunk_id for c in extra}
    rest = [(c, s) for c, s in fused if c.chunk_id not in ids]
    score = rest[0][1] if rest else 1.0
    return [*rest[:1], *((c, score) for c in extra), *rest[1:]]
