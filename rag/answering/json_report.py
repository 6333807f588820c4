"""An answer as the one JSON object ``ask --json`` prints (the command line's documented keys) and
bench.snapshot compares question by question: its text, footnotes with their sources, flags,
what was retrieved and the metrics. One way only; saved turns use rag.stores.serialize."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from rag.retrieval.documents import drew_on
from rag.types import Answer, Evidence, Footnote


def evidence_json(item: Evidence) -> dict[str, Any]:
    """The per-source fields: where the passage is, its text and score."""
    return {
        "short_id": item.short_id,
        "doc_id": item.doc_id,
        "file": item.file_name,
        "title": item.title,
        "page_index": item.page_index,
        "page_label": item.page_label,
        "page_end_index": item.page_end_index,
        "char_start": item.char_start,
        "char_end": item.char_end,
        "text": item.text,
        "score": item.score,
        "ocr_confidence": item.ocr_confidence,  # None unless a page of it was read by OCR
        "sections": list(item.sections),  # the section paths of its chunk, the first where it starts
        **({"cell": asdict(item.cell)} if item.cell is not None else {}),  # an operand's cell of a chunk
    }


def footnote_json(footnote: Footnote, text: str) -> dict[str, Any]:
    """One footnote: its number, kind ("cited" by the model or only "matched" by Footnote), the
    sentences Footnote matched to it, and its source."""
    matched = [{"sentence": text[m.start : m.end], "score": m.score} for m in footnote.matches]
    return {
        "n": footnote.number,
        "kind": footnote.kind,
        "matched": matched,
        **evidence_json(footnote.evidence),
    }


def computed_json(answer: Answer) -> dict[str, Any]:
    """The figure the answer computed: formula, operands (each with its footnote's number), result, unit."""
    assert answer.computed is not None
    numbers = {f.short_id: f.number for f in answer.footnotes}
    data = answer.computed.to_dict()
    data["operands"] = [{**o, "footnote": numbers.get(o["short_id"])} for o in data["operands"]]
    return data


def answer_json(answer: Answer) -> dict[str, Any]:
    """The --json object (`computed` only when the answer gives a computed figure)."""
    computed = {"computed": computed_json(answer)} if answer.computed is not None else {}
    return {
        "answer": answer.text,
        "unsupported": answer.unsupported,
        "closest": answer.closest,
        "footnotes": [footnote_json(f, answer.text) for f in answer.footnotes],
        "flagged": [
            {"sentence": answer.text[g.start : g.end], "footnotes": list(g.numbers), "score": g.score}
            for g in answer.flags
        ],
        "unresolved": list(answer.unresolved),
        "retrieved": [evidence_json(e) for e in answer.evidence],
        "documents": [{"doc_id": doc_id, "title": title} for doc_id, title in drew_on(answer)],
        "metrics": answer.metrics.to_dict(),
        "interrupted": answer.interrupted,
        "error": answer.error,
        "words_only": list(answer.words_only),
        **computed,
    }
