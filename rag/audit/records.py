"""Citation audit, the pure part: one record per citation with the sentence it is attached to,
an offline automatic support score, and an optional LLM judge in the style of ALCE
(Gao et al. 2023: does the cited passage support the statement?).

Verdicts are stored by rag.stores.verdicts, metrics come from rag.audit.metrics and exports from
rag.audit.export.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from langchain_core.messages import HumanMessage, SystemMessage

from rag.audit.text import content_words, sentence_spans, strip_markers
from rag.text import cosine as vector_cosine
from rag.text import groups_within, split_sentences
from rag.types import CitationSpan, Evidence, Footnote, Turn

HIGH, MEDIUM = 0.6, 0.3  # thresholds of the automatic score (heuristic, see support_score)
LEVELS = ("high", "medium", "low")
JUDGE_VERDICTS = ("supported", "partially_supported", "not_supported")

RecordKey = tuple[str, int, int]


class EmbeddingsLike(Protocol):
    """What support_score needs from an embeddings object (LangChain's Embeddings has it)."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]: ...


@dataclass(frozen=True)
class CitationRecord:
    """One citation in a saved answer: the occurrence-th span of footnote `number` in a turn."""

    turn_id: str
    conv_id: str
    turn_index: int
    created_at: str
    question: str
    number: int
    occurrence: int
    evidence: Evidence
    span: CitationSpan
    sentence: str  # the sentence the marker sits in, markers removed
    raw_sentence: str  # the same sentence as written, markers kept
    kind: str = "cited"  # "cited" by the model, or "matched" by Footnote (no marker; span at its end)
    flagged: bool = False  # cited, but the answer's support check found the passages do not support it

    @property
    def key(self) -> RecordKey:
        """(turn_id, footnote number, occurrence): how a verdict is filed."""
        return (self.turn_id, self.number, self.occurrence)


@dataclass(frozen=True)
class SupportScore:
    """How well a passage supports a sentence, by an offline heuristic, with its parts."""

    score: float
    overlap: float  # share of the sentence's content words found in the passage
    cosine: float | None  # embedding cosine, when an embeddings object was given
    matched: tuple[str, ...]  # stems of the sentence's content words found in the passage

    @property
    def level(self) -> str:
        """ "high", "medium" or "low", by the thresholds HIGH and MEDIUM."""
        return "high" if self.score >= HIGH else "medium" if self.score >= MEDIUM else "low"

    @property
    def meaning(self) -> str:
        """A short reading for people: "high support" and so on."""
        return f"{self.level} support"


def _occurrences(
    footnote: Footnote, sentences: list[tuple[int, int]]
) -> list[tuple[CitationSpan, str, tuple[int, int]]]:
    """Each citation of a footnote with its kind and sentence: the model's markers, then Footnote's
    matches (numbered on after the markers, so keys of verdicts filed before stay valid; a match's
    span is empty, at the end of its sentence, where its badge is)."""
    found = []
    for span in footnote.spans:
        where = next(
            ((a, b) for a, b in sentences if a <= span.group_start < b), (span.group_start, span.group_end)
        )
        found.append((span, "cited", where))
    for m in footnote.matches:
        found.append(
            (CitationSpan(footnote.short_id, m.end, m.end, m.end, m.end), "matched", (m.start, m.end))
        )
    return found


def _record(
    turn: Turn, footnote: Footnote, occurrence: int, span: CitationSpan, kind: str, where
) -> CitationRecord:
    answer, groups = turn.answer, turn.answer.marker_groups
    start, end = where
    raw = answer.text[start:end]
    flagged = kind == "cited" and any(f.start <= span.group_start < f.end for f in answer.flags)
    return CitationRecord(
        turn_id=turn.turn_id,
        conv_id=turn.conv_id,
        turn_index=turn.index,
        created_at=turn.created_at,
        question=answer.question,
        number=footnote.number,
        occurrence=occurrence,
        evidence=footnote.evidence,
        span=span,
        sentence=strip_markers(raw, groups_within(groups, start, end)),
        raw_sentence=raw,
        kind=kind,
        flagged=flagged,
    )


def turn_records(turn: Turn) -> list[CitationRecord]:
    """Every citation of one saved turn, the model's and Footnote's matches, in reading order."""
    answer = turn.answer
    sentences = sentence_spans(answer.text, answer.marker_groups)
    records = []
    for footnote in answer.footnotes:
        for occurrence, (span, kind, where) in enumerate(_occurrences(footnote, sentences)):
            records.append(_record(turn, footnote, occurrence, span, kind, where))
    return sorted(records, key=lambda r: (r.span.start, r.number))


def citation_records(turns: Iterable[Turn]) -> list[CitationRecord]:
    """Every citation of every turn, turn by turn."""
    return [record for turn in turns for record in turn_records(turn)]


def _combine(sentence: str, passage: str, cosine: float | None) -> SupportScore:
    wanted = set(content_words(sentence))
    found = wanted & set(content_words(passage))
    overlap = len(found) / len(wanted) if wanted else 0.0
    score = overlap if cosine is None else 0.5 * overlap + 0.5 * max(cosine, 0.0)
    return SupportScore(
        round(score, 4), round(overlap, 4), None if cosine is None else round(cosine, 4), tuple(sorted(found))
    )


def support_score(sentence: str, chunk_text: str, embeddings: EmbeddingsLike | None = None) -> SupportScore:
    """Offline support of a sentence by a passage: the share of the sentence's content words
    found in the passage, averaged with the best embedding cosine between the sentence and one
    of the passage's sentences when embeddings are given.
    Thresholds (high >= 0.6, medium >= 0.3) are a heuristic: the score ranks, it does not judge."""
    cosine = None
    if embeddings is not None:
        pieces = passage_pieces(chunk_text)
        first, *others = embeddings.embed_documents([sentence, *pieces])
        cosine = max(vector_cosine(first, other) for other in others)
    return _combine(sentence, chunk_text, cosine)


class CosineCache(Protocol):
    """Where computed cosines are kept between runs (rag.stores.verdicts.VerdictStore is one)."""

    def get_cosines(self, method: str, pairs: Iterable[str]) -> dict[str, float]: ...

    def put_cosines(self, method: str, values: dict[str, float]) -> None: ...


def pair_hash(sentence: str, passage: str) -> str:
    """A stable name for a (sentence, passage) pair."""
    return hashlib.sha256(f"{sentence}\0{passage}".encode()).hexdigest()[:32]


def passage_pieces(passage: str) -> list[str]:
    """The sentences of a passage (at most 64), which a cited sentence is compared with one by one."""
    return split_sentences(passage)[:64] or [passage]


def _cosines(
    records: Sequence[CitationRecord], embeddings: EmbeddingsLike, cache: CosineCache | None, method: str
) -> dict[str, float]:
    pairs = {pair_hash(r.sentence, r.evidence.text): (r.sentence, r.evidence.text) for r in records}
    known = cache.get_cosines(method, pairs) if cache is not None else {}
    missing = {p: texts for p, texts in pairs.items() if p not in known}
    if missing:
        pieces = {passage: passage_pieces(passage) for _s, passage in missing.values()}
        texts = sorted({s for s, _p in missing.values()} | {t for group in pieces.values() for t in group})
        vectors = dict(zip(texts, embeddings.embed_documents(texts)))
        fresh = {
            p: max(vector_cosine(vectors[s], vectors[t]) for t in pieces[passage])
            for p, (s, passage) in missing.items()
        }
        if cache is not None:
            cache.put_cosines(method, fresh)
        known = {**known, **fresh}
    return known


def score_records(
    records: Sequence[CitationRecord],
    embeddings: EmbeddingsLike | None = None,
    cache: CosineCache | None = None,
    method: str = "",
) -> dict[RecordKey, SupportScore]:
    """support_score for many records, embedding each distinct text once in one call; with a
    cache, cosines computed before under the same method (embedding model name) are reused."""
    cosines = _cosines(records, embeddings, cache, method) if embeddings is not None and records else {}
    out = {}
    for r in records:
        cosine = cosines.get(pair_hash(r.sentence, r.evidence.text)) if embeddings is not None else None
        out[r.key] = _combine(r.sentence, r.evidence.text, cosine)
    return out


JUDGE_SYSTEM = (
    "You check citations. You are given a passage and a statement that cites it. Decide whether "
    "the passage supports the statement, using only the passage."
)
JUDGE_TASK = """\
Passage:
<passage>
{passage}
</passage>

Statement:
<statement>
{sentence}
</statement>

Does the passage support the statement? On the first line write exactly one of:
supported, partially supported, not supported
On the second line give a one-sentence reason."""


def parse_judgement(reply: str) -> tuple[str, str]:
    """A judge's reply as (verdict, reason); verdict is "unclear" when the first line says none."""
    lines = [line.strip() for line in reply.strip().splitlines() if line.strip()]
    if not lines:
        return "unclear", "The judge gave no answer."
    head = lines[0].lower().strip("*#:.- ").replace("_", " ")
    verdict = "unclear"
    for phrase, name in (
        ("not supported", "not_supported"),
        ("unsupported", "not_supported"),
        ("partially supported", "partially_supported"),
        ("partial", "partially_supported"),
        ("supported", "supported"),
    ):
        if head.startswith(phrase):
            verdict = name
            break
    reason = " ".join(lines[1:]) if verdict != "unclear" else " ".join(lines)
    return verdict, reason.strip()


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)


def judge_support(chat_model: Any, sentence: str, passage: str) -> tuple[str, str]:
    """Ask a chat model whether passage supports sentence; return (verdict, reason).
    Only for a configured model: the offline default has no judge."""
    messages = [
        SystemMessage(JUDGE_SYSTEM),
        HumanMessage(JUDGE_TASK.format(passage=passage, sentence=sentence)),
    ]
    reply = chat_model.invoke(messages)
    return parse_judgement(_text_of(getattr(reply, "content", reply)))
