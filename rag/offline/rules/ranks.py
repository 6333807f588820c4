"""The rules on ranks and relations: a quote that holds the question's words only below the first
place ("the second busiest port" for "the busiest port"), or only with the opposite relation
("Subsequent to the Conquest" for "before the conquest", "revenue increased" for "revenue
decrease"). The word lists are English grammar (ranks, relation words), no data set's words."""

from __future__ import annotations

from rag.offline.rules.quote import Quote
from rag.offline.rules.words import ARTICLES, content, fold_words, places
from rag.questions.read import Question
from rag.questions.terms import DEGREE, QUALIFIERS
from rag.text import stem

__all__ = ["OPPOSITES", "OPPOSITE_SPAN", "RANKS", "opposite", "outranked"]

# Words that put something below the first ("the second busiest", "one of the largest").
RANKS = frozenset("second third fourth fifth sixth seventh eighth ninth tenth".split())


def _ranked(found: list[str], at: int, one_of: bool) -> bool:
    """Whether the quote's word at position at comes just after a rank (articles skipped), or
    after "one of" when one_of."""
    before = [w for w in found[max(0, at - 4) : at] if w not in ARTICLES]
    return bool(before) and (before[-1] in RANKS or (one_of and before[-2:] == ["one", "of"]))


def _one_of_many(own: list[str], said: list[str]) -> bool:
    """Whether the quote's words (said) go on as the question's (own) until a noun the question
    has in the singular and the quote in the plural ("food company" / "food companies")."""
    for one, many in zip(own, said):
        if one != many:
            return many in (one + "s", one + "es", one[:-1] + "ies")
    return False


def outranked(question: Question, quote: Quote) -> str:
    """Two words of the question side by side ("busiest container"), or a superlative of it
    ("largest"), that the quote holds only just after a rank the question does not give ("the
    second busiest container port", "one of the largest"), else "": the quote speaks of another
    place in the ranking."""
    own = fold_words(question.asked.text)
    if any(w in RANKS for w in own):
        return ""
    one_of_ranks = "one of" not in " ".join(own)  # a question asking for "one of" them is exempt
    found = fold_words(quote.text)  # words as written: "busiest airports" is not "busiest airport"
    for i in range(len(own) - 1):
        if not (content(own[i]) or own[i] in DEGREE) or not content(own[i + 1]):
            continue
        spots = places(found, own[i : i + 2])
        # "one of the hardest problems" is one of what "the hardest problems" asks for, not what
        # "the largest food company" asks for ("one of the largest food companies")
        if spots and all(
            _ranked(found, j, one_of=False)
            or (one_of_ranks and _ranked(found, j, True) and _one_of_many(own[i:], found[j:]))
            for j in spots
        ):
            return " ".join(own[i : i + 2])
    for i, word in enumerate(own):
        if word in QUALIFIERS or word in DEGREE:
            if places(found, own[i : i + 2]):
                continue  # judged with its next word above
            spots = places(found, [word])
            if spots and all(_ranked(found, j, one_of_ranks) for j in spots):
                return word
    return ""


# Relation words and their opposites: time (before / after), amount (more / less), direction
# (north / south), change (increase / decrease).
_PAIRS = (
    ("before prior", "after following subsequent"),
    ("earlier", "later"),
    ("more greater", "less fewer"),
    ("higher", "lower"),
    ("above", "below"),
    ("north", "south"),
    ("east", "west"),
    ("increase", "decrease"),
)
# A change word relates to the thing before it ("revenue increased"), the others to the thing after
# them ("before the conquest", "more than").
_CHANGES = frozenset(stem(w) for w in ("increase", "decrease"))
OPPOSITE_SPAN = 3  # words between the relation word and its thing in the quote, at most


def _opposites() -> dict[str, frozenset[str]]:
    out: dict[str, frozenset[str]] = {}
    for one, other in _PAIRS:
        ones, others = frozenset(map(stem, one.split())), frozenset(map(stem, other.split()))
        for word in ones:
            out[word] = out.get(word, frozenset()) | others
        for word in others:
            out[word] = out.get(word, frozenset()) | ones
    return out


OPPOSITES = _opposites()


def _near(found: list[str], relations: frozenset[str], thing: str, thing_first: bool) -> bool:
    """Whether the quote's words hold one of the relations with the thing within OPPOSITE_SPAN
    words (before it for a change word, after it for the others)."""
    for j, word in enumerate(found):
        if word in relations:
            span = (
                found[max(0, j - OPPOSITE_SPAN) : j] if thing_first else found[j + 1 : j + 1 + OPPOSITE_SPAN]
            )
            if thing in span:
                return True
    return False


def opposite(question: Question, quote: Quote) -> str:
    """A relation word of the question with the thing it relates to ("before the conquest", "more
    than", "revenue increase"), which the quote holds only with the opposite relation ("Subsequent
    to the Conquest", "less than", "revenue decreased"), else "": the quote says the other thing."""
    own = [w for w in fold_words(question.asked.text) if w not in ARTICLES]
    stems = [stem(w) for w in own]
    found = [stem(w) for w in fold_words(quote.text) if w not in ARTICLES]
    for i, word in enumerate(stems):
        if word not in OPPOSITES:
            continue
        thing_first = word in _CHANGES
        if thing_first:  # the content word before it
            at = next((j for j in range(i - 1, -1, -1) if content(own[j])), -1)
        else:  # the word after it
            at = i + 1 if i + 1 < len(own) else -1
        if at < 0:
            continue
        if _near(found, OPPOSITES[word], stems[at], thing_first) and not _near(
            found, frozenset({word}), stems[at], thing_first
        ):
            return f"{own[min(i, at)]} {own[max(i, at)]}"
    return ""
