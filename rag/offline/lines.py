"""Short lines as the answer: when the question asks for a kind of value (Asked.value: an e-mail,
a phone number, a name, an organisation, ...), a short line of the evidence that holds a value of
that kind (rag.values, read by what it looks like), beside the question's words (on the line or
on its label lines above), is quoted with its label. Cover pages, letterheads, author blocks and
court captions print such values as lines, which are no sentences and so never units.
"""

from __future__ import annotations

from collections.abc import Sequence

from rag.offline.scoring import Scored, Source
from rag.passages.lists import item
from rag.questions.read import Question
from rag.text import SOFT_HYPHEN, STOPWORDS, tokenize
from rag.values import LINE_CHARS, LINE_WORDS, values_in

# Short lines above a value's line that are read with it, as its label ("FOR MEDIA OR OTHER
# INQUIRIES:" above three names and a phone number).
ABOVE = 5
# Share of the question's concepts (those held somewhere in the evidence; the words that ask for
# the kind left out) the value's line, its label lines and the document's title must hold, a
# concept held by DOCUMENT_SHARE of the evidence's passages counting as held: half, as a quote
# must share with the question elsewhere; measured in bench/README.md ("Lists, short lines and
# tables in any PDF").
LINE_SHARE = 0.5
DOCUMENT_SHARE = 0.5
# Added when the value itself spells a word of the question ("axsun@..." for Aixin Sun: the
# e-mail of the person asked about among an author block's several), and when the value's line or
# the one above holds the word that asked for it ("Docket No. 1:17-cv-04660", "Phone: ...").
SPELLED_BONUS = 0.25
# A value's line quoted with its labels is at most this long (a label, a name and a role, a value:
# two short lines); a longer run above it is prose, and the value's line is quoted alone.
QUOTE_CHARS = 2 * LINE_CHARS


# A line of fields (a name, a role, an organisation, a date) holds few words in lower case: "of",
# "and", "for"; a third of its words or more in lower case is prose.
PROSE_SHARE = 1 / 3
# The kinds whose values are words (a name, a role, an organisation, a date): a line opening in
# lower case continues a sentence and holds none of them as a line of its own.
WORDED = frozenset({"name", "role", "organisation", "date", "year"})


def _lines(text: str) -> list[str]:
    return [" ".join(x.split()) for x in text.replace(SOFT_HYPHEN, "").splitlines()]


def _short(line: str) -> bool:
    return bool(line) and len(line) <= LINE_CHARS and len(line.split()) <= LINE_WORDS


