"""The README section of `python -m bench check_rules`: the check with every rule and with none per
set, each rule's effect per set, whether it helps a set it was not read off, and the rules that do
not, in the order they would go (each judged without the ones before it), with their answers. All
of it from the run's result: its rules (name, what it catches, read off) and its answers."""

from __future__ import annotations

from typing import Any

from bench.check_rules import NOT_READ_OFF, SQUAD, changes, effect, helps, tally

SQUAD_NAMES = frozenset(SQUAD)
Rule = dict[str, Any]  # one of a result's rules: name, catches, read_off (bench.check_rules.rules)


def every(result: dict[str, Any]) -> frozenset[str]:
    """The names of the run's rules: the check as shipped."""
    return frozenset(rule["name"] for rule in result["rules"])


def _read_off_ids(result: dict[str, Any], rule: Rule) -> set[str]:
    groups = {s["name"]: [r["id"] for r in s["rows"]] for s in result["sets"]} | result["samples"]
    return {qid for group in rule["read_off"] for qid in groups.get(group, ())}


def measured(
    result: dict[str, Any], rule: Rule, on: frozenset[str] | None = None
) -> list[tuple[str, list[dict[str, Any]], bool]]:
    """(set, the answers the rule changes there among the rules on, by default every rule, whether
    the set holds no question it was read off) for every set, then squad-dev's questions of no set
    or sample it was read off (NOT_READ_OFF)."""
    on = every(result) if on is None else on
    taken = _read_off_ids(result, rule)
    found = []
    for s in result["sets"]:
        check = not taken & {r["id"] for r in s["rows"]}
        found.append((s["name"], changes(s["rows"], on, rule["name"]), check))
    rest = [r for s in result["sets"] if s["name"] in SQUAD_NAMES for r in s["rows"] if r["id"] not in taken]
    if rest:
        found.append((NOT_READ_OFF, changes(rest, on, rule["name"]), True))
    return found


def effects(result: dict[str, Any]) -> dict[str, dict[str, dict[str, int]]]:
    """Each rule's effect (bench.check_rules.effect) on the sets where it changes an answer."""
    return {
        rule["name"]: {name: effect(c) for name, c, _ in measured(result, rule) if c}
        for rule in result["rules"]
    }


def verdict(result: dict[str, Any], rule: Rule, on: frozenset[str] | None = None) -> str:
    """Where the rule helps among the rules on (bench.check_rules.helps): the sets it was not read
    off, else only those it was read off, else none."""
    found = [(name, effect(c), check) for name, c, check in measured(result, rule, on)]
    elsewhere = [name for name, figures, check in found if check and helps(figures)]
    if elsewhere:
        return "helps " + ", ".join(elsewhere)
    return "**helps only where read off**" if any(helps(f) for _, f, _ in found) else "**helps nowhere**"


def eliminate(result: dict[str, Any]) -> list[tuple[Rule, list[tuple[str, list[dict[str, Any]], bool]]]]:
    """The rules that help no set they were not read off, one at a time, each judged without the
    ones before it: the one doing least on its own sets goes first. Each with what it changes."""
    on, gone = every(result), []
    while True:
        idle = [
            r for r in result["rules"] if r["name"] in on and not verdict(result, r, on).startswith("helps ")
        ]
        if not idle:
            return gone

        def benefit(rule: Rule, on: frozenset[str] = on) -> int:
            figures = [effect(c) for name, c, _ in measured(result, rule, on) if name != NOT_READ_OFF]
            return sum(f["caught"] + 2 * f["wrong"] + f["mended"] - f["declined"] for f in figures)

        rule = min(idle, key=benefit)
        gone.append((rule, measured(result, rule, on)))
        on = on - {rule["name"]}


def _share(count: int, total: int) -> str:
    return f"{count}/{total}" if total else "n/a"


