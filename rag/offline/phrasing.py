"""The answer check's word-order rules (rag.offline.check): a quote that holds the question's
words but says something else of them. Each reads the question proper (the read question's
asked.text, rag.questions.read) and the quote, words lowercased and stemmed, and returns what it
found ("" for nothing):

- swapped: a word of the question missing from the quote and its context while the quote holds
  the words on both sides of it (articles skipped; the end of the sentence counts as a word)
  around another word ("squaring" for "dividing", "random bits." for "random ribbons?");
- denied: a question that is neither negated nor yes/no, and a quote that negates two of its
  words in its order ("What algorithm is always practical?" / "... is not always practical");
- inserted: the question puts one or two words between two words the quote holds side by side,
  and neither the quote nor its context holds them ("busiest single runway airport" / "busiest
  airport"): the question asks about something narrower;
- moved: a qualifier of the question ("second", "largest") whose two next words the quote holds,
  never with the qualifier just before them ("second-busiest commercial port" / "the busiest
  commercial port ... the second busiest container port"): the quote singles out another thing;
- outranked: two words of the question side by side, or a superlative of it, that the quote
  holds only just after a rank the question does not give ("What is the busiest container port?"
  / "... the second busiest container port"; "the largest economy" / "one of the largest"): the
  quote speaks of another place in the ranking;
- opposite: a relation word of the question and the word it relates to ("before the conquest",
  "more than", and for a change word the word before it: "revenue decrease") that the quote holds
  only with the opposite relation ("Subsequent to the Conquest", "less than", "revenue
  increased"): the quote says the other thing of it;
- recounted: a number of the question with the word it counts ("the 10 megaregions") that the
  quote gives to the same word only with another number ("one of the 11 megaregions", "65
  banners in 28 countries" for "28 banners"): the quote counts something else;
- elsewhere: the directions of the question written in lower case ("to the south", "western"),
  none of which the quote or its context holds ("To the east is the Colorado Desert"; a heading's
  "Southern California" is a name): the quote speaks of another place;
- echoed: a quote that says nothing the question does not, every word and number of it the
  question's ("Las Vegas Strip Resorts." for "Which resort is at the west end of the Las Vegas
  strip?"); yes/no questions aside, which a statement of their own words answers;
- renamed: a name of the question that the quote does not hold, while it holds the preposition
  before it in the question just before another capitalised word, not of the question's names ("Who
  identified themselves as French?" / "... identified themselves as English"; "What fell to the
  Normans?" / "... fell again to Byzantine hands"): the quote says it of someone else;
- only dated: a question that names a date or period ("in the 11th century", "in 1191") and a
  quote that holds none of its other words but its names ("Who did the Normans besiege in the
  11th century?" / "Normandy was the site of ... classical music in the 11th century"): the quote
  meets the question on when, not on what;
- compared: a year of the question that the quote holds only as what it compares another year of
  its own with ("What was the casino revenue in 2016?" / "Net revenues for 2017 increased 14%
  compared to 2016"): the quote speaks of the other year;
- reversed: a name of the question that the quote holds only on the other side of the question's
  verb ("Who did Edgar marry?" / "Malcolm married Edgar's sister"; "Who replaced the Normans?" /
  "The Normans replaced the Saxons"), a form of "be" just before the quote's verb swapping the
  sides (passive). The verb is read from word order alone: the word after "Who did X", or the
  first or second word of "Who VERB the X" / "What NOUN VERB the X" when an article, a possessive
  or the name follows it.

What each caught and cost is in rag.offline.check's docstring. The word lists are English grammar
(negations, articles, auxiliaries, forms of "be", possessives, number and compass words), no
data set's words.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import pairwise

from rag.questions.read import Question
from rag.questions.terms import DATE, DEGREE, DIGITS, NEGATIONS, QUALIFIERS
from rag.text import STOPWORDS, stem

__all__ = [
    "compared",
    "content",
    "denied",
    "echoed",
    "elsewhere",
    "fold_words",
    "inserted",
    "moved",
    "only_dated",
    "opposite",
    "outranked",
    "recounted",
    "renamed",
    "reversed_roles",
    "swapped",
]

ARTICLES = frozenset("a an the".split())
# The end of the question and of the quote, a neighbour like any word ("random ribbons?" / "random bits.").
END = "\x00"
# How many words the question may put between two words the quote holds side by side.
INSERTED_SPAN = 2


def _without_accents(text: str) -> str:
    """The text with its accents dropped ("Hervé" as "Herve")."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def fold_words(text: str) -> list[str]:
    """Words, lowercased, accents dropped ("Hervé" as "herve"), split at underscores too (file
    names: "JOHNSON_JOHNSON_2023Q2")."""
    folded = _without_accents(text)
    return [w for w in re.split(r"[\W_]+", folded.lower()) if w]


