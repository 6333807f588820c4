"""After the answer: footnotes for the sentences the model left uncited, and a flag on the cited
ones that their passages do not support. One offline support check does both, never a model.

- A sentence with content and no resolved citation is compared with every piece of the answer's
  evidence. When the best piece holds it as a phrase (support().phrase >= MATCH_MIN), that piece
  becomes its footnote, marked *matched by Footnote*: the model's footnote when the model cited
  the same piece elsewhere, else a new one numbered after the model's. Otherwise the sentence
  stays unsourced, and is counted so in the metrics.
- A sentence the model cited is flagged when even the best of the passages it cites holds few of
  its words (support().words < FLAG_BELOW). It keeps its citations and its text: flagged, never
  rewritten (issue 25).
- Sentences of fewer than MIN_WORDS distinct content words ("Yes.", "In 1066.") are neither
  matched nor flagged, nor are the prompts' fixed sentences (rag.prompts.NOT_IN_DOCUMENTS,
  CLOSEST_PASSAGES); a list of sources at the end of the answer is no sentence at all.

support(claim, passage), over content words (rag.text.tokenize: stems, stopwords dropped):
- words: the share of the claim's words found in the passage;
- phrase: the share of the claim's consecutive word pairs found as consecutive pairs in the
  passage, and 0 when the claim says "not", "no", "never"... and the passage never does (the
  stopword list drops them, and SQuAD 2.0's unanswerable questions are often a passage's
  sentence negated);
- both are multiplied by the share of the claim's numbers found in the passage ("1,469" and
  "1469" are one number): "13 million" is not supported by a passage that says 12 million.
Word overlap alone cannot match: a question restated with a plausible wrong answer holds nearly
all its words in the passage it was written from; pairs of words in order are what a copied or
lightly edited sentence keeps. The thresholds' measurements: bench/README.md, "Attribution".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise

from rag.prompts import CLOSEST_PASSAGES, NOT_IN_DOCUMENTS
from rag.text import groups_within, has_content, strip_markers, tokenize, words
from rag.types import CitationSpan, Evidence, Flag, Footnote, Match

# The three thresholds were set with `python -m bench attribution` on labelled claims
# (bench/README.md, "Attribution" and "How the rules were found"): the lowest phrase share tried
# whose matches keep a precision over 0.95 on squad-dev...
MATCH_MIN = 0.9
# ...the word share below which few supported claims and most unsupported ones are flagged...
FLAG_BELOW = 0.35
# ...and the fewest content words worth checking ("Yes, in 1066." is not).
MIN_WORDS = 3
NEGATIONS = frozenset("not no never nor none neither without cannot nothing nobody".split())
_NUMBERED_REF = re.compile(r"\[\d{1,2}\]")
_NUMBER = re.compile(r"(?<![\w.])\d(?:[\d,]*\d)?(?:\.\d+)?(?!\w)")  # not inside a word ("FY2018", ids)
_FIXED = tuple(" ".join(tokenize(p)) for p in (NOT_IN_DOCUMENTS, CLOSEST_PASSAGES))


@dataclass(frozen=True)
class Support:
    """How much of a claim a passage holds (see the module docstring): words and phrase, 0..1."""

    words: float
    phrase: float


@dataclass(frozen=True)
class Attribution:
    """What the support check found: every footnote (the model's, with their matches, then the
    matched-only ones), the flags, and how many sentences were matched."""

    footnotes: tuple[Footnote, ...]
    flags: tuple[Flag, ...]
    matched_sentences: int


@dataclass(frozen=True)
class _Profile:
    terms: frozenset[str]
    pairs: frozenset[tuple[str, str]]
    numbers: frozenset[str]
    negated: frozenset[str]


def numbers(text: str) -> set[str]:
    """The numbers written in text, thousands separators dropped."""
    return {m.group(0).replace(",", "") for m in _NUMBER.finditer(text)}


@lru_cache(maxsize=4096)
def _profile(text: str) -> _Profile:
    terms = tokenize(text)
    negated = frozenset(words(text.replace("n't", " not"))) & NEGATIONS
    return _Profile(frozenset(terms), frozenset(pairwise(terms)), frozenset(numbers(text)), negated)


def support(claim: str, passage: str) -> Support:
    """How much of the claim the passage holds, as words and as phrases (module docstring)."""
    want, have = _profile(claim), _profile(passage)
    if not want.terms:
        return Support(0.0, 0.0)
    found = len(want.numbers & have.numbers) / len(want.numbers) if want.numbers else 1.0
    share = len(want.terms & have.terms) / len(want.terms) * found
    phrase = len(want.pairs & have.pairs) / len(want.pairs) * found if want.pairs else 0.0
    return Support(round(share, 4), 0.0 if want.negated - have.negated else round(phrase, 4))


def claim_text(text: str, start: int, end: int, groups: Sequence[tuple[int, int]]) -> str:
    """The sentence text[start:end] as a claim: markers and numbered references ([2]) removed."""
    return _NUMBERED_REF.sub(" ", strip_markers(text[start:end], groups_within(groups, start, end)))


def is_claim(claim: str) -> bool:
    """Whether a sentence says enough to be matched or flagged (MIN_WORDS, not a fixed sentence)."""
    terms = tokenize(claim)
    return has_content(claim) and len(set(terms)) >= MIN_WORDS and " ".join(terms) not in _FIXED


def best_match(claim: str, evidence: Sequence[Evidence]) -> tuple[float, Evidence | None]:
    """The piece of evidence holding the claim best as a phrase, when it reaches MATCH_MIN."""
    scored = [(support(claim, item.text).phrase, i) for i, item in enumerate(evidence)]
    score, i = max(scored, key=lambda si: (si[0], -si[1]), default=(0.0, -1))
    return (score, evidence[i]) if score >= MATCH_MIN else (score, None)


def attribute(
    text: str,
    footnotes: Sequence[Footnote],
    evidence: Sequence[Evidence],
    sentences: Sequence[tuple[int, int]],
    spans: Sequence[CitationSpan],
    fixed: int = 0,
) -> Attribution:
    """Match the uncited sentences and flag the unsupported cited ones (see the module docstring).
    sentences: the answer's sentences (no source list); spans: every marker, resolved or not;
    fixed: the answer's first characters hold a computed figure's line, neither matched nor flagged."""
    groups = sorted({(s.group_start, s.group_end) for s in spans})
    cited_at = [(s.start, f) for f in footnotes for s in f.spans]
    matches: dict[str, list[Match]] = {}
    flags: list[Flag] = []
    for start, end in sentences:
        if start < fixed:
            continue
        claim = claim_text(text, start, end, groups)
        if not is_claim(claim):
            continue
        cited = {f.number: f for at, f in cited_at if start <= at < end}
        if cited:
            score = max(support(claim, f.evidence.text).words for f in cited.values())
            if score < FLAG_BELOW:
                flags.append(Flag(start, end, tuple(sorted(cited)), score))
            continue
        score, item = best_match(claim, evidence)
        if item is not None:
            matches.setdefault(item.short_id, []).append(Match(start, end, score))
    merged = [replace(f, matches=tuple(matches.pop(f.short_id, ()))) for f in footnotes]
    table = {e.short_id: e for e in evidence}
    extra = sorted(matches.items(), key=lambda item: item[1][0].start)
    merged += [
        Footnote(len(merged) + n, sid, table[sid], (), tuple(m)) for n, (sid, m) in enumerate(extra, 1)
    ]
    return Attribution(tuple(merged), tuple(flags), sum(len(f.matches) for f in merged))
