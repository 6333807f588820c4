"""The README section of `python -m bench check_rules`: the check with every rule and with none per
set, each rule's effect per set, which rules help a set they were not read off, and the answers
each rule that helps nowhere else changes."""

from __future__ import annotations

from typing import Any

from bench.check_rules import effect, helps
from rag.offline.rules.table import NOT_READ_OFF, RULES, SQUAD, Effect, Rule

SQUAD_NAMES = frozenset(SQUAD)


def _read_off_ids(result: dict[str, Any], rule: Rule) -> set[str]:
    groups = {s["name"]: s["ids"] for s in result["sets"]} | result["samples"]
    return {qid for group in rule.read_off for qid in groups.get(group, ())}


def measured(result: dict[str, Any], rule: Rule) -> list[tuple[str, dict[str, int], bool]]:
    """(set, the rule's effect there, whether the set holds no question the rule was read off) for
    every set, then squad-dev's questions of no set or sample it was read off (NOT_READ_OFF)."""
    taken = _read_off_ids(result, rule)
    found = [(s["name"], effect(s["changes"][rule.name]), not taken & set(s["ids"])) for s in result["sets"]]
    rest = [c for s in result["sets"] if s["name"] in SQUAD_NAMES for c in s["changes"][rule.name]]
    squad = {qid for s in result["sets"] if s["name"] in SQUAD_NAMES for qid in s["ids"]}
    if squad - taken:
        found.append((NOT_READ_OFF, effect([c for c in rest if c["id"] not in taken]), True))
    return found


def effects(result: dict[str, Any]) -> dict[str, tuple[Effect, ...]]:
    """Each rule's effects as rag.offline.rules.table writes them: the sets where it changed an answer."""
    return {
        rule.name: tuple(
            Effect(name, **figures) for name, figures, _ in measured(result, rule) if any(figures.values())
        )
        for rule in RULES
    }


def verdict(result: dict[str, Any], rule: Rule) -> str:
    """Where the rule helps (bench.check_rules.helps): the sets it was not read off, else only
    those it was read off, else none."""
    found = measured(result, rule)
    elsewhere = [name for name, figures, check in found if check and helps(figures)]
    if elsewhere:
        return "helps " + ", ".join(elsewhere)
    return "**helps only where read off**" if any(helps(f) for _, f, _ in found) else "**helps nowhere**"


def _share(count: int, total: int) -> str:
    return f"{count}/{total}" if total else "n/a"


def _tallies(sets: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| set | questions (unanswerable) | unanswerable answered | answerable declined | "
        "evidence page cited | answer holds the gold text |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for s in sets:
        none, every = s["tallies"]["no rule"], s["tallies"]["every rule"]
        cells = [
            f"{_share(none[k], none[n])} → **{_share(every[k], every[n])}**"
            for k, n in (
                ("unanswerable_answered", "unanswerable"),
                ("answerable_declined", "answerable"),
                ("cited", "answerable"),
                ("gold", "with_gold"),
            )
        ]
        lines.append(
            f"| {s['name']} | {every['questions']} ({every['unanswerable']}) | " + " | ".join(cells) + " |"
        )
    return lines


def _cell(figures: dict[str, int], check: bool) -> str:
    if not any(figures.values()):
        return "·"
    f = figures
    text = f"{f['caught']} / {f['declined']} ({f['wrong']}) / {f['cited']:+d} / {f['gold']:+d}"
    return text if check else f"_{text}_"


def _effects(result: dict[str, Any]) -> list[str]:
    names = [s["name"] for s in result["sets"]] + [NOT_READ_OFF]
    lines = ["| rule | " + " | ".join(names) + " | |", "|---|" + "---:|" * len(names) + "---|"]
    for rule in RULES:
        found = {name: _cell(figures, check) for name, figures, check in measured(result, rule)}
        cells = [found.get(name, "n/a") for name in names]
        lines.append(f"| {rule.name} | " + " | ".join(cells) + f" | {verdict(result, rule)} |")
    return lines


def _change(c: dict[str, Any]) -> str:
    """One question's change, with every rule -> without the rule."""
    if c["impossible"]:
        return f"unanswerable, {c['reply'][0]} → {c['reply'][1]}"
    text = f"answerable, {c['reply'][0]} → {c['reply'][1]}; evidence page cited {_yes(c['cited_gold'])}"
    return text if c["contains"][0] is None else f"{text}; gold text {_yes(c['contains'])}"


def _yes(pair: list[Any]) -> str:
    return " → ".join("yes" if v else "no" for v in pair)


def _changes(result: dict[str, Any]) -> list[str]:
    lines = []
    for rule in RULES:
        if verdict(result, rule).startswith("helps "):
            continue
        lines += [f"`{rule.name}` ({rule.catches}; read off {', '.join(rule.read_off)}), turned off:", ""]
        changed = [(s["name"], c) for s in result["sets"] for c in s["changes"][rule.name]]
        lines += [f"- {name}, `{c['id']}`: {_change(c)}" for name, c in changed] or ["- no answer changes"]
        lines.append("")
    return lines


def render(result: dict[str, Any]) -> str:
    """Markdown: the check per set, each rule's effect per set, the answers of the rules that help
    only where they were read off."""
    intro = (
        f"Every question retrieved once (k={result['k']}) and answered by the offline answerer with "
        "every rule of the answer check (rag/offline/rules/table.py), with none, and without each rule "
        "in turn, same retrieval. squad-dev by article (950 questions), filings-dev's five question "
        "files on one library of its 51 filings, the generated filings. The check with no rule → with "
        "every rule, in questions:"
    )
    legend = (
        "What each rule does (the check with every rule against the check without it), in questions: "
        "unanswerable ones it keeps from being answered as if answerable / answerable ones it declines "
        "(closest passages instead; in brackets those whose answer cited no evidence page and held no "
        "gold text: wrong answers it stops) / answers citing the evidence page it adds / answers "
        "holding the gold text it adds. In italics: a set holding questions the rule was read off (the "
        "first rules were read off squad-dev's 80-question samples, the later ones off whole "
        "articles; the last column is squad-dev without them). A rule helps a set when it stops more "
        "wrong answers (unanswerable or wrong) than it declines answerable questions whose answer was "
        "not wrong; a rule that helps only the sets it was read off goes (issue 41). The wording set "
        "(filings-dev: wording) was written to check the rules read off SQuAD on filings' language: "
        "traps with the SQuAD edit each rule catches, beside answerable twins."
    )
    parts = [intro, "", *_tallies(result["sets"]), "", legend, "", *_effects(result), ""]
    changes = _changes(result)
    if changes:
        parts += ["The answers changed by each rule that helps no set it was not read off:", "", *changes]
    return "\n".join(parts).rstrip()