def content(word: str) -> bool:
    """A word that says what is spoken of: no stopword, no number, three letters or more."""
    return len(word) > 2 and word not in STOPWORDS and not word.isdigit()


def swapped(question: Question, quote: str, context: str) -> str:
    """The first question word the quote swaps for another, as "asked -> quoted", else "".
    Articles are skipped: "a decrease in" / "an increase in" swaps, and "the problem of" holds
    no slot that "a class of" fills."""
    found = [w for w in fold_words(quote) if w not in ARTICLES]
    said = [stem(w) for w in found]
    held = set(said) | {stem(w) for w in fold_words(context)}
    own = [w for w in fold_words(question.asked.text) if w not in ARTICLES] + [END]
    found.append(END)
    said.append(END)
    stems = [stem(w) for w in own]
    for i in range(1, len(own) - 1):
        if not content(own[i]) or stems[i] in held:
            continue
        for j in range(1, len(found) - 1):
            if (said[j - 1], said[j + 1]) == (stems[i - 1], stems[i + 1]) and (
                content(found[j]) and said[j] not in stems
            ):
                return f"{own[i]} -> {found[j]}"
    return ""


def denied(question: Question, quote: str) -> str:
    """The negation and the two question words after it (articles skipped), else "". The caller
    skips negated and yes/no questions ("Is X always practical?" is answered by "not always")."""
    own = [stem(w) for w in fold_words(question.asked.text) if w not in ARTICLES]
    pairs = set(pairwise(own))
    found = fold_words(quote)
    for i, word in enumerate(found):
        if word in NEGATIONS or (word == "t" and i > 0 and found[i - 1].endswith("n")):  # "isn't"
            after = [w for w in found[i + 1 : i + 4] if w not in ARTICLES][:2]
            if len(after) == 2 and any(map(content, after)) and (stem(after[0]), stem(after[1])) in pairs:
                return f"{word} {' '.join(after)}"
    return ""


def inserted(question: Question, quote: str, context: str) -> str:
    """The question's words between two the quote holds side by side, missing around it, else ""."""
    said = [stem(w) for w in fold_words(quote)]
    held = set(said) | {stem(w) for w in fold_words(context)}
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


def moved(question: Question, quote: str) -> str:
    """The qualifier and its two next words, which the quote holds only without it, else ""."""
    qualifiers = question.asked.qualifiers
    own = fold_words(question.asked.text)
    stems = [stem(w) for w in own]
    found = fold_words(quote)
    said = [stem(w) for w in found]
    for i, word in enumerate(own):
        if word not in qualifiers or i + 2 >= len(own) or not any(map(content, own[i + 1 : i + 3])):
            continue
        after = stems[i + 1 : i + 3]
        places = [j for j in range(len(said) - 1) if said[j : j + 2] == after]
        if places and not any(word in found[max(0, j - 2) : j] for j in places):
            return f"{word} {' '.join(own[i + 1 : i + 3])}"
    return ""


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


def outranked(question: Question, quote: str) -> str:
    """Two words of the question side by side ("busiest container"), or a superlative of it
    ("largest"), that the quote holds only just after a rank the question does not give ("the
    second busiest container port", "one of the largest"), else "": the quote speaks of another
    place in the ranking."""
    own = fold_words(question.asked.text)
    if any(w in RANKS for w in own):
        return ""
    one_of_ranks = "one of" not in " ".join(own)  # a question asking for "one of" them is exempt
    found = fold_words(quote)  # words as written: "busiest airports" is not "busiest airport"
    for i in range(len(own) - 1):
        if not (content(own[i]) or own[i] in DEGREE) or not content(own[i + 1]):
            continue
        places = _places(found, own[i : i + 2])
        # "one of the hardest problems" is one of what "the hardest problems" asks for, not what
        # "the largest food company" asks for ("one of the largest food companies")
        if places and all(
            _ranked(found, j, one_of=False)
            or (one_of_ranks and _ranked(found, j, True) and _one_of_many(own[i:], found[j:]))
            for j in places
        ):
            return " ".join(own[i : i + 2])
    for i, word in enumerate(own):
        if word in QUALIFIERS or word in DEGREE:
            if _places(found, own[i : i + 2]):
                continue  # judged with its next word above
            places = _places(found, [word])
            if places and all(_ranked(found, j, one_of_ranks) for j in places):
                return word
    return ""


# Relation words and their opposites: time (before / after), amount (more / less), direction
# (north / south), change (increase / decrease). English grammar, no data set's words.
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