def _tallies(sets: list[dict[str, Any]], on: frozenset[str]) -> list[str]:
    lines = [
        "| set | questions (unanswerable) | unanswerable answered | answerable declined | "
        "evidence page cited | answer holds the gold text |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for s in sets:
        none, all_on = tally(s["rows"], frozenset()), tally(s["rows"], on)
        cells = [
            f"{_share(none[k], none[n])} → **{_share(all_on[k], all_on[n])}**"
            for k, n in (
                ("unanswerable_answered", "unanswerable"),
                ("answerable_declined", "answerable"),
                ("cited", "answerable"),
                ("gold", "with_gold"),
            )
        ]
        lines.append(
            f"| {s['name']} | {all_on['questions']} ({all_on['unanswerable']}) | " + " | ".join(cells) + " |"
        )
    return lines


def _cell(changed: list[dict[str, Any]], check: bool) -> str:
    if not changed:
        return "·"
    f = effect(changed)
    text = f"{f['caught']} / {f['declined']} ({f['wrong']}) / {f['cited']:+d} / {f['gold']:+d}"
    text += f", {f['mended']:+d} mended" if f["mended"] else ""
    return text if check else f"_{text}_"


def _effects(result: dict[str, Any]) -> list[str]:
    names = [s["name"] for s in result["sets"]] + [NOT_READ_OFF]
    lines = ["| rule | " + " | ".join(names) + " | |", "|---|" + "---:|" * len(names) + "---|"]
    for rule in result["rules"]:
        found = {name: _cell(c, check) for name, c, check in measured(result, rule)}
        cells = [found.get(name, "n/a") for name in names]
        lines.append(f"| {rule['name']} | " + " | ".join(cells) + f" | {verdict(result, rule)} |")
    return lines


def _change(c: dict[str, Any]) -> str:
    """One question's change, with the rule -> without it."""
    if c["impossible"]:
        return f"unanswerable, {c['reply'][0]} → {c['reply'][1]}"
    text = f"answerable, {c['reply'][0]} → {c['reply'][1]}; evidence page cited {_yes(c['cited'])}"
    return text if c["contains"][0] is None else f"{text}; gold text {_yes(c['contains'])}"


def _yes(pair: list[Any]) -> str:
    return " → ".join("yes" if v else "no" for v in pair)


def _gone(result: dict[str, Any]) -> list[str]:
    lines = []
    for rule, found in eliminate(result):
        read_off = ", ".join(rule["read_off"])
        lines += [f"`{rule['name']}` ({rule['catches']}; read off {read_off}), turned off:", ""]
        shown = [(name, c) for name, changed, _ in found if name != NOT_READ_OFF for c in changed]
        lines += [f"- {name}, `{c['id']}`: {_change(c)}" for name, c in shown] or ["- no answer changes"]
        lines.append("")
    return lines


def render(result: dict[str, Any]) -> str:
    """Markdown: the check per set, each rule's effect per set, the rules that would go."""
    intro = (
        f"Every question retrieved once (k={result['k']}) and answered by the offline answerer with "
        "every rule of the answer check (rag/offline/rules/table.py) and with none, and where those "
        "differ with each rule alone (which rules fail its best quote), same retrieval. squad-dev by "
        "article (950 questions), filings-dev's seven question files on one library of its 51 filings, "
        "the generated filings. The check with no rule → with every rule, in questions:"
    )
    legend = (
        "What each rule does (the check with every rule against the check without it), in questions: "
        "unanswerable ones it keeps from being answered as if answerable / answerable ones it declines "
        "(closest passages instead; in brackets those whose answer cited no evidence page and held no "
        "gold text: wrong answers it stops) / answers citing the evidence page it adds / answers "
        'holding the gold text it adds; "mended": answers it turns from wrong to one citing the '
        "evidence page or holding the gold text, the check taking another quote (negative: the other "
        "way). In italics: a set holding questions the rule was read off (the "
        "first rules were read off squad-dev's 80-question samples, the later ones off whole "
        "articles; the last column is squad-dev without them). A rule helps a set when it stops more "
        "wrong answers (unanswerable, wrong or mended) than it declines answerable questions whose answer was "
        "not wrong; a rule that helps only the sets it was read off goes (issue 41). The wording set "
        "(filings-dev: wording) was written to check the rules read off SQuAD on filings' language: "
        "traps with the SQuAD edit each rule catches, beside answerable twins. The structure set "
        "(filings-dev: structure) asks what a filing's organisation places (an auditor's report, legal "
        "proceedings, a cover, headcount, segments), on other filings than the rules on exhibit lists, "
        "covers and auditors' reports were read off. The obligations set (filings-dev: obligations) asks "
        "about contracts, debt and obligations, in a filing's body or the documents filed with it."
    )
    parts = [intro, "", *_tallies(result["sets"], every(result)), "", legend, "", *_effects(result), ""]
    gone = _gone(result)
    if gone:
        parts += [
            "The rules that help no set they were not read off, in the order they go (each judged "
            "without the ones before it), and the answers each changes:",
            "",
            *gone,
        ]
    else:
        parts.append("Every rule helps a set it was not read off.")
    return "\n".join(parts).rstrip()
