"""The rules on who and where: a quote that says the question's words of another name ("as
English" for "as French"), holds a name on the other side of the question's verb ("Malcolm
married Edgar's sister" for "Who did Edgar marry?"), or lacks the direction the question gives
("To the east is ..." for "to the south"). The word lists are English grammar (prepositions,
auxiliaries, forms of "be", possessives, compass words), no data set's words."""

from __future__ import annotations

from rag.offline.rules.quote import Quote
from rag.offline.rules.words import ARTICLES, WORD_OR_NUMBER, cased, content, fold_words, places
from rag.questions.read import Question
from rag.text import STOPWORDS, stem

__all__ = ["elsewhere", "renamed", "reversed_roles"]

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
    tokens = WORD_OR_NUMBER.findall(text)
    return {
        _COMPASS[w.lower()]
        for w, after in zip(tokens, [*tokens[1:], ""])
        if w.lower() in _COMPASS and (not lower_only or (w.islower() and not after[:1].isupper()))
    }


def elsewhere(question: Question, quote: Quote) -> str:
    """The directions the question writes in lower case ("to the south") when neither the quote (in
    any case: "South of the river") nor its context (in lower case) holds any of them, else "": the
    quote speaks of another place. A compass word that is or starts a name ("Southern California",
    "southern California" in a question, a heading's "Southern Acme") is left to the names."""
    asked = _directions(question.asked.text, lower_only=True)
    missing = asked - _directions(quote.text, lower_only=False) - _directions(quote.context, lower_only=True)
    return ", ".join(sorted(missing)) if asked and missing == asked else ""


# Prepositions that give the name after them its part ("as French", "to the Normans", "north of
# Orange County"); a verb before a name ("What are Acme's segments?") gives none.
_ROLE_WORDS = frozenset("as to of in by from with for at on into".split())


def renamed(question: Question, quote: Quote) -> str:
    """A name of the question (lowercased, as rag.questions.terms reads it) that the quote does not
    hold, while the quote holds the question's preposition before it (articles skipped) just
    before another capitalised word that is no word of the question's names, else "": the quote
    says the same of someone else ("as French" / "as English")."""
    names = question.asked.names
    own = [w.lower() for w in cased(question.asked.text)]
    said = cased(quote.text)
    said_low = [w.lower() for w in said]
    said_stems = {stem(w) for w in said_low}
    named = {w for n in names for w in fold_words(n)}
    for name in names:
        parts = fold_words(name)
        if any(stem(p) in said_stems for p in parts):
            continue
        at = places(own, parts)
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


_WH = frozenset("who whom what which".split())
_AUX = frozenset("did does do has have had will would can could".split())
_BE = frozenset("is are was were be been being am".split())
# Words that start what a verb acts on: "replaced the Normans", "led their forces".
_OBJECT_START = ARTICLES | frozenset("his her their its".split())


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


def reversed_roles(question: Question, quote: Quote) -> str:
    """A name the question puts on one side of its verb that the quote holds only on the other
    side of the same verb ("Who did Edgar marry?" / "Malcolm married Edgar's sister"; "Who replaced
    the Normans?" / "The Normans replaced the Saxons"; a form of "be" just before the quote's verb
    makes it passive, which swaps the sides), else "". The verb is read from word order alone."""
    own = fold_words(question.asked.text)
    if len(own) < 3 or own[0] not in _WH:
        return ""
    stems = [stem(w) for w in own]
    said_words = fold_words(quote.text)
    said = [stem(w) for w in said_words]
    for name in question.asked.names:
        parts = [stem(w) for w in fold_words(name)]
        at = places(stems, parts)
        read = _question_verb(own, stems, at[0], at[0] + len(parts)) if at else None
        spots = places(said, parts)
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
