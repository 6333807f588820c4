"""The attribution benchmark's arithmetic and its claim builders, on hand-made claims."""

from __future__ import annotations

from bench.attribution import best_scores, curve, flag_rates
from bench.attribution_data import gold_sentence, numbers, restate
from bench.local_model import render, summarize

PASSAGE = "Rollo swore fealty to King Charles III of West Francia after the siege of Chartres in 911."
OTHER = "Many birds migrate south in autumn to find food and warmer weather."


def claim(text: str, supports: list[bool], kind: str = "copied") -> dict:
    return {
        "source": "squad",
        "kind": kind,
        "claim": text,
        "evidence": [OTHER, PASSAGE],
        "supports": supports,
    }


CLAIMS = [
    claim(PASSAGE, [False, True]),  # copied: matched, rightly
    claim("Rollo swore fealty to King Charles III of West Francia in 912.", [False, False], "plausible"),
    claim("Birds fly south in autumn for food.", [True, False], "restated"),  # reworded: not matched at 0.9
]


def test_curve_counts_right_matches_over_matches_and_supported_claims() -> None:
    rows = best_scores(CLAIMS)
    assert [r[1:] for r in rows] == [(True, True), (False, False), (True, True)]
    at = {r["threshold"]: r for r in curve(rows, (0.5, 0.9))}
    assert (at[0.9]["matched"], at[0.9]["precision"], at[0.9]["recall"]) == (1, 1.0, 0.5)


def test_flag_rates_leave_plausible_claims_out() -> None:
    [row] = flag_rates(CLAIMS, (0.35,))
    assert row["pairs"] == [2, 2]  # the copied and the restated claim, two pieces each
    assert row["supported_flagged"] == 0.0 and row["unsupported_flagged"] == 1.0


def test_claim_builders() -> None:
    assert restate("In what country is Normandy located?", "France") == "Country is Normandy located: France."
    context = "The Normans came. They gave their name to Normandy. It is in France."
    assert gold_sentence(context, context.index("Normandy")) == "They gave their name to Normandy."
    assert numbers("$1,469,502 and 12.5% in 2015") == {"1469502", "12.5", "2015"}


def test_local_model_summary_shares_and_precisions() -> None:
    row = {
        "sentences": 4,
        "cited": 1,
        "matched": 2,
        "unsourced": 1,
        "flagged": 0,
        "markers": 2,
        "unresolved": 1,
        "cited_right": [True],
        "matched_right": [True, False],
        "failed": False,
    }
    s = summarize({"label": "m at u", "rows": [row, {**row, "cited_right": [False]}], "seconds": 60.0})
    assert (s["answers_per_minute"], s["cited_share"], s["matched_share"], s["unsourced_share"]) == (
        2.0,
        0.25,
        0.5,
        0.25,
    )
    assert (s["cited_precision"], s["matched_precision"], s["dangling_rate"]) == (0.5, 0.5, 0.5)
    assert "| matched by Footnote | 0.5 |" in render(s, (1.0, 2.0))
