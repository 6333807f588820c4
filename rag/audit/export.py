"""Exports of the audit: every verdict with its context as CSV or JSON, and one answer as a
Markdown report with its footnotes written out (title, page label, quoted passage)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rag.audit.records import CitationRecord, RecordKey, SupportScore
from rag.audit.text import escape_report
from rag.stores.verdicts import VERDICT_LABELS, Verdict
from rag.types import Turn

COLUMNS = (
    "conv_id",
    "turn_id",
    "turn_index",
    "asked_at",
    "question",
    "footnote",
    "occurrence",
    "short_id",
    "kind",
    "flagged",
    "sentence",
    "document",
    "file_name",
    "doc_id",
    "page_label",
    "page_index",
    "chunk_text",
    "verdict",
    "note",
    "auto_score",
    "auto_level",
    "judged_at",
)
# Spreadsheets run cells that start like a formula (OWASP "CSV injection"): quote them.
_FORMULA_START = ("=", "+", "@", "\t", "\r", "-")


def _row(verdict: Verdict, record: CitationRecord | None, score: SupportScore | None) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(COLUMNS, "")
    row.update(
        turn_id=verdict.turn_id,
        footnote=verdict.number,
        occurrence=verdict.occurrence,
        short_id=verdict.short_id,
        verdict=verdict.verdict,
        note=verdict.note,
        judged_at=verdict.updated_at,
    )
    if record is not None:
        e = record.evidence
        row.update(
            conv_id=record.conv_id,
            turn_index=record.turn_index,
            asked_at=record.created_at,
            question=record.question,
            kind=record.kind,
            flagged=record.flagged,
            sentence=record.sentence,
            document=e.title,
            file_name=e.file_name,
            doc_id=e.doc_id,
            page_label=e.page_label,
            page_index=e.page_index,
            chunk_text=e.text,
        )
    if score is not None:
        row.update(auto_score=score.score, auto_level=score.level)
    return row


def verdict_rows(
    verdicts: Iterable[Verdict], records: Iterable[CitationRecord], scores: Mapping[RecordKey, SupportScore]
) -> list[dict[str, Any]]:
    """One row per verdict with its context; a verdict whose turn is gone keeps its own fields."""
    by_key = {r.key: r for r in records}
    return [_row(v, by_key.get(v.key), scores.get(v.key)) for v in verdicts]


def _cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def rows_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """Rows as CSV text with a header (RFC 4180 quoting; formula-like cells prefixed with ')."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: _cell(row.get(k, "")) for k in COLUMNS})
    return out.getvalue()


def rows_json(rows: Sequence[Mapping[str, Any]]) -> str:
    """Rows as a JSON array of objects, values as they are."""
    return json.dumps([{k: row.get(k, "") for k in COLUMNS} for row in rows], ensure_ascii=False, indent=2)


def _body(turn: Turn) -> str:
    """The answer text with each marker bracket turned into footnote references, Footnote's
    matches as references at the end of their sentences, and raw HTML neutralised; the model's own
    markdown formatting is kept."""
    answer = turn.answer
    numbers = {f.short_id: f.number for f in answer.footnotes}
    groups: dict[tuple[int, int], list[str]] = {}
    for span in answer.spans:
        ref = f"[^{numbers[span.id]}]" if span.id in numbers else f"\\[unresolved: {span.id}\\]"
        groups.setdefault((span.group_start, span.group_end), []).append(ref)
    for f in answer.footnotes:
        for m in f.matches:
            groups.setdefault((m.end, m.end), []).append(f"[^{f.number}]")
    out, last = [], 0
    for (start, end), refs in sorted(groups.items()):
        out += [answer.text[last:start], "".join(refs)]
        last = end
    out.append(answer.text[last:])
    return "".join(out).replace("<", "&lt;").replace(">", "&gt;")


def _quote(text: str) -> str:
    lines = [escape_report(line) for line in text.strip().splitlines() if line.strip()]
    return "\n".join("    > " + line for line in lines) or "    > (empty passage)"


def answer_markdown(turn: Turn, verdicts: Mapping[RecordKey, Verdict] | None = None) -> str:
    """One answer as a Markdown report: question, answer with footnote references, footnotes
    written out with title, page label and the quoted passage (and verdicts when given)."""
    answer = turn.answer
    lines = [f"## {escape_report(answer.question)}", "", _body(turn), ""]
    if answer.unresolved:
        lines += [f"*Unresolved citations: {escape_report(', '.join(answer.unresolved))}*", ""]
    for flag in answer.flags:
        cites = ", ".join(f"[^{n}]" for n in flag.numbers)
        sentence = escape_report(" ".join(answer.text[flag.start : flag.end].split()))
        lines += [f'*Flagged by the automatic check: {cites} hardly hold "{sentence}".*', ""]
    for f in answer.footnotes:
        e = f.evidence
        pages = e.page_label if e.page_end_label == e.page_label else f"{e.page_label}-{e.page_end_label}"
        title = escape_report(e.title or e.file_name)
        how = " Matched by Footnote (the model cited no source for it)." if f.kind == "matched" else ""
        lines.append(f"[^{f.number}]: *{title}*, page {escape_report(pages)}.{how}")
        for occurrence in range(len(f.spans)):
            v = (verdicts or {}).get((turn.turn_id, f.number, occurrence))
            if v is not None:
                note = f" ({escape_report(v.note)})" if v.note else ""
                lines.append(f"    Audit, citation {occurrence + 1}: {VERDICT_LABELS[v.verdict]}{note}.")
        lines += ["", _quote(e.text), ""]
    return "\n".join(lines).rstrip() + "\n"
