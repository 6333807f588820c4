"""The answering vocabulary: evidence, citation spans and events, footnotes, answers, turns (the stream's events are in rag/answering/events.py; a computed figure's cells and record in rag/compute/figures.py)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ingest.types import PageLocator
from rag.compute.figures import Cell, Computed, ComputedOperand

__all__ = [
    "Answer",
    "AnswerMetrics",
    "Cell",
    "CitationEvent",
    "CitationSpan",
    "Computed",
    "ComputedOperand",
    "Evidence",
    "Flag",
    "Footnote",
    "Match",
    "Resolution",
    "Turn",
]


@dataclass(frozen=True)
class Evidence:
    """One retrieved chunk that an answer may cite, under its short id, with its page locators
    (or one cell of a chunk, an operand of a computed figure: ``cell``)."""

    short_id: str
    chunk_id: str
    doc_id: str
    title: str
    file_name: str
    text: str
    # its cosine with the question (a library search hit's: its BM25 score); None when not measured:
    # a passage of a document searched by words only, whose vectors are still being embedded
    score: float | None
    locators: tuple[PageLocator, ...]
    context: str = ""  # the chunk's section/table title and column header line (not on the page here)
    cell: Cell | None = None  # set when this evidence is one table cell of the chunk chunk_id
    # the section paths of the chunk ("PART I > Item 3. Legal Proceedings": ingest.pdf.sections), the
    # one it starts in first, then each it enters; () when its document has none read (shown in the
    # panel; not given to the model)
    sections: tuple[str, ...] = ()

    @property
    def page_index(self) -> int:
        return self.locators[0].page_index

    @property
    def page_label(self) -> str:
        return self.locators[0].page_label

    @property
    def page_end_index(self) -> int:
        return self.locators[-1].page_index

    @property
    def page_end_label(self) -> str:
        return self.locators[-1].page_label

    @property
    def ocr_confidence(self) -> float | None:
        """The lowest OCR confidence of the pages it sits on that were read by OCR; None when none was."""
        found = [loc.ocr_confidence for loc in self.locators if loc.ocr_confidence is not None]
        return min(found) if found else None

    @property
    def char_start(self) -> int:
        """Offset into the start page's text."""
        return self.locators[0].char_start

    @property
    def char_end(self) -> int:
        """Offset into the end page's text (exclusive)."""
        return self.locators[-1].char_end

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: the fields plus the flattened page fields the CLI prints."""
        data = asdict(self)
        data["locators"] = [asdict(loc) for loc in self.locators]
        data.update(
            page_index=self.page_index,
            page_label=self.page_label,
            page_end_index=self.page_end_index,
            char_start=self.char_start,
            char_end=self.char_end,
        )
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Evidence:
        """Inverse of to_dict (extra flattened keys are ignored)."""
        return cls(
            short_id=data["short_id"],
            chunk_id=data["chunk_id"],
            doc_id=data["doc_id"],
            title=data["title"],
            file_name=data["file_name"],
            text=data["text"],
            score=None if data["score"] is None else float(data["score"]),
            locators=tuple(PageLocator(**loc) for loc in data["locators"]),
            context=data.get("context", ""),
            cell=Cell(**data["cell"]) if data.get("cell") else None,
            sections=tuple(data.get("sections", ())),
        )


@dataclass(frozen=True)
class CitationSpan:
    """One cited id in the raw answer text. [start, end) covers the brackets for a single-id
    bracket and just the id inside a grouped one; [group_start, group_end) is always the bracket."""

    id: str
    start: int
    end: int
    group_start: int
    group_end: int


@dataclass(frozen=True)
class CitationEvent:
    """A citation marker reported by CitationStream, once, when its closing bracket is confirmed."""

    id: str
    start: int
    end: int
    group_start: int
    group_end: int
    first: bool

    @property
    def span(self) -> CitationSpan:
        return CitationSpan(self.id, self.start, self.end, self.group_start, self.group_end)


@dataclass(frozen=True)
class Match:
    """A sentence of the answer that the model left uncited and Footnote attributed to a piece of
    evidence (rag.answering.attribution): [start, end) in the answer text, and the support score."""

    start: int
    end: int
    score: float


@dataclass(frozen=True)
class Footnote:
    """A footnote: its number, the evidence, every span of the model citing it (numbered by first
    appearance), and the uncited sentences Footnote matched to it (numbered after the model's)."""

    number: int
    short_id: str
    evidence: Evidence
    spans: tuple[CitationSpan, ...]
    matches: tuple[Match, ...] = ()

    @property
    def kind(self) -> str:
        """ "cited" when the model cited it anywhere, "matched" when only Footnote's matching did."""
        return "cited" if self.spans else "matched"


@dataclass(frozen=True)
class Flag:
    """A sentence the model cited whose cited passages the support check finds do not support it:
    [start, end) in the answer text, the footnote numbers it cites and the best support score."""

    start: int
    end: int
    numbers: tuple[int, ...]
    score: float


@dataclass(frozen=True)
class Resolution:
    """Citations of one text mapped onto an evidence table."""

    footnotes: tuple[Footnote, ...]
    unresolved: tuple[str, ...]  # distinct ids not in the table, by first appearance
    unresolved_spans: tuple[CitationSpan, ...]

    @property
    def markers(self) -> int:
        return sum(len(f.spans) for f in self.footnotes) + len(self.unresolved_spans)


@dataclass(frozen=True)
class AnswerMetrics:
    """Citation quality of one answer."""

    sentences: int = 0
    cited_sentences: int = 0  # cited by the model (at least one resolved marker)
    markers: int = 0
    unresolved_markers: int = 0
    matched_sentences: int = 0  # left uncited by the model, matched by Footnote to one piece
    flagged_sentences: int = 0  # cited by the model, but the cited passages do not support them

    @property
    def unsourced_sentences(self) -> int:
        """Sentences with content that carry no footnote of either kind."""
        return self.sentences - self.cited_sentences - self.matched_sentences

    @property
    def coverage(self) -> float:
        """Sentences with at least one valid citation of the model / sentences with content."""
        return self.cited_sentences / self.sentences if self.sentences else 0.0

    @property
    def footnoted_coverage(self) -> float:
        """Sentences with a footnote of either kind (cited or matched) / sentences with content."""
        return (self.cited_sentences + self.matched_sentences) / self.sentences if self.sentences else 0.0

    @property
    def dangling_rate(self) -> float:
        """Unresolved markers / all markers."""
        return self.unresolved_markers / self.markers if self.markers else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "unsourced_sentences": self.unsourced_sentences,
            "coverage": self.coverage,
            "footnoted_coverage": self.footnoted_coverage,
            "dangling_rate": self.dangling_rate,
        }


