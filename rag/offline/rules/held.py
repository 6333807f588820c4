"""The rules on what the quote must hold: the kind of answer asked for, the question's names,
numbers and qualifiers, a negation, and enough of the question's concepts (the support score).
Each takes the read question and the quote and says what is missing ("" for nothing). Beside
them, what of a row's label the question does not name (unnamed_label), by which the answerer
leaves out rows beside the answer that name another line."""

from __future__ import annotations

from rag.offline.rules.quote import Quote
from rag.offline.rules.words import fold_words
from rag.questions.periods import quarters_in
from rag.questions.read import Question
from rag.questions.terms import DATE, TOKEN, amounts, negated, numbers
from rag.text import STOPWORDS, acronyms, stem, tokenize, words

__all__ = [
    "LABEL_SHARE",
    "MIN_SUPPORT",
    "YES_NO_SHARE",
    "asked_for",
    "negation",
    "specific",
    "support",
    "unnamed_label",
    "weak_support",
]

# Least support score between question and quote (bench/README.md, "How the rules were found").
MIN_SUPPORT = 0.42
# Share of a quoted row's label words the question must hold, the document title's and the
# question's names aside (its shorthand and synonyms count): half, the one value tried, not tuned.
LABEL_SHARE = 0.5
# Share of a yes/no question's concepts (names aside) the quote and its heading must hold: the one
# value tried (half), not tuned.
YES_NO_SHARE = 0.5


def _holds_name(name: str, text: str, caps: bool) -> bool:
    """A name is held as its words in a row (stemmed), as the initials of a capitalised run, as
    one word ("LOCKHEEDMARTIN"), or, written in capitals, as the start of a word ("JPMorgan")."""
    parts = [stem(w) for w in fold_words(name)]
    found = fold_words(text)
    stems = [stem(w) for w in found]
    n = len(parts)
    if any(stems[i : i + n] == parts for i in range(len(stems) - n + 1)):
        return True
    joined = "".join(fold_words(name))
    if joined in acronyms(text) or (n > 1 and joined in found):
        return True
    return caps and len(joined) >= 3 and any(w.startswith(joined) for w in found)


def _holds_kind(question: Question, quote: Quote) -> bool:
    """An amount (a number that is no year or date) for "how much", a date or period for "when", a
    capitalised word of no question word for "who" and "where", and for a yes/no question
    YES_NO_SHARE of its concepts in the quote and its heading."""
    asked, text = question.asked, quote.text
    if asked.wants == "number":
        return quote.row or "%" in text or bool(amounts(text) - set(asked.numbers))
    if asked.wants == "date":
        return any(m.group(0).lower() not in asked.numbers for m in DATE.finditer(text))
    if asked.wants in ("name", "place"):
        own = {stem(w) for w in words(asked.text)}
        tokens = (m.group(0) for m in TOKEN.finditer(text))
        return any(
            t[:1].isupper() and t.lower() not in STOPWORDS and stem(t.lower()) not in own for t in tokens
        )
    if asked.wants == "yesno":
        names = {t for n in asked.names for t in tokenize(n)}
        concepts = [c for c in asked.about if not set(c) <= names]
        held = set(tokenize(f"{text} {quote.context}"))
        return not concepts or sum(c.credit(held) for c in concepts) / len(concepts) >= YES_NO_SHARE
    return True


def asked_for(question: Question, quote: Quote) -> str:
    """The kind of answer the question asks for when the quote does not hold one, else ""."""
    return "" if _holds_kind(question, quote) else question.asked.wants


def specific(question: Question, quote: Quote) -> str:
    """The question's names the quote and all around it lack, its qualifiers the quote and its
    context lack, its numbers the quote, its context and the sentence before lack; or a number
    held only around a quote naming other numbers, or another quarter than the asked one
    ("replaced"); else ""."""
    asked = question.asked
    near = f"{quote.text} {quote.context}"
    wide = f"{near} {quote.before}"
    named = f"{wide} {quote.passage}"
    missing = [n for n in asked.names if not _holds_name(n, named, n in asked.acronyms)]
    held = {stem(w) for w in words(near)}
    missing += [q for q in asked.qualifiers if stem(q) not in held]
    said, around = numbers(quote.text), numbers(wide)
    missing += [n for n in asked.numbers if n not in around]
    if missing:
        return ", ".join(missing)
    replaced = [n for n in asked.numbers if n not in said]
    if replaced and said and not quote.row:
        return "replaced " + ", ".join(replaced)
    in_quote = quarters_in(quote.text)
    if asked.quarters and in_quote and not asked.quarters & in_quote:
        return f"replaced quarter {min(asked.quarters)}"
    return ""


def unnamed_label(question: Question, label: str, title: str = "") -> str:
    """The words of a row's label the question does not name, when they are over half of it, the
    words of the document's title and of the question's names aside (they say whose line it is,
    not which: "Total MGM Resorts stockholders' equity" does not answer "MGM Resorts' total current
    liabilities"), and numbers (a year in "2021 restructuring charges" says when), else ""."""
    asked = question.asked
    names = {t for n in asked.names for t in tokenize(n)}
    found = {t for t in tokenize(label) if not any(ch.isdigit() for ch in t)}  # a year is no line
    found -= set(tokenize(title)) | names
    named = set(tokenize(asked.text)).union(*asked.concepts)
    unnamed = found - named
    return " ".join(sorted(unnamed)) if found and len(found & named) < LABEL_SHARE * len(found) else ""


def negation(question: Question, quote: Quote) -> str:
    """A negated question ("What is not ...") and a quote that is not negated: what it lacks, else ""."""
    return "not negated" if question.asked.negated and not negated(quote.text) else ""


def support(question: Question, quote: str, context: str, cosine: float | None) -> float:
    """rag.audit.records's support formula, with the question read as the answerer reads it: the
    share of the question's concepts (rag.questions.asked: shorthand and synonyms count) in the
    quote or its context, averaged with their cosine when there is one."""
    concepts = question.asked.concepts
    held = set(tokenize(f"{quote} {context}")) | acronyms(quote)
    overlap = sum(c.credit(held) for c in concepts) / len(concepts) if concepts else 0.0
    return overlap if cosine is None else 0.5 * overlap + 0.5 * max(cosine, 0.0)


def weak_support(question: Question, quote: Quote, floor: float = MIN_SUPPORT) -> str:
    """The quote's support score (computed by the answerer with support) when below floor, else ""."""
    return f"{quote.support:.2f} < {floor}" if quote.support < floor else ""
