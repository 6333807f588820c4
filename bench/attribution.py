"""`python -m bench attribution`: the thresholds of rag.answering.attribution, as precision/recall curves.

Claims and their labelled evidence come from bench/attribution_data.py (squad-dev and
filings-dev, built from ../shared/corpus at run time). For each claim the best piece of its
evidence by support().phrase is the match; a match is right when that piece supports the claim.
Precision = right matches / matches; recall = right matches / claims that some piece supports.
For the flag, every (claim, piece) pair of an answerable claim is a citation a model might have
made: how many supported pairs support().words would flag (false flags), and how many unsupported
pairs it catches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bench.attribution_data import build
from bench.common import ROOT
from rag.answering.attribution import FLAG_BELOW, MATCH_MIN, MIN_WORDS, claim_text, support
from rag.text import tokenize

CACHE = ROOT / "bench" / "out"
SQUAD_SAMPLE = 300
QUICK_SAMPLE = 20
MATCH_STEPS = tuple(x / 100 for x in range(50, 101, 5))
FLAG_STEPS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6)


class _Piece:
    """The one field of Evidence that best_match reads."""

    def __init__(self, text: str) -> None:
        self.text = text


def _claim(item: dict[str, Any]) -> str:
    return claim_text(item["claim"], 0, len(item["claim"]), [])


def best_scores(claims: Sequence[dict[str, Any]]) -> list[tuple[float, bool, bool]]:
    """Per claim: (best phrase score, whether that piece supports it, whether any piece does)."""
    rows = []
    for item in claims:
        text = _claim(item)
        if len(set(tokenize(text))) < MIN_WORDS or not item["evidence"]:
            rows.append((0.0, False, any(item["supports"])))
            continue
        scores = [support(text, passage).phrase for passage in item["evidence"]]
        best = max(range(len(scores)), key=lambda i: (scores[i], -i))
        rows.append((scores[best], item["supports"][best], any(item["supports"])))
    return rows


def curve(
    rows: Sequence[tuple[float, bool, bool]], steps: Sequence[float] = MATCH_STEPS
) -> list[dict[str, Any]]:
    """Matches, precision and recall at each threshold."""
    positives = sum(r[2] for r in rows)
    out = []
    for t in steps:
        chosen = [r for r in rows if r[0] >= t]
        right = sum(r[1] for r in chosen)
        out.append(
            {
                "threshold": t,
                "matched": len(chosen),
                "precision": round(right / len(chosen), 3) if chosen else None,
                "recall": round(right / positives, 3) if positives else None,
            }
        )
    return out


def flag_rates(claims: Sequence[dict[str, Any]], steps: Sequence[float] = FLAG_STEPS) -> list[dict[str, Any]]:
    """Share of supported and of unsupported (claim, piece) pairs flagged at each threshold."""
    supported, unsupported = [], []
    for item in claims:
        text = _claim(item)
        if item["kind"] == "plausible" or len(set(tokenize(text))) < MIN_WORDS:
            continue
        for passage, label in zip(item["evidence"], item["supports"]):
            (supported if label else unsupported).append(support(text, passage).words)
    return [
        {
            "threshold": t,
            "supported_flagged": round(sum(s < t for s in supported) / len(supported), 3)
            if supported
            else None,
            "unsupported_flagged": round(sum(s < t for s in unsupported) / len(unsupported), 3)
            if unsupported
            else None,
            "pairs": [len(supported), len(unsupported)],
        }
        for t in steps
    ]


def measure(claims: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Curves per corpus and per kind of claim, and the flag rates per corpus."""
    out: dict[str, Any] = {}
    for source in ("squad", "filings"):
        mine = [c for c in claims if c["source"] == source]
        kinds = sorted({c["kind"] for c in mine})
        out[source] = {
            "claims": len(mine),
            "supported": sum(any(c["supports"]) for c in mine),
            "curve": curve(best_scores(mine)),
            "kinds": {k: curve(best_scores([c for c in mine if c["kind"] == k])) for k in kinds},
            "kind_counts": {k: sum(c["kind"] == k for c in mine) for k in kinds},
            "flags": flag_rates(mine),
        }
    return out


def _cells(row: dict[str, Any]) -> str:
    return f"{row['matched']} | {row['precision']} | {row['recall']}"


def render(result: dict[str, Any]) -> str:
    """The README section."""
    squad, filings = result["squad"], result["filings"]
    lines = [
        f"Claims: squad-dev {squad['claims']} ({squad['kind_counts']}; {squad['supported']} supported by "
        f"some piece of their k=6 evidence), filings-dev {filings['claims']} ({filings['kind_counts']}; "
        f"{filings['supported']} supported). In use: MATCH_MIN {MATCH_MIN}, FLAG_BELOW {FLAG_BELOW}, "
        f"MIN_WORDS {MIN_WORDS} (rag/answering/attribution.py).",
        "",
        "| phrase >= | squad-dev matched | precision | recall | filings-dev matched | precision | recall |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for a, b in zip(squad["curve"], filings["curve"]):
        mark = " **(in use)**" if a["threshold"] == MATCH_MIN else ""
        lines.append(f"| {a['threshold']}{mark} | {_cells(a)} | {_cells(b)} |")
    lines += ["", "Per kind of claim, precision / recall at each threshold:", ""]
    lines += ["| kind | " + " | ".join(str(t) for t in MATCH_STEPS[::2]) + " |"]
    lines += ["|---|" + "---:|" * len(MATCH_STEPS[::2])]
    for source in ("squad", "filings"):
        for kind, rows in result[source]["kinds"].items():
            cells = " | ".join(f"{r['precision']} / {r['recall']}" for r in rows[::2])
            lines.append(f"| {source} {kind} | {cells} |")
    lines += [
        "",
        "Flags (support().words below the threshold): share of supported / unsupported (claim, piece) pairs flagged",
        "",
        "| words < | squad-dev supported | unsupported | filings-dev supported | unsupported |",
        "|---:|---:|---:|---:|---:|",
    ]
    for a, b in zip(squad["flags"], filings["flags"]):
        mark = " **(in use)**" if a["threshold"] == FLAG_BELOW else ""
        lines.append(
            f"| {a['threshold']}{mark} | {a['supported_flagged']} | {a['unsupported_flagged']} | "
            f"{b['supported_flagged']} | {b['unsupported_flagged']} |"
        )
    pairs_squad, pairs_filings = squad["flags"][0]["pairs"], filings["flags"][0]["pairs"]
    lines += ["", f"(pairs supported / unsupported: squad-dev {pairs_squad}, filings-dev {pairs_filings})"]
    return "\n".join(lines)


def run(quick: bool = False) -> dict[str, Any]:
    """Build (or read the cached) claims, measure, render."""
    claims = build(QUICK_SAMPLE if quick else SQUAD_SAMPLE, None if quick else CACHE)
    result = measure(claims)
    return {**result, "markdown": render(result)}


if __name__ == "__main__":
    print(run()["markdown"])