@dataclass(frozen=True)
class Answer:
    """A finished answer: text, footnotes, unresolved ids, the whole evidence table and metrics."""

    question: str
    text: str
    footnotes: tuple[Footnote, ...]
    unresolved: tuple[str, ...]
    evidence: tuple[Evidence, ...]
    metrics: AnswerMetrics = field(default_factory=AnswerMetrics)
    unsupported: bool = False
    interrupted: bool = False
    provider: str = ""
    error: str | None = None
    closest: bool = False  # the answerer quoted the closest passages: related, but no direct answer
    unresolved_spans: tuple[CitationSpan, ...] = ()  # every marker whose id is not in the evidence
    flags: tuple[
        Flag, ...
    ] = ()  # cited sentences the support check finds unsupported (rag.answering.attribution)
    # One line per document it drew on that was searched by words only, its vectors still being
    # embedded when it was asked ("words only for <title>: vectors 40% done"; rag/retrieval/pending.py).
    words_only: tuple[str, ...] = ()
    computed: Computed | None = None  # the figure computed from cited cells, when one was given

    @property
    def spans(self) -> tuple[CitationSpan, ...]:
        """Every citation in the text, resolved or not, in text order (parsed once, by the stream)."""
        every = [s for f in self.footnotes for s in f.spans] + list(self.unresolved_spans)
        return tuple(sorted(every, key=lambda s: (s.group_start, s.start)))

    @property
    def marker_groups(self) -> tuple[tuple[int, int], ...]:
        """The distinct bracket ranges [start, end) of the text's citation markers, in text order."""
        return tuple(sorted({(s.group_start, s.group_end) for s in self.spans}))

    @property
    def uncited(self) -> tuple[Evidence, ...]:
        """Evidence that was retrieved and given to the model but not cited (nor matched)."""
        cited = {f.short_id for f in self.footnotes}
        return tuple(e for e in self.evidence if e.short_id not in cited)


@dataclass(frozen=True)
class Turn:
    """One saved question and answer in a conversation, with its evidence snapshot."""

    turn_id: str
    conv_id: str
    index: int
    answer: Answer
    created_at: str = ""
