"""The one text toolkit: sentences, words, stems, stopwords and cosine, for every caller (BM25,
the offline answerer, the answer metrics, the side panel's cited passage and the audit page).

Sentences: a sentence ends at `.`, `!` or `?` (or their full-width forms) followed by white
space or the end, and, in an answer, at every line break (list items, paragraphs); in a PDF
passage a line break is only a wrapped line and a blank line ends a paragraph. A full stop
after an initial, a title ("Mr.") or a known abbreviation ("e.g.", "Fig.", "No.", "Inc.",
"U.S.") does not end a sentence unless a capitalised word follows the abbreviation ("... in the
U.S. The ..."); nor does one before a lower-case word. Citation markers written after the full
stop (`... boils at 100 C. [abc1234]`) belong to the sentence before them, and a piece holding
nothing but markers joins the sentence before it.

Not pysbd: it knows nothing of citation markers and gives no offsets by default; these rules are a
few lines and are tested on the cases above.

Words: `\\w+` runs of the text's search form (NFKC: a math italic x is "x"), lowercased; content words drop
STOPWORDS and single letters (digits stay) and are stemmed by the Snowball English stemmer (PyStemmer), the stemmer bm25s itself accepts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

import Stemmer

from ingest.text import SOFT_HYPHEN, search_form
from rag.citations.parser import citation_spans

_MASK = "\x01"
_TERMINAL = re.compile(r"[.!?\u3002\uff01\uff1f]+[\"'\u201d\u2019)\]]*")
_CJK_TERMINAL = "\u3002\uff01\uff1f"
_WORD = re.compile(r"\w+")
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
ABBREVIATIONS = frozenset(
    "e.g i.e etc fig figs no nos vs al p pp cf inc ltd co corp st vol ch sec eq approx ca "
    "u.s u.k u.n dept est jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
TITLES = frozenset("dr mr mrs ms prof".split())
STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it its
    itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them themselves
    then there these they this those through to too under until up very was we were what when where
    which while who whom why will with would you your yours yourself yourselves s t may might must
    shall per via""".split()
)
_STEMMER = Stemmer.Stemmer("english")
# Stems Snowball parts within one word family, joined: it stems "employees" to "employe" but
# "employ", "employed", "employment" to "employ", so "How many people did AES employ?" never held
# the filings' "employees". Read off the structure set, checked on filings-dev, the obligations
# set, squad-dev and the generated filings (bench/README.md, 2026-12-04, sixth session).
JOINED = {"employe": "employ"}


def marker_groups(text: str) -> list[tuple[int, int]]:
    """The distinct bracket ranges [start, end) of every citation marker in text."""
    return sorted({(s.group_start, s.group_end) for s in citation_spans(text)})