def line_answer(question: Question, sources: Sequence[Source]) -> Scored | None:
    """The best short line holding a value of the kind the question asks for, with its label
    lines, when it and they (and the document's title) hold LINE_SHARE of the question's other
    concepts; else None."""
    kind = question.asked.value
    if not kind:
        return None
    asking = {t for w in question.asked.value_words for t in tokenize(w)}
    concepts = [c for c in question.concepts.concepts if not set(c) & asking]
    if not concepts:
        return None
    # Running headers are read too: a name or a phone number recurs on the pages that print it.
    texts = {s.short_id: _lines(s.text) for s in sources}
    bags = [set(tokenize(f"{s.text} {s.title}")) for s in sources]
    # Concepts held nowhere in the evidence cannot be beside any value; those held by most of its
    # passages name the document, as its title does, and are held beside every value.
    concepts = [c for c in concepts if any(c.credit(bag) for bag in bags)]
    everywhere = [c for c in concepts if sum(c.credit(bag) > 0 for bag in bags) >= DOCUMENT_SHARE * len(bags)]
    if not concepts:
        return None
    named = [t for t in tokenize(question.core) if len(t) >= 3 and t not in STOPWORDS]
    # The names the question gives ("Robinson W. Joslin") that the evidence prints: one of them is
    # beside the value, or the value is someone else's.
    everything = set().union(*bags)
    proper = {t for t in _proper(question.core) if t in everything}
    best: Scored | None = None
    for source in sources:
        lines = texts[source.short_id]
        title = set(tokenize(source.title))
        for i, line in enumerate(lines):
            if not _short(line) or (
                i > 0 and lines[i - 1] and not _short(lines[i - 1]) and lines[i - 1][-1] not in ".:!?"
            ):
                continue  # a long line's end, not a line of its own
            after = next((x for x in lines[i + 1 :] if x), "")
            before = next((x for x in lines[i - 1 :: -1] if x), "") if i else ""
            wrapped = _prose(before) and before[-1] not in ".:!?"  # a paragraph's line, wrapped
            if kind in WORDED and (_prose(line) or wrapped or after[:1].islower() or item(line)):
                continue  # running prose in a narrow column, or a numbered heading ("1. Personal Risk")
            found = values_in(kind, line)
            if kind in WORDED:  # a value is no word of the question's ("Critical Audit Matters")
                found = [v for v in found if not any(c.credit(set(tokenize(v))) for c in concepts)]
            if not found:
                continue
            start = i
            while start > max(0, i - ABOVE) and _short(lines[start - 1]):
                start -= 1
            held = title | set(tokenize(" ".join(lines[start : i + 1])))
            if not any(c.credit(held) for c in concepts) or (proper and not proper & held):
                continue  # no word of the question (or none of the names it gives) beside the value
            share = sum(1.0 if c in everywhere else c.credit(held) for c in concepts) / len(concepts)
            spelled = any(t in v.lower() for v in found for t in named)
            labelled = bool(asking & set(tokenize(" ".join(lines[max(0, i - 1) : i + 1]))))
            score = share + SPELLED_BONUS * spelled + SPELLED_BONUS * labelled
            if share >= LINE_SHARE and (best is None or score > best.score):
                label = _label(lines, start, i, concepts)
                while label < i and _prose(lines[label]):
                    label += 1  # a sentence's end above the value is no label
                if sum(len(x) + 1 for x in lines[label : i + 1]) > QUOTE_CHARS:
                    label = i  # the label is prose, not a line's: the value's line alone
                # A name or a date is quoted with a word of the question's, not only beside the
                # document's title or its unquoted lines ("/s/ Jesus Malave" under a signature).
                quoted = set(tokenize(" ".join(lines[label : i + 1])))
                if kind in WORDED and not any(c.credit(quoted) for c in concepts):
                    continue
                best = Scored(score, source.short_id, " ".join(lines[label : i + 1]), share)
    return best


def _prose(line: str) -> bool:
    """Whether a line reads as prose, not as a line of fields: it opens in lower case, or more than
    PROSE_SHARE of its words are in lower case ("Anderson postdated the Supreme Court's 1971
    decision in"; "Carroll Doherty, Director of Political Research" is fields)."""
    parts = [w for w in line.split() if w[:1].isalpha()]
    lower = sum(w[:1].islower() for w in parts)
    return line[:1].islower() or lower > PROSE_SHARE * len(parts)


def _proper(text: str) -> set[str]:
    """The question's capitalised words after its first, as tokens ("Joslin", "Aixin", "Sun")."""
    capitalised = [w for w in text.split()[1:] if w[:1].isupper()]
    return {t for w in capitalised for t in tokenize(w) if len(t) >= 3 and t not in STOPWORDS}


def _label(lines: Sequence[str], start: int, i: int, concepts: Sequence) -> int:
    """Where the quote of the value's line starts: at the nearest line above ending with a colon
    or holding one of the question's concepts (its label), else at the line itself."""
    for j in range(i - 1, start - 1, -1):
        line = lines[j]
        if line.endswith(":") or any(c.credit(set(tokenize(line))) for c in concepts):
            return j
    return i


def holds_value(question: Question, text: str) -> bool:
    """Whether a text holds a value of the kind the question asks for (True when it asks for none)."""
    return not question.asked.value or bool(values_in(question.asked.value, text))
