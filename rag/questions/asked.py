"""A question's concepts (content words, with analysts' shorthand spelled out as alternatives),
the fiscal years it names, the other numbers it names, and whether it asks for an amount: one part
of the question read once (rag.questions.read), which the offline answerer scores with."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from rag.questions.periods import PERIOD_CODE, Periods, carried, read_periods, without
from rag.questions.shorthand import SHORTHAND, synonym_groups
from rag.text import tokenize, words

# Questions whose answer is an amount, a count or a duration; a question naming a fiscal period
# asks for that period's figure too.
_QUANTITY = re.compile(
    r"\b(how (much|many|long|old|far|often|large|big)|amount|total|number of|pay|pays|"
    r"paid|cost|costs|price|percent|percentage|rate)\b",
    re.IGNORECASE,
)
# "Has the company reported any material legal proceedings?": in a yes/no question the verb of
# telling (reported, disclosed, mentioned) asks whether the document says something; it is not
# a word of the answer ("This Annual Report ... legal matters" is no answer to it).
_FRAMING = re.compile(
    r"^\s*(?:has|have|had|did|does|do)\b.*?\b(reported|disclosed|mentioned)\b", re.IGNORECASE
)
YES_NO = re.compile(r"^\s*(?:has|have|had|did|does|do|is|are|was|were|can|could|will|would|should)\b", re.I)
_SHORTHAND_TOKEN = re.compile(r"(?<![\w&-])[A-Za-z0-9][\w&-]*(?![\w&])")
_PERIOD_WORD = re.compile(rf"^(?:{PERIOD_CODE}|fy|fiscal|year|end|ended|ending)$")


def without_framing(text: str) -> str:
    """The question's text without its verb of telling (see _FRAMING), for retrieval: "Has the
    company reported any material legal proceedings?" searches for "material legal proceedings"."""
    framing = _FRAMING.match(text)
    if not framing:
        return text
    return text[: framing.start(1)] + text[framing.end(1) :]


@dataclass(frozen=True)
class Concept:
    """One thing the question asks about, in its alternative wordings: each option is a set of
    stems and how many of them a text must hold for full credit (a word: 1; a shorthand's
    spelled-out words: any two, or the abbreviation; a synonym phrase: all of its words)."""

    options: tuple[tuple[frozenset[str], int], ...]

    @classmethod
    def word(cls, term: str) -> Concept:
        """A single content word."""
        return cls(((frozenset([term]), 1),))

    def credit(self, terms: set[str] | frozenset[str]) -> float:
        """0..1: the best option's share of what it needs."""
        return max((min(1.0, len(s & terms) / need) for s, need in self.options if s), default=0.0)

    def __iter__(self) -> Iterator[str]:
        """Every stem of every option."""
        return iter(frozenset().union(*(stems for stems, _ in self.options)))


@dataclass(frozen=True)
class Concepts:
    """What a question is about, for scoring: concepts (alternative terms each), fiscal years, numbers."""

    concepts: tuple[Concept, ...]
    years: tuple[int, ...]
    numbers: frozenset[str]
    amount: bool


def read_concepts(text: str, periods: Periods | None = None) -> Concepts:
    """The concepts of a question's text (or of a line item's): each SYNONYMS group it names
    (spelled out or through a shorthand) with its phrases as alternatives, each other shorthand
    term with its spelled-out words, each other content word alone; its fiscal years; the other
    numbers it names. periods: text's periods when already read (the question's, carried)."""
    concepts: list[Concept] = []
    taken: set[str] = set()
    spelled = []
    for match in _SHORTHAND_TOKEN.finditer(text):
        key = match.group(0).lower()
        if key in SHORTHAND:
            spelled.append((key, SHORTHAND[key]))
            taken.update(tokenize(key))
    groups = synonym_groups(" ".join([text, *(s for _, s in spelled)]))
    for group in groups:
        phrases = [frozenset(tokenize(p)) for p in group]
        keys = [k for k, s in spelled if s in group]
        concepts.append(
            Concept(tuple((p, len(p)) for p in phrases) + tuple((frozenset(tokenize(k)), 1) for k in keys))
        )
        taken.update(t for p in phrases for t in p)
    for key, words_out in spelled:
        if not any(words_out in g for g in groups):
            bag = frozenset(tokenize(words_out))
            concepts.append(Concept(((bag, min(2, len(bag))), (frozenset(tokenize(key)), 1))))
    # "the fiscal year ended December 31, 2022": the year is the period asked for, the day is no figure.
    read = periods if periods is not None else read_periods(text)
    days = read.dated()
    undated = without(text, days)
    read, text = carried(read, text, undated), undated
    years = tuple(dict.fromkeys([p.year for p in read.fiscal] + [m.period.year for m in days]))
    if years:
        taken.update(t for w in words(text) if _PERIOD_WORD.match(w) for t in tokenize(w))
        taken.update(str(y) for y in years)
        taken.update(str(y)[2:] for y in years)
    framing = _FRAMING.match(text)
    if framing:
        taken.update(tokenize(framing.group(1)))
    plain = [t for t in dict.fromkeys(tokenize(text)) if t not in taken]
    concepts += [Concept.word(t) for t in plain]
    numbers = frozenset(t for t in plain if any(ch.isdigit() for ch in t))
    # A question naming a period asks for that period's figure, unless it asks yes or no ("Has
    # the company paid dividends in FY2022?": its answer is a sentence, not a number).
    amount = bool(_QUANTITY.search(text) or (years and not YES_NO.match(text)))
    return Concepts(tuple(concepts), years, numbers, amount)
