"""Every prompt in one place: the system prompt, the task prompt and how evidence is laid out for
a chat model (a `Source ID [<id>]:` header line per piece of evidence, optionally one
CONTEXT_PREFIX line with the chunk's section/table title and column headers, the question after
QUESTION_HEADER at the end), and the fixed sentences answers open with. Nothing reads a prompt
back: the offline answerer is given the question and the evidence as values.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from rag.types import Answer, Evidence

SOURCE_HEADER = "Source ID [{short_id}]: {title}, page {pages}"
CONTEXT_PREFIX = "Context: "  # a source's title/header line, when it has one
SOURCES_END = "--- end of sources ---"
QUESTION_HEADER = "Question:"
NOT_IN_DOCUMENTS = "The documents do not answer this question."
# Opens an answer that quotes the closest passages: related, but none answers directly.
# rag.answering.answer.build_answer marks such answers (Answer.closest) by this opening, so keep it exact.
CLOSEST_PASSAGES = "The documents do not answer this directly; the closest passages are:"
HISTORY_TURNS = 3
HISTORY_ANSWER_CHARS = 600

# Never put a real-looking id here: models copy example ids from prompts (R2R issue 2224).
SYSTEM_PROMPT = f"""\
You answer questions using only the sources the user gives you, and you cite them.

Rules:
- After each sentence or claim, cite the source that supports it by writing its ID in square \
brackets, exactly as it appears after "Source ID", for example [<source id>].
- Use only the IDs of the sources listed. Never invent an ID, never cite a page number, a title \
or a number like [1] instead of an ID.
- When a claim rests on several sources, write one bracket per ID, one after the other: \
[<source id>][<other source id>].
- If the sources do not contain the answer, say "{NOT_IN_DOCUMENTS}" and do not guess.
- If the sources are related to the question but none answers it directly, begin with \
"{CLOSEST_PASSAGES}" and quote the closest passages, each followed by its ID.
- If the sources open with a computed figure, Footnote computed it exactly from the table cells \
listed under it: state it as given, citing each cell's ID, and never redo or change its arithmetic; \
if they say no figure was computed, do not compute one.
- Be brief and factual. Answer in the language of the question.
"""

TASK_PROMPT = """\
Sources:

{sources}
{sources_end}

{history}{question_header} {question}"""

HISTORY_TEMPLATE = """\
Earlier in this conversation (for context only; cite only the sources above):
{turns}

"""


def page_span(evidence: Evidence) -> str:
    """The printed page label, or a range when the evidence crosses a page break."""
    if evidence.page_end_index != evidence.page_index:
        return f"{evidence.page_label}-{evidence.page_end_label}"
    return evidence.page_label


def format_sources(evidence: Sequence[Evidence], computed: str = "") -> str:
    """Each piece of evidence under its `Source ID [<id>]:` header line; a computed figure's block
    (rag.compute.present) first, listing its cells, which are not repeated as sources."""
    blocks = [computed] if computed else []
    for item in evidence:
        if item.cell is not None:
            continue
        title = " ".join((item.title or item.file_name).split())
        header = SOURCE_HEADER.format(short_id=item.short_id, title=title, pages=page_span(item))
        context = " ".join(item.context.split())
        if context:
            header += f"\n{CONTEXT_PREFIX}{context}"
        blocks.append(f"{header}\n{item.text.strip()}")
    return "\n\n".join(blocks)


def format_history(history: Sequence[Answer]) -> str:
    """The last few questions and answers, answers trimmed, or an empty string."""
    recent = list(history)[-HISTORY_TURNS:]
    if not recent:
        return ""
    lines = []
    for turn in recent:
        text = turn.text.strip()
        if len(text) > HISTORY_ANSWER_CHARS:
            text = text[:HISTORY_ANSWER_CHARS].rstrip() + " ..."
        lines.append(f"User: {turn.question.strip()}\nAssistant: {text}")
    return HISTORY_TEMPLATE.format(turns="\n".join(lines))


def build_messages(
    question: str, evidence: Sequence[Evidence], history: Sequence[Answer] = (), computed: str = ""
) -> list[BaseMessage]:
    """The system and task messages for one question (computed: the block of a figure computed
    from the evidence's cells, rag.compute.present, laid out before the sources)."""
    task = TASK_PROMPT.format(
        sources=format_sources(evidence, computed),
        sources_end=SOURCES_END,
        history=format_history(history),
        question_header=QUESTION_HEADER,
        question=" ".join(question.split()),
    )
    return [SystemMessage(content=SYSTEM_PROMPT), HumanMessage(content=task)]


# Opens an offline answer to a judgement question (rag.judgement.answer): the statement rows the
# concept is read from, each year the filing shows; the judgement is the reader's.
JUDGED_FROM = "The documents state no judgement of {concept}; the reader judges it from these rows:"
# Then the passages closest to the question, which say what the rows do not (what drove them).
JUDGED_DISCUSSED = "The closest passages on it are:"