def _mask(text: str, groups: Iterable[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in groups:
        chars[start:end] = _MASK * (end - start)
    return "".join(chars)


def _is_abbreviation(masked: str, punct_start: int, after: int) -> bool:
    """A full stop that does not end a sentence (see the module docstring)."""
    tail = masked[punct_start:after]
    if _MASK in tail or tail.rstrip(" \t\"'\u201d\u2019)") != ".":
        return False
    word = re.search(r"[\w.]*$", masked[:punct_start]).group(0).lower()
    nxt = masked[after:].lstrip()[:1]
    if (len(word) == 1 and word.isalpha()) or word in TITLES:
        return True
    if word in ABBREVIATIONS:
        return not nxt.isupper()
    return nxt.islower()


def _absorb_markers(masked: str, end: int) -> int:
    """The end of a sentence pushed past citation markers written after its full stop."""
    while True:
        j = end
        while j < len(masked) and masked[j] in " \t":
            j += 1
        if j >= len(masked) or masked[j] != _MASK:
            return end
        while j < len(masked) and masked[j] == _MASK:
            j += 1
        end = j


def _boundaries(masked: str, line_breaks: bool) -> list[int]:
    breaks = re.finditer("\n", masked) if line_breaks else _PARAGRAPH.finditer(masked)
    cuts = {m.end() for m in breaks}
    for match in _TERMINAL.finditer(masked):
        end = _absorb_markers(masked, match.end())
        cjk = match.group(0)[0] in _CJK_TERMINAL
        if (end == len(masked) or masked[end].isspace() or cjk) and not _is_abbreviation(
            masked, match.start(), end
        ):
            cuts.add(end)
    return sorted(cuts | {len(masked)})


def has_content(piece: str) -> bool:
    """True when a piece of text (markers already masked out) holds a letter or digit."""
    return any(ch.isalnum() for ch in piece.replace(_MASK, ""))


def sentence_spans(
    text: str, groups: Sequence[tuple[int, int]] | None = None, *, line_breaks: bool = True
) -> list[tuple[int, int]]:
    """The sentences of text as [start, end) ranges, stripped of surrounding white space.
    groups: the citation marker ranges (found in text when None); line_breaks: whether every
    line break ends a sentence (answers) or only a blank line does (PDF passages)."""
    if not text:
        return []
    masked = _mask(text, marker_groups(text) if groups is None else groups)
    spans: list[tuple[int, int]] = []
    start = 0
    for cut in _boundaries(masked, line_breaks):
        piece = masked[start:cut]
        lead = len(piece) - len(piece.lstrip())
        a, b = start + lead, start + len(piece.rstrip())
        if a < b:
            if spans and not has_content(masked[a:b]):
                spans[-1] = (spans[-1][0], b)  # markers alone on a line: they cite the line before
            else:
                spans.append((a, b))
        start = cut
    return spans


def split_sentences(text: str) -> list[str]:
    """The sentences of a PDF passage, white space (line breaks too) collapsed, soft hyphens gone."""
    flat = text.replace(SOFT_HYPHEN, "")
    pieces = (" ".join(flat[a:b].split()) for a, b in sentence_spans(flat, [], line_breaks=False))
    return [p for p in pieces if p]


def citing_sentence(
    text: str, position: int, groups: Sequence[tuple[int, int]] | None = None
) -> tuple[int, int]:
    """The [start, end) of the answer sentence holding position (a citation marker's start):
    the one sentence the side panel, the metrics and the audit page all use for that citation.
    groups: the text's marker ranges when already known (parsed here otherwise)."""
    spans = sentence_spans(text, groups)
    return next(((a, b) for a, b in spans if a <= position < b), (position, position))


def groups_within(groups: Iterable[tuple[int, int]], start: int, stop: int) -> list[tuple[int, int]]:
    """The marker ranges that begin inside [start, stop), as offsets into text[start:stop]."""
    return [(a - start, b - start) for a, b in groups if start <= a < stop]


def strip_markers(text: str, groups: Sequence[tuple[int, int]] | None = None) -> str:
    """Text without its citation markers, white space collapsed (for showing a sentence).
    groups: the text's marker ranges when already known (parsed here otherwise)."""
    out, last = [], 0
    for start, end in marker_groups(text) if groups is None else groups:
        out.append(text[last:start])
        last = end
    out.append(text[last:])
    joined = re.sub(r"\s+", " ", "".join(out)).strip()
    return re.sub(r"\s+([.,;:!?])", r"\1", joined)


def words(text: str) -> list[str]:
    """Every word of text in its search form (ingest.text.search_form: a math italic x is "x"), lowercased,
    soft hyphens removed first."""
    return _WORD.findall(search_form(text.replace(SOFT_HYPHEN, "")).lower())


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The Snowball English stem of a lowercased word ("expenditures" -> "expenditur"), joined
    where Snowball parts one word family (JOINED)."""
    found = _STEMMER.stemWord(word)
    return JOINED.get(found, found)


@lru_cache(maxsize=200_000)
def _term(word: str) -> str:
    """The index term for a lowercased word, or "" when it does not count."""
    if word in STOPWORDS or (len(word) < 2 and not word.isdigit()):
        return ""
    return stem(word)


def tokenize(text: str) -> list[str]:
    """Stemmed content words in order (stopwords and single letters dropped, digits kept)."""
    terms = map(_term, words(text))
    return [t for t in terms if t]


def is_content_word(word: str) -> bool:
    """Whether a lowercased word counts (not a stopword, not a single letter)."""
    return bool(_term(word))


_CAPITALISED_RUN = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+")


def acronyms(text: str) -> set[str]:
    """The lowercased initials of every run of 2 to 5 capitalised words in text ("The European
    Union" gives "eu", "teu"), so that a question's "EU" finds the words it stands for."""
    out: set[str] = set()
    for run in _CAPITALISED_RUN.findall(text):
        initials = "".join(w[0] for w in run.split()).lower()
        out.update(
            initials[i:j] for i in range(len(initials)) for j in range(i + 2, min(i + 5, len(initials)) + 1)
        )
    return out


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0
