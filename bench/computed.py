"""Judging computed figures (issue 39): an answer's `computed.result` against a question's gold
figure. A figure is correct when it equals the gold at the gold's rounding, or lies within 0.5% of
it; a percentage and the same fraction are one figure (18.0% and 0.18, FinanceBench writes some
ratios as fractions). No figure given (a refusal, or no figure read) is neither correct nor wrong:
a wrong figure stated is the outcome measured on its own, over all computed questions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from rag.types import Answer

TOLERANCE = Decimal("0.005")  # within 0.5% of the gold figure (issue 39)


def gold_figure(text: str) -> str | None:
    """The figure in a gold answer as written ("$1832.00", "65.4%", "0.66"), as a decimal string."""
    found = re.search(r"-?\d[\d,]*(?:\.\d+)?", text.replace("$", ""))
    return found.group(0).replace(",", "") if found else None


def figure_matches(result: str, unit: str, gold: str) -> bool:
    """Whether a computed result is the gold figure (see the module docstring)."""
    try:
        value, target = Decimal(result), Decimal(gold)
    except InvalidOperation:
        return False
    places = Decimal(1).scaleb(target.as_tuple().exponent) if target.as_tuple().exponent < 0 else Decimal(1)
    forms = [value, value / 100] if unit == "%" else [value, value * 100] if unit == "ratio" else [value]
    for form in forms:
        if form.quantize(places, rounding=ROUND_HALF_UP) == target:
            return True
        if target != 0 and abs((form - target) / target) <= TOLERANCE:
            return True
    return False


def judge_figure(question: dict[str, Any], answer: Answer) -> str | None:
    """ "correct", "wrong" or "none" (no figure given) for a question with a gold figure; else None."""
    gold = question.get("gold_result")
    if gold is None:
        return None
    if answer.computed is None:
        return "none"
    return "correct" if figure_matches(answer.computed.result, answer.computed.unit, str(gold)) else "wrong"


def summarize_figures(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Over the rows with a gold figure: how many, and the shares given, correct and wrong."""
    judged = [r for r in rows if r.get("figure") is not None]
    if not judged:
        return {"computed": 0}
    n = len(judged)

    def share(kind: str) -> float:
        return round(sum(r["figure"] == kind for r in judged) / n, 3)

    return {
        "computed": n,
        "figure_given": round(sum(r["figure"] != "none" for r in judged) / n, 3),
        "figure_correct": share("correct"),
        "figure_wrong": share("wrong"),
        "wrong_ids": sorted(r["id"] for r in judged if r["figure"] == "wrong"),
    }


def figures_by_group(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """summarize_figures for all computed questions and per source (FinanceBench's, ours)."""
    out = {"all": summarize_figures(rows)}
    for source in sorted({r.get("group", "").split(" ")[0] for r in rows if r.get("figure") is not None}):
        out[source] = summarize_figures([r for r in rows if r.get("group", "").startswith(source)])
    return out


def render_figures(
    figures: dict[str, dict[str, Any]], baseline: dict[str, dict[str, Any]] | None = None
) -> list[str]:
    """A markdown table of the computed figures (ours, and the dense baseline's beside them)."""
    if not figures or not figures.get("all", {}).get("computed"):
        return []
    lines = [
        "| computed questions | n | figure given: ours / dense | correct: ours / dense | wrong figure stated: ours / dense |",
        "|---|---:|---:|---:|---:|",
    ]
    for group, row in figures.items():
        other = (baseline or {}).get(group, {})
        cells = " | ".join(
            f"{row.get(k)} / {other.get(k)}" for k in ("figure_given", "figure_correct", "figure_wrong")
        )
        lines.append(f"| {group} | {row['computed']} | {cells} |")
    wrong = figures["all"].get("wrong_ids")
    if wrong:
        lines.append(f"\nWrong figures stated (ours): {', '.join(wrong)}.")
    return lines
