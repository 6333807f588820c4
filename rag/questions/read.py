"""A question read once: ``read_question`` turns a question's text into one frozen ``Question``,
and every stage after the edge takes that value, never the text.

The answer stream (rag.answering.answer.answer_stream), the LangChain retriever and the bench call
it where a question comes in; retrieval, the page stage, the offline answerer's scoring, its check
and the computed rows read the parts they need from the value. The parts come from the readers
beside this module: the asking sentences apart from the instructions, the statements a question
names, the formulas it writes and their inputs (request, with formula's reader), analysts' shorthand and fiscal periods
(shorthand), its concepts (asked), what it asks for (terms), the figure it asks to be computed
(figure) and the section of the document it names (section).

Retrieval reads a few parts from texts of its own (the core without a yes/no question's verb of
telling, that with its shorthand spelled out, the question after the one before it for a short
follow-up): ``Search`` holds them, read here with the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rag.compute.question import Figure, read_figure
from rag.judgement.question import Judgement, read_judgement
from rag.questions.asked import Concept, Concepts, read_concepts, without_framing
from rag.questions.periods import Periods, carried, read_periods
from rag.questions.request import Request, read_request
from rag.questions.shorthand import expand_question
from rag.questions.terms import Asked, names_in, read_asked, written_names
from rag.sections.question import Section, read_section
from rag.text import stem, tokenize, words

SHORT_FOLLOW_UP = 3  # content words; a shorter question is searched for after the one before it


@dataclass(frozen=True)
class Input:
    """A line item of the metric a question defines or writes out ("total current liabilities")."""

    text: str
    concepts: tuple[Concept, ...]  # a row's label holds the item when it holds every one
    terms: frozenset[str]  # its content words, stemmed
    search: str  # what to search for it by: its text, shorthand and periods spelled out


@dataclass(frozen=True)
class Naming:
    """Words of the question that may name documents (rag.retrieval.documents): the text, the
    names it writes (rag.questions.terms) and the words the whole question (instructions too)
    writes as names are written, as written ("AmWater", "J&J")."""

    text: str
    names: tuple[str, ...]
    written: tuple[str, ...] = ()


@dataclass(frozen=True)
class Search:
    """What retrieval looks for."""

    text: str  # the text searched: the question, after the one before it for a short follow-up
    words: str  # the core (Question.core) without a yes/no question's verb of telling, shorthand spelled out
    naming: Naming  # the same with its fiscal periods spelled out: what picks documents
    unframed: Naming  # the core without the verb of telling: what names a document in a small library
    names: tuple[str, ...]  # the names of the core: a candidate holding one is related
    terms: frozenset[str]  # the content words of text: how much of them a candidate holds
    statements: tuple[str, ...]  # the financial statements it names: their pages first
    inputs: tuple[
        Input, ...
    ]  # the line items of a metric it defines, and its figure's operands: their rows first


@dataclass(frozen=True)
class Question:
    """A question read once (read_question): the question proper and what surrounds it, what it
    names, what it is about and what it asks for."""

    text: str  # as asked
    core: str  # the asking sentences, without instructions and statement names (rag.questions.request)
    instructions: tuple[str, ...]  # the sentences and clauses set aside: how to answer, where to look
    statements: tuple[str, ...]  # the financial statements it names (request.STATEMENTS kinds), in order
    inputs: tuple[Input, ...]  # the line items of a metric it defines or writes out, in order
    # every period it names, instructions too, and the form of filing (rag.questions.periods): the
    # fiscal periods it is about (periods.fiscal), those a filing is picked by (periods.asked)
    periods: Periods
    concepts: Concepts  # of the core: concepts with shorthand spelled out, years, numbers, amount
    asked: Asked  # of the question proper: what it asks for, names, numbers, qualifiers, negation
    words: frozenset[str]  # stems of every word of the core with shorthand spelled out (stopwords too)
    search: Search  # what retrieval looks for
    judgement: Judgement | None = None  # the concept it asks to judge and the rows read for it, if any
    figure: Figure | None = None  # the figure it asks to be computed (rag.compute.question), if any
    # the section of the document it names and what it asks of it (rag.sections.question), if any
    section: Section | None = None


def read_question(text: str, previous: str | None = None) -> Question:
    """The question read (see the module docstring). previous: the question asked before it in the
    conversation, if any; a follow-up of fewer than SHORT_FOLLOW_UP content words ("and in
    1066?") is searched for after it."""
    # The one reading of the question's periods: each part read below takes them carried to it.
    periods = read_periods(text)
    request = read_request(text)
    core = carried(periods, text, request.core)
    inputs = _inputs(request.inputs, text, periods)
    asked = read_asked(request.core, core)
    figure = read_figure(text, request.core, periods, request.written)
    named = periods  # the periods it names, or a short follow-up's before it
    if previous is not None and len(tokenize(text)) < SHORT_FOLLOW_UP:
        searched = f"{previous} {text}"  # a follow-up is read with the question before it
        both = read_periods(searched)
        found = read_request(searched)
        search = _search(searched, both, found, _inputs(found.inputs, searched, both), names_in(found.core))
        if not periods.asked:  # "and the year before?" asks about the periods asked before
            named = both
    else:
        search = _search(text, periods, request, inputs, asked.names)
    if figure is not None:  # the rows of the figure's operands are searched for too
        known = {i.text.lower() for i in search.inputs}
        more = [o.name for o in figure.operands if o.name.lower() not in known]
        search = replace(search, inputs=search.inputs + _inputs(list(dict.fromkeys(more)), text, periods))
    return Question(
        text=text,
        core=request.core,
        instructions=request.instructions,
        statements=request.statements,
        inputs=inputs,
        periods=named,
        concepts=read_concepts(request.core, core),
        asked=asked,
        words=frozenset(stem(w) for w in words(expand_question(request.core, read=core))),
        search=search,
        judgement=read_judgement(request.core, bool(request.inputs)),
        figure=figure,
        section=read_section(text),
    )


def _inputs(items: Sequence[str], text: str, periods: Periods) -> tuple[Input, ...]:
    """Each line item read as an Input, with the periods of the question (text) it carries."""
    found = []
    for item in items:
        held = carried(periods, text, item)
        found.append(
            Input(
                item,
                read_concepts(item, held).concepts,
                frozenset(tokenize(item)),
                expand_question(item, read=held),
            )
        )
    return tuple(found)


def _search(
    text: str, periods: Periods, request: Request, inputs: tuple[Input, ...], names: tuple[str, ...]
) -> Search:
    unframed = without_framing(request.core)
    naming = expand_question(unframed, read=carried(periods, text, unframed))
    return Search(
        text=text,
        words=expand_question(unframed, periods=False),
        naming=Naming(naming, names_in(naming), written_names(text)),
        unframed=Naming(unframed, names_in(unframed)),
        names=names,
        terms=frozenset(tokenize(text)),
        statements=request.statements,
        inputs=inputs,
    )
