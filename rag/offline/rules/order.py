"""The word-order rules: a quote that holds the question's words but, by their order, says
something else of them: the question's words narrowed by words the quote lacks, or its qualifier
moved to other words. Each reads the question proper (asked.text) and the quote, words lowercased
and stemmed, and returns what it found ("" for nothing)."""

from __future__ import annotations

from itertools import pairwise

from rag.offline.rules.quote import Quote
from rag.offline.rules.words import content, fold_words
from rag.questions.read import Question
from rag.text import stem

__all__ = ["INSERTED_SPAN", "inserted", "moved"]

# How many words the question may put between two words the quote holds side by side.
INSERTED_SPAN = 2


def inserted(question: Question, quote: Quote) -> str:
    """The one or two words the question puts between two words the quote holds side by side,
    when neither the quote nor its context holds them, else "" ("busiest single runway airport" /
    "busiest airport"): the question asks about something narrower."""
    said = [stem(w) for w in fold_words(quote.text)]
    held = set(said) | {stem(w) for w in fold_words(quote.context)}
    pairs = set(pairwise(said))
    own = fold_words(question.asked.text)
    stems = [stem(w) for w in own]
    for i in range(len(own)):
        for k in range(1, INSERTED_SPAN + 1):
            end = i + k + 1
            if end >= len(own):
                break
            between = own[i + 1 : end]
            if (
                content(own[i])
                and content(own[end])
                and all(content(w) and stem(w) not in held for w in between)
                and (stems[i], stems[end]) in pairs
            ):
                return " ".join(between)
    return ""


def moved(question: Question, quote: Quote) -> str:
    """A qualifier of the question ("second", "largest") and its two next words, which the quote
    holds only without it just before them, else "" ("second-busiest commercial port" / "the
    busiest commercial port ... the second busiest container port")."""
    qualifiers = question.asked.qualifiers
    own = fold_words(question.asked.text)
    stems = [stem(w) for w in own]
    found = fold_words(quote.text)
    said = [stem(w) for w in found]
    for i, word in enumerate(own):
        if word not in qualifiers or i + 2 >= len(own) or not any(map(content, own[i + 1 : i + 3])):
            continue
        after = stems[i + 1 : i + 3]
        spots = [j for j in range(len(said) - 1) if said[j : j + 2] == after]
        if spots and not any(word in found[max(0, j - 2) : j] for j in spots):
            return f"{word} {' '.join(own[i + 1 : i + 3])}"
    return ""
