"""The README section of `python -m bench check_rules`: the check with every rule and with none per
set, each rule's effect per set, which rules help a set they were not read off, and the answers
each rule that helps nowhere else changes."""

from __future__ import annotations

from typing import Any

from bench.check_rules import FIGURES, helps
from rag.offline.rules.table import RULES, Effect

READ_OFF = {rule.name: rule.read_off for rule in RULES}


def effects(result: dict[str, Any]) -> dict[str, tuple[Effect, ...]]:
    """Each rule's effects as rag.offline.rules.table writes them: the sets where it changed an answer."""
    return {
        rule.name: tuple(
            Effect(s["name"], **s["effects"][rule.name])
            for s in result["sets"]
            if any(s["effects"][rule.name].values())
        )
        for rule in RULES
    }


def verdict(result: dict[str, Any], rule: str) -> str:
    """Where the rule helps (caught more unanswerable questions than it declined answerable ones):
    the sets it was not read off, else only those it was read off, else none."""
    helped = [s["name"] for s in result["sets"] if helps(s["effects"][rule])]
    elsewhere = [name for name in helped if name not in READ_OFF[rule]]
    if elsewhere:
        return "helps " + ", ".join(elsewhere)
    return "**helps only where read off**" if helped else "**helps nowhere**"


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


def _cell(figures: dict[str, int], read_off: bool) -> str:
    if not any(figures.values()):
        return "·"
    text = " / ".join(f"{figures[k]:+d}" if k in ("cited", "gold") else str(figures[k]) for k in FIGURES)
    return f"_{text}_" if read_off else text


def _effects(result: dict[str, Any]) -> list[str]:
    sets = result["sets"]
    lines = [
        "| rule | " + " | ".join(s["name"] for s in sets) + " | |",
        "|---|" + "---:|" * len(sets) + "---|",
    ]
    for rule in RULES:
        cells = [_cell(s["effects"][rule.name], s["name"] in rule.read_off) for s in sets]
        lines.append(f"| {rule.name} | " + " | ".join(cells) + f" | {verdict(result, rule.name)} |")
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
        if verdict(result, rule.name).startswith("helps "):
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
        "(closest passages instead) / answers citing the evidence page it adds / answers holding the "
        "gold text it adds. In italics: a set the rule was read off. A rule helps a set when it keeps "
        "more unanswerable questions from being answered than it declines answerable ones there; a "
        "rule that helps only the sets it was read off goes (issue 41). The wording set "
        "(filings-dev: wording) was written to check the rules read off SQuAD on filings' language: "
        "traps with the SQuAD edit each rule catches, beside answerable twins."
    )
    parts = [intro, "", *_tallies(result["sets"]), "", legend, "", *_effects(result), ""]
    changes = _changes(result)
    if changes:
        parts += ["The answers changed by each rule that helps no set it was not read off:", "", *changes]
    return "\n".join(parts).rstrip()
