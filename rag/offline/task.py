"""The prompt read back: the sources and the question of the last message, laid out by rag.prompts
(a `Source ID [<id>]:` header per source, an optional context line, the question after
QUESTION_HEADER). The offline answerer and the scripted test model answer from what it reads."""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import BaseMessage

from rag.offline.scoring import Source
from rag.prompts import CONTEXT_PREFIX, QUESTION_HEADER, SOURCES_END

__all__ = ["parse_task"]

_HEADER = re.compile(r"^Source ID \[([A-Za-z0-9]{7,8})\]:(.*)$", re.MULTILINE)


def parse_task(messages: Sequence[BaseMessage]) -> tuple[list[Source], str]:
    """The sources and the question from the last message laid out by rag.prompts."""
    text = str(messages[-1].content) if messages else ""
    body, _, tail = text.rpartition(SOURCES_END)
    if not _:
        body, tail = "", text
    headers = list(_HEADER.finditer(body))
    ends = [m.start() for m in headers[1:]] + [len(body)]
    sources = [_source(m.group(1), m.group(2), body[m.end() : end].strip()) for m, end in zip(headers, ends)]
    _before, found, question = tail.rpartition(QUESTION_HEADER)
    return sources, (question if found else tail).strip()


def _source(short_id: str, header: str, block: str) -> Source:
    title, _, pages = (x.strip() for x in header.rpartition(", page "))
    first, _, rest = block.partition("\n")
    if first.startswith(CONTEXT_PREFIX):
        return Source(short_id, rest.strip(), first.removeprefix(CONTEXT_PREFIX).strip(), title, pages)
    return Source(short_id, block, title=title, pages=pages)
