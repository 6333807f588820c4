"""The README section of `python -m bench answer_check`: before and after, rule by rule, the curve."""

from __future__ import annotations

from typing import Any

from bench.answer_check import FIGURES, NAMES


def _cell(value: Any) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _before_after(sets: list[dict[str, Any]]) -> list[str]:
    lines = ["| set | questions (not answerable) | " + " | ".join(label for _, label in FIGURES) + " |"]
    lines.append("|---|---:|" + "---:|" * len(FIGURES))
    for s in sets:
        before, after = s["variants"]["before: no check"], s["variants"]["after: every rule"]
        cells = " | ".join(f"{_cell(before[k])} → **{_cell(after[k])}**" for k, _ in FIGURES)
        lines.append(f"| {s['name']} | {s['questions']} ({s['unanswerable']}) | {cells} |")
    return lines


def _by_rule(sets: list[dict[str, Any]]) -> list[str]:
    head = " | ".join(s["name"] for s in sets)
    lines = [f"| rules | {head} |", "|---|" + "---|" * len(sets)]
    labels = ["before: no check", *(f"{r} alone" for r in NAMES), *(f"all but {r}" for r in NAMES)]
    for label in [*labels, "after: every rule"]:
        cells = []
        for s in sets:
            v = s["variants"].get(label)
            if v is None:
                cells.append("(not run)")
                continue
            cells.append(
                f"{_cell(v['answered_unanswerable'])} / {_cell(v['declined_answerable'])} / "
                f"{_cell(v['answered_off_gold'])}"
            )
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def _curve(sets: list[dict[str, Any]], thresholds: list[float]) -> list[str]:
    with_curve = [s for s in sets if s["curve"]]
    head = " | ".join(f"{s['name']}: {mode}" for s in with_curve for mode in s["curve"])
    lines = [f"| threshold | {head} |", "|---:|" + "---|" * sum(len(s["curve"]) for s in with_curve)]
    for i, t in enumerate(thresholds):
        cells = [
            f"{_cell(points[i]['declined_answerable'])} / {_cell(points[i]['answered_unanswerable'])}"
            for s in with_curve
            for points in s["curve"].values()
        ]
        lines.append(f"| {t:.2f} | " + " | ".join(cells) + " |")
    return lines


def render(result: dict[str, Any], plotted: bool = True) -> str:
    """Markdown: the figures before and after, each rule alone and left out, the support curve."""
    sets = result["sets"]
    intro = (
        f"Each question retrieved once (ours, k={result['k']}), then answered by the offline extractive "
        "answerer without the check (before) and with it (after, rag/offline/check.py), rule by rule. "
        "The first rules were tuned on squad-dev's seed-0 sample and checked on the seed-1 sample; the "
        "denied, moved and inserted rules were read off the three samples' failures (seeds 0, 1 and 2), "
        "so the checks for them are the rest of squad-dev (every question in no sample: the same three "
        "articles, other questions), filings-dev and the generated filings. The reversed rule, the "
        "sentence end as swapped's neighbour and denied without articles (2026-12-02) were read off the "
        "Normans and Computational complexity questions only; Southern California's questions, "
        "filings-dev and the generated filings check them. The label rule (a row answers only for the "
        "line its label names; 2026-12-02, late) was read off filings-dev's confident quotes of the "
        "wrong row; the generated filings and squad-dev check it. A decline quotes the closest passages (three "
        "since 2026-12-02: the filings-dev row's before column has them too), cited, so the evidence "
        "page can still be cited and the gold text still quoted. Since the evening of 2026-12-02 (both "
        "columns) evidence close to the question in meaning though not in words gets the closest "
        'passages instead of "not in the documents", and the third closest passage is the closest by '
        "meaning among every unit holding a question word (rag.offline.extractive: MIN_DENSE, "
        "BY_WORDS); the off-topic rows are 20 questions we wrote about "
        "other things (bench.answer_check.OFF_TOPIC). The outranked and opposite rules (2026-12-03: "
        '"the second busiest port" for "the busiest port", "revenue increased" for "revenue decrease") '
        "were read off squad-dev's three articles; the wording rows check them: traps we wrote on "
        "filings-dev's PDFs, each beside an answerable twin with the same wording "
        "(bench/filings_dev/wording_questions.jsonl). The recounted, elsewhere and echoed rules (later "
        'on 2026-12-03: "11 megaregions" for "the 10 megaregions", "To the east" for "to the south", a '
        "quote of the question's own words) were read off Southern California's questions, so that "
        "article is no check for them; the wording rows (16 traps, 17 twins by then) are. The "
        "only-dated rule (a quote meeting a dated question on its date and names alone) was read off "
        "the Normans questions; filings-dev and the generated filings check it. The renamed rule "
        '("as English" for "as French") was read off the Normans questions; Southern California\'s '
        "check it. The quoted rule (a phrase the question puts in quotation marks, word for word) "
        "was read off Computational complexity's questions; the Normans' and Southern California's "
        "check it (no other set quotes). The compared rule (the asked year only as what the quote's "
        'own year is compared with: "increased 14% compared to 2016" for 2016) was read off one '
        "filings-dev quote; the wording rows fw-034 to fw-037 (2 traps, 2 twins) check it. Since "
        "2026-12-03 (both columns) retrieval that "
        "holds a name the question gives counts as related, so such a question gets the closest passages "
        'rather than "not in the documents" (rag.retrieval.retrieve: Retrieval.is_relevant).'
    )
    parts = [intro, "", *_before_after(sets), ""]
    parts += [
        "Each rule alone and left out: unanswerable answered as if answerable / answerable declined / "
        "answered citing no evidence page (lower is better for all three; the second is the cost).",
        "",
        *_by_rule(sets),
        "",
        f"The support threshold (MIN_SUPPORT = {result['min_support']}), as it moves: answerable declined / "
        "unanswerable answered, with the support rule alone and with the other rules on.",
        "",
    ]
    if plotted:
        parts += ["![Trade-off: answerable declined against unanswerable answered](answer_check.png)", ""]
    parts += _curve(sets, result["thresholds"])
    return "\n".join(parts)
