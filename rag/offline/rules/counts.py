"""The rule on numbers: a quote that counts the question's thing with another number ("one of the
11 megaregions" for "the 10 megaregions"). The word lists are English grammar (number and scale
words)."""

from __future__ import annotations

import re

from rag.offline.rules.quote import Quote
from rag.offline.rules.words import ARTICLES, WORD_OR_NUMBER, content, without_accents
from rag.questions.read import Question
from rag.questions.terms import DIGITS
from rag.text import STOPWORDS, stem

__all__ = ["recounted"]

# Scale words that multiply the number before them ("22 million people").
_SCALES = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
# Words that join two numbers counting the same thing ("8- and 10-county", "5 to 7 days").
_JOINS = frozenset("and or to".split())
_YEAR = re.compile(r"^(1[0-9]|20)\d\d$")  # 1000 to 2099: history's years too ("in 1066")


def _number(token: str) -> float | None:
    """A token's value: digits (thousands commas dropped), a number word ("eight"), or "one"."""
    if token[0].isdigit():
        try:
            return float(token.replace(",", ""))
        except ValueError:  # "1.2.3"
            return None
    if token == "one":
        return 1.0
    return float(DIGITS[token]) if token in DIGITS else None


def _counts(text: str) -> list[tuple[float, str, bool]]:
    """(number, stem of the word it counts, whether it is a whole that a part is taken of) for each
    number of the text that is no year: the next word that is neither a stopword nor a number ("11
    megaregions", "65 banners"), after a scale word ("22 million people", multiplied); numbers
    joined by "and", "or" or "to" count the same word ("8- and 10-county"); in "six of the seven
    lines" six counts the lines, and seven too, as the whole (so does a number just after "of the":
    "how many of the seven lines"). "one" counts only the word just after it ("one line", not "one
    of")."""
    tokens = WORD_OR_NUMBER.findall(without_accents(text).lower())
    out: list[tuple[float, str, bool]] = []
    waiting: list[float] = []  # numbers joined to the next one
    part: list[float] = []  # "six" of "six of the seven lines"
    for i, token in enumerate(tokens):
        value = _number(token)
        if value is None or _YEAR.match(token):
            continue
        whole = bool(part) or [w for w in tokens[max(0, i - 2) : i] if w not in ARTICLES][-1:] == ["of"]
        j = i + 1
        while j < len(tokens) and tokens[j] in _SCALES:
            value *= _SCALES[tokens[j]]
            j += 1
        if j + 1 < len(tokens) and tokens[j] in _JOINS and _number(tokens[j + 1]) is not None:
            waiting.append(value)
            continue
        if token == "one" and (j >= len(tokens) or not content(tokens[j])):
            waiting, part = [], []
            continue
        between = j
        while j < len(tokens) and tokens[j] in STOPWORDS:
            j += 1
        if j < len(tokens) and _number(tokens[j]) is None:
            out += [(v, stem(tokens[j]), False) for v in part]
            out += [(v, stem(tokens[j]), whole) for v in [*waiting, value]]
            part = []
        elif j < len(tokens) and [w for w in tokens[between:j] if w not in ARTICLES] == ["of"]:
            part = [*waiting, value]
        waiting = []
    return out


def recounted(question: Question, quote: Quote) -> str:
    """A number of the question and the word it counts ("10 megaregions") that the quote gives only
    with other numbers ("11 megaregions"; "Six of the seven lines" for "seven lines"), else "": the
    quote counts something else. A whole the question takes a part of ("two of the three major
    cities", "how many of the seven lines") is read against the quote's wholes too."""
    said = _counts(quote.text)
    for value, thing, whole in _counts(question.asked.text):
        others = {v for v, t, w in said if t == thing and (whole or not w)}
        if others and value not in others:
            return f"{value:g} {thing} / {', '.join(f'{v:g}' for v in sorted(others))}"
    return ""
