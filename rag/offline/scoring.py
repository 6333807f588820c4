"""How the offline answerer (rag.offline.extractive) scores what it could quote: each sentence and
table row of the evidence by the IDF-weighted share of the question's concepts it holds, its
neighbours' and heading's words, the embeddings' similarity, and bonuses for numbers, row labels
and a named statement. How the weights were measured: bench/README.md, "How the rules were found".
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rag.passages.rows import quote_row, value_for
from rag.passages.units import Unit, passage_units, recurring_lines
from rag.prompts import page_span
from rag.questions.asked import Concept
from rag.questions.read import Question
from rag.questions.request import statements_in
from rag.text import acronyms, stem, tokenize, words
from rag.types import Evidence

# Concepts found only in the sentence before, or in the source's context line, count this much.
NEIGHBOUR_WEIGHT = 0.3
# Concepts found only in a sentence's own section heading count this much (see lexical_scores): a
# heading says what the sentences under it are about as much as they do.
HEADING_WEIGHT = 1.0
# Share of a sentence's score that is its semantic similarity (when there are embeddings).
SEMANTIC_WEIGHT = 0.5
# Added to sentences and rows holding a number when the question asks for an amount: neither word
# overlap nor MiniLM similarity prefers them by themselves.
NUMBER_BONUS = 0.25
# Added to a table row by the share of its label's words the question holds (a tie-breaker
# between rows sharing the asked words: "Net income" against "Other income (expense), net").
LABEL_BONUS = 0.1
# Added to the lines of a source from a financial statement the question names ("based on the
# cash flow statement": its rows, not the MD&A's sentences about cash). Measured on filings-dev,
# checked on the generated filings (squad-dev names no statement: no effect there).
STATEMENT_BONUS = 0.25
STATEMENT_HEAD_CHARS = 200  # a source's opening text that may carry its statement's title


@dataclass(frozen=True)
class Source:
    """One piece of evidence as the offline answerer reads it (Source.of): its text, context line,
    document title and printed pages."""

    short_id: str
    text: str
    context: str = ""  # the section/table title and column headers (Evidence.context)
    title: str = ""  # the document's title, else its file name
    pages: str = ""  # its printed page label(s), "5" or "5-6"

    @classmethod
    def of(cls, evidence: Evidence) -> Source:
        """The evidence's text stripped, its context and title with each run of whitespace made one
        space (as a model's prompt shows them: rag.prompts.format_sources)."""
        return cls(
            evidence.short_id,
            evidence.text.strip(),
            " ".join(evidence.context.split()),
            " ".join((evidence.title or evidence.file_name).split()),
            page_span(evidence),
        )


@dataclass(frozen=True)
class Scored:
    """A candidate unit: its blended score (higher is better), word overlap and similarity (0..1)."""

    score: float
    source: str
    sentence: str
    lexical: float = 0.0
    semantic: float = 0.0
    unit: Unit | None = None


def credit(concept: Concept, terms: set[str]) -> float:
    """1 for a single word present; a spelled-out shorthand needs two of its words (or itself),
    a synonym phrase all of its words (rag.questions.asked.Concept)."""
    return concept.credit(terms)


def period_credit(unit: Unit, year: int, terms: set[str]) -> float:
    """Whether a unit holds the fiscal year: a row by its year's column, or, in a table whose
    columns name no year (a roll-forward: "2021 restructuring charges 120 32 95 247"), by its label."""
    if unit.row is not None:
        if not unit.columns:
            return float(str(year) in tokenize(unit.row.label))
        return float(value_for(unit.row, unit.columns, year) is not None)
    return float(str(year) in terms)


def lexical_scores(
    question: Question, units: Sequence[Unit], contexts: dict[str, str], titles: dict[str, str] | None = None
) -> list[float]:
    """Each unit's IDF-weighted share of the question's concepts and fiscal years it holds; those
    found only in the unit before or in the source's context line count NEIGHBOUR_WEIGHT. Words
    of the source's document title count as held by every unit of it: a question naming the
    document ("Acme's revenue") is answered by any of its lines."""
    asked = question.concepts
    if not asked.concepts and not asked.years:
        return [0.0] * len(units)
    bags = [set(tokenize(u.text)) | acronyms(u.text) for u in units]
    # A title that is a file name ("PEPSICO_2021_10K.pdf") names its words apart.
    title_bags = {sid: set(tokenize(re.sub(r"[_.]", " ", text))) for sid, text in (titles or {}).items()}
    own = [
        [max(credit(c, bag), credit(c, title_bags.get(u.source, set()))) for c in asked.concepts]
        + [period_credit(u, y, bag) for y in asked.years]
        for u, bag in zip(units, bags)
    ]
    df = Counter(i for credits in own for i, c in enumerate(credits) if c > 0)
    n, size = len(units), len(asked.concepts) + len(asked.years)
    idf = [math.log(1.0 + (n + 1) / (df[i] + 0.5)) for i in range(size)]
    total = sum(idf)
    context_bags = {sid: set(tokenize(text)) for sid, text in contexts.items()}
    out = []
    for j, (unit, credits) in enumerate(zip(units, own)):
        context = context_bags.get(unit.source, set())
        near = context | (bags[j - 1] if unit.index > 0 else set()) | set(tokenize(unit.title))
        nearby = [credit(c, near) for c in asked.concepts] + [float(str(y) in near) for y in asked.years]
        # A sentence's own heading (the one above it in the passage, else the source's section)
        # says what it is about: "Item 3. Legal Proceedings" over "We were named as a defendant".
        heading = (set(tokenize(unit.title)) if unit.title else context) if unit.row is None else set()
        headed = [credit(c, heading) for c in asked.concepts] + [0.0] * len(asked.years)
        score = sum(
            w * max(c, HEADING_WEIGHT * h, NEIGHBOUR_WEIGHT * b)
            for w, c, b, h in zip(idf, credits, nearby, headed)
        )
        out.append(score / total)
    return out


class RememberedEmbeddings:
    """Embeddings that embed each text once (the question, and a sentence scored again when the
    closest passages are chosen among more units): the same vectors, fewer model calls."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name = inner, getattr(inner, "name", "")
        self._query: dict[str, list[float]] = {}
        self._docs: dict[str, list[float]] = {}

    def embed_query(self, text: str) -> list[float]:
        """The inner embed_query, remembered."""
        if text not in self._query:
            self._query[text] = self.inner.embed_query(text)
        return self._query[text]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """The inner embed_documents for the texts not seen before, in one call."""
        new = [t for t in dict.fromkeys(texts) if t not in self._docs]
        if new:
            self._docs.update(zip(new, self.inner.embed_documents(new)))
        return [self._docs[t] for t in texts]


def semantic_scores(text: str, sentences: Sequence[str], embeddings: Any) -> list[float]:
    """Cosine similarity (clamped to 0..1) of text (the question's) with each sentence, in one batch."""
    if embeddings is None or not sentences:
        return [0.0] * len(sentences)
    query = np.asarray(embeddings.embed_query(text), dtype=np.float64)
    matrix = np.asarray(embeddings.embed_documents(list(sentences)), dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1) * (np.linalg.norm(query) or 1.0)
    sims = matrix @ query / np.where(norms > 0, norms, 1.0)
    return np.clip(sims, 0.0, 1.0).tolist()


def score_sentences(
    question: Question,
    sources: Sequence[Source],
    embeddings: Any = None,
    semantic_weight: float = 0.0,
    floor: float = 0.0,
    number_bonus: float = 0.0,
) -> list[Scored]:
    """Every sentence and row, best first, by its lexical score blended with its semantic
    similarity to the question (semantic_weight of it). Only units with a lexical score of at
    least floor are embedded (the others could not be quoted anyway); lexical alone without
    embeddings. A source from a financial statement the question names gets STATEMENT_BONUS."""
    skip = recurring_lines([(src.text, src.pages) for src in sources])
    units = [u for src in sources for u in passage_units(src.short_id, src.text, src.context, skip)]
    asked, statements = question.concepts, question.statements
    if not units or not (asked.concepts or asked.years):
        return []
    lexical = lexical_scores(
        question, units, {s.short_id: s.context for s in sources}, {s.short_id: s.title for s in sources}
    )
    weight = semantic_weight if embeddings is not None else 0.0
    picked = [j for j, lex in enumerate(lexical) if lex >= floor and lex > 0] if weight else []
    semantic = [0.0] * len(units)
    about = without_title_words(question, [s.title for s in sources])
    for j, sim in zip(picked, semantic_scores(about, [units[j].text for j in picked], embeddings)):
        semantic[j] = sim
    bonus = number_bonus if asked.amount else 0.0
    terms = question.words
    named = {s.short_id for s in sources if statements and set(statements) & set(statements_of(s))}
    out = [
        Scored(
            (1 - weight) * lex
            + weight * sem
            + bonus * any(ch.isdigit() for ch in u.text)
            + LABEL_BONUS * label_share(u, terms)
            + STATEMENT_BONUS * (u.source in named),
            u.source,
            quote(u, question),
            lex,
            sem,
            u,
        )
        for u, lex, sem in zip(units, lexical, semantic)
    ]
    return sorted(out, key=lambda s: -s.score)


def statements_of(source: Source) -> tuple[str, ...]:
    """The financial statements a source is part of, by its context line or its opening lines."""
    return statements_in(f"{source.context} {source.text[:STATEMENT_HEAD_CHARS]}")


def without_title_words(question: Question, titles: Sequence[str]) -> str:
    """The question's core without the words of the sources' document titles, when two content
    words remain: the lexical score already credits those words to every line of the document,
    and in the embedding they make the lines that repeat the name (signatures, a cover, an
    exhibit list) look like answers."""
    held = {t for title in titles for t in tokenize(title)}
    kept = [w for w in re.findall(r"[\w&'-]+", question.core) if not set(tokenize(w)) & held]
    return " ".join(kept) if len(tokenize(" ".join(kept))) >= 2 else question.core


def label_share(unit: Unit, terms: frozenset[str]) -> float:
    """For a row, the share of its label's words (stopwords too: "Other") the question holds
    ("Net income" 1, "Other income, net" 2/3), so the row the question names beats its neighbours."""
    label = {stem(w) for w in words(unit.row.label)} if unit.row is not None else set()
    return len(label & terms) / len(label) if label else 0.0


def quote(unit: Unit, question: Question) -> str:
    """A row as quoted for the question's years (rag.passages.rows), a sentence as it is."""
    return quote_row(unit.row, unit.columns, question.concepts.years) if unit.row is not None else unit.text


def holds_numbers(unit: Unit, question: Question) -> bool:
    """Whether a unit holds every number and every fiscal year (column) the question names."""
    bag, asked = set(tokenize(unit.text)), question.concepts
    return asked.numbers <= bag and all(period_credit(unit, y, bag) for y in asked.years)
