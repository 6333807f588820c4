"""Words as the check's rules read them: folded (lowercased, accents dropped), content words, the
places of a run of words. English grammar only (articles), no data set's words."""

from __future__ import annotations

import re
import unicodedata

from rag.text import STOPWORDS

__all__ = ["ARTICLES", "WORD_OR_NUMBER", "cased", "content", "fold_words", "places", "without_accents"]

ARTICLES = frozenset("a an the".split())
# Numbers (thousands commas and decimals kept) and words, as counts and directions read them.
WORD_OR_NUMBER = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
_CASED_TOKEN = re.compile(r"[^\W\d_][\w'-]*")


def without_accents(text: str) -> str:
    """The text with its accents dropped ("Hervé" as "Herve")."""
    return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))


def fold_words(text: str) -> list[str]:
    """Words, lowercased, accents dropped ("Hervé" as "herve"), split at underscores too (file
    names: "JOHNSON_JOHNSON_2023Q2")."""
    folded = without_accents(text)
    return [w for w in re.split(r"[\W_]+", folded.lower()) if w]


def content(word: str) -> bool:
    """A word that says what is spoken of: no stopword, no number, three letters or more."""
    return len(word) > 2 and word not in STOPWORDS and not word.isdigit()


def places(items: list[str], run: list[str]) -> list[int]:
    """Where the run of words starts in items."""
    n = len(run)
    return [k for k in range(len(items) - n + 1) if items[k : k + n] == run]


def cased(text: str) -> list[str]:
    """Words as written, accents dropped, a possessive's "'s" too ("Edgar's" as "Edgar")."""
    folded = without_accents(text)
    return [t.removesuffix("'s").removesuffix("'") for t in _CASED_TOKEN.findall(folded)]