def opposite(question: Question, quote: str) -> str:
    """A relation word of the question with the thing it relates to ("before the conquest", "more
    than", "revenue increase"), which the quote holds only with the opposite relation ("Subsequent
    to the Conquest", "less than", "revenue decreased"), else "": the quote says the other thing."""
    own = [w for w in fold_words(question.asked.text) if w not in ARTICLES]
    stems = [stem(w) for w in own]
    found = [stem(w) for w in fold_words(quote) if w not in ARTICLES]

    def near(relations: frozenset[str], thing: str, thing_first: bool) -> bool:
        for j, word in enumerate(found):
            if word in relations:
                span = (
                    found[max(0, j - OPPOSITE_SPAN) : j]
                    if thing_first
                    else found[j + 1 : j + 1 + OPPOSITE_SPAN]
                )
                if thing in span:
                    return True
        return False

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
        relation = OPPOSITES[word]
        if near(relation, stems[at], thing_first) and not near(frozenset({word}), stems[at], thing_first):
            return f"{own[min(i, at)]} {own[max(i, at)]}"
    return ""


# Scale words that multiply the number before them ("22 million people").
_SCALES = {"hundred": 1e2, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
# Words that join two numbers counting the same thing ("8- and 10-county", "5 to 7 days").
_JOINS = frozenset("and or to".split())
_COUNT_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
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
    tokens = _COUNT_TOKEN.findall(_without_accents(text).lower())
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


def recounted(question: Question, quote: str) -> str:
    """A number of the question and the word it counts ("10 megaregions") that the quote gives only
    with other numbers ("11 megaregions"; "Six of the seven lines" for "seven lines"), else "": the
    quote counts something else. A whole the question takes a part of ("two of the three major
    cities", "how many of the seven lines") is read against the quote's wholes too."""
    said = _counts(quote)
    for value, thing, whole in _counts(question.asked.text):
        others = {v for v, t, w in said if t == thing and (whole or not w)}
        if others and value not in others:
            return f"{value:g} {thing} / {', '.join(f'{v:g}' for v in sorted(others))}"
    return ""


# Compass words, each to its direction ("southern" is "south").
_COMPASS = {
    word: base
    for base in ("north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest")
    for word in (base, base + "ern")
}


def _directions(text: str, lower_only: bool) -> set[str]:
    """The directions text gives; lower_only: only its compass words written in lower case and not
    just before a capitalised word ("to the south", "north of Acme"; not "southern California",
    which names a region)."""
    tokens = _COUNT_TOKEN.findall(text)
    return {
        _COMPASS[w.lower()]
        for w, after in zip(tokens, [*tokens[1:], ""])
        if w.lower() in _COMPASS and (not lower_only or (w.islower() and not after[:1].isupper()))
    }


def elsewhere(question: Question, quote: str, context: str) -> str:
    """The directions the question writes in lower case ("to the south") when neither the quote (in
    any case: "South of the river") nor its context (in lower case) holds any of them, else "": the
    quote speaks of another place. A compass word that is or starts a name ("Southern California",
    "southern California" in a question, a heading's "Southern Acme") is left to the names."""
    asked = _directions(question.asked.text, lower_only=True)
    missing = asked - _directions(quote, lower_only=False) - _directions(context, lower_only=True)
    return ", ".join(sorted(missing)) if asked and missing == asked else ""


def echoed(question: Question, quote: str) -> str:
    """A quote whose every content word and number the question holds (stemmed), else "": it says
    nothing the question does not, so it answers nothing."""
    own = {stem(w) for w in fold_words(question.asked.text)}
    said = [w for w in fold_words(quote) if content(w) or w.isdigit()]
    return "" if not said or any(stem(w) not in own for w in said) else " ".join(said)


# Prepositions that give the name after them its part ("as French", "to the Normans", "north of
# Orange County"); a verb before a name ("What are Acme's segments?") gives none.
_ROLE_WORDS = frozenset("as to of in by from with for at on into".split())
_CASED_TOKEN = re.compile(r"[^\W\d_][\w'-]*")


def _cased(text: str) -> list[str]:
    """Words as written, accents dropped, a possessive's "'s" too ("Edgar's" as "Edgar")."""
    folded = _without_accents(text)
    return [t.removesuffix("'s").removesuffix("'") for t in _CASED_TOKEN.findall(folded)]


def renamed(question: Question, quote: str) -> str:
    """A name of the question (lowercased, as rag.questions.terms reads it) that the quote does not
    hold, while the quote holds the question's preposition before it (articles skipped) just
    before another capitalised word that is no word of the question's names, else "": the quote
    says the same of someone else ("as French" / "as English")."""
    names = question.asked.names
    own = [w.lower() for w in _cased(question.asked.text)]
    said = _cased(quote)
    said_low = [w.lower() for w in said]
    said_stems = {stem(w) for w in said_low}
    named = {w for n in names for w in fold_words(n)}
    for name in names:
        parts = fold_words(name)
        if any(stem(p) in said_stems for p in parts):
            continue
        at = _places(own, parts)
        before = [w for w in own[: at[0]] if w not in ARTICLES] if at else []
        if not before or before[-1] not in _ROLE_WORDS:
            continue
        for j, word in enumerate(said_low[:-1]):
            if word != before[-1]:
                continue
            after = next((w for w in said[j + 1 :] if w.lower() not in ARTICLES), "")
            if after[:1].isupper() and after.lower() not in named and after.lower() not in STOPWORDS:
                return f"{before[-1]} {name} / {after}"
    return ""


# Words that say which period, not what happened in it ("in fiscal 2022", "the first quarter").
_PERIOD_WORDS = frozenset(
    "fiscal year years quarter quarters month months period century centuries decade".split()
)


def only_dated(question: Question, quote: str) -> str:
    """A question naming a date or period, and a quote holding none of its words but its names
    and the date's (stemmed), else "": the quote meets the question on when, not on what."""
    proper = question.asked.text
    names = question.asked.names
    if not DATE.search(proper):
        return ""
    named = {stem(w) for n in names for w in fold_words(n)}
    asked = [
        w
        for w in fold_words(DATE.sub(" ", proper))
        if content(w)
        and w not in _PERIOD_WORDS
        and not any(ch.isdigit() for ch in w)
        and stem(w) not in named
    ]
    said = {stem(w) for w in fold_words(quote)}
    return " ".join(asked) if asked and not any(stem(w) in said for w in asked) else ""


_WH = frozenset("who whom what which".split())
_AUX = frozenset("did does do has have had will would can could".split())
_BE = frozenset("is are was were be been being am".split())
# Words that start what a verb acts on: "replaced the Normans", "led their forces".
_OBJECT_START = ARTICLES | frozenset("his her their its".split())


def _places(stems: list[str], name: list[str]) -> list[int]:
    n = len(name)
    return [k for k in range(len(stems) - n + 1) if stems[k : k + n] == name]


def _question_verb(own: list[str], stems: list[str], start: int, end: int) -> tuple[list[str], bool] | None:
    """The verb(s) the name at own[start:end] stands with, and whether the name is its subject:
    "Who did X marry?" (the word after X; X the subject); "Who married X?" / "What language
    replaced the X?" (the first or second word, when an article, a possessive or X follows it;
    X the object)."""
    aux = next((i for i in (1, 2) if own[i] in _AUX), 0)
    if aux and start in (aux + 1, aux + 2) and end < len(own):
        return [stems[end]], True
    if aux or own[1] in _BE:
        return None
    verbs = [stems[i] for i in (1, 2) if i < start and (i + 1 == start or own[i + 1] in _OBJECT_START)]
    return verbs, False


def reversed_roles(question: Question, quote: str) -> str:
    """A name the question puts on one side of its verb that the quote holds only on the other
    side of the same verb ("Who did Edgar marry?" / "Malcolm married Edgar's sister"; a form of
    "be" just before the quote's verb makes it passive, which swaps the sides), else ""."""
    names = question.asked.names
    own = fold_words(question.asked.text)
    if len(own) < 3 or own[0] not in _WH:
        return ""
    stems = [stem(w) for w in own]
    said_words = fold_words(quote)
    said = [stem(w) for w in said_words]
    for name in names:
        parts = [stem(w) for w in fold_words(name)]
        at = _places(stems, parts)
        read = _question_verb(own, stems, at[0], at[0] + len(parts)) if at else None
        spots = _places(said, parts)
        if read is None or not spots:
            continue
        verbs, subject = read
        verb = next((v for v in verbs if content(v) and v in said), "")
        if not verb:
            continue
        v = said.index(verb)
        passive = any(w in _BE for w in said_words[max(0, v - 2) : v])
        before, after = any(x < v for x in spots), any(x > v for x in spots)
        wants_before = subject != passive
        if (after and not before) if wants_before else (before and not after):
            return f"{name} {'after' if wants_before else 'before'} {said_words[v]}"
    return ""


_YEARS = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")  # "2016", "FY2016", "fiscal 2016"
# What a year is compared with comes after these: "compared to 2016", "versus fiscal 2016".
_COMPARED = r"(?:compared\s+(?:to|with)|versus|vs\.?|over|than|from)\s+(?:(?:fiscal|fy)\s*(?:year\s+)?)?"


def compared(question: Question, quote: str) -> str:
    """A year of the question that the quote holds only just after a comparison ("compared to
    2016", "versus fiscal 2016", "from 2016") while it holds a year the question does not, else
    "": the quote measures its own year against the asked one."""
    asked = set(_YEARS.findall(question.asked.text))
    said = _YEARS.findall(quote)
    if not asked or not set(said) - asked:
        return ""
    for year in sorted(asked & set(said)):
        based = re.findall(_COMPARED + year + r"(?!\d)", quote, re.IGNORECASE)
        if len(based) == said.count(year):
            return f"{year} / {', '.join(sorted(set(said) - asked))}"
    return ""
