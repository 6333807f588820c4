"""Figures a question names rather than writes out (rag.compute.question): a standard metric of
the vocabulary (rag.questions.vocabulary), unqualified, with its formula and alternatives; a
growth rate, a CAGR or a metric's change in percentage points between the years it names. Also
the value both finders of formulas return (FigureText) and how a line item's words are taken out
of the question around them (item_words).
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from itertools import pairwise
from pathlib import Path

from rag.compute.formula import Expr, Num, Op, Ref, Term
from rag.questions.periods import (
    FILING,
    PERIOD_WORDS,
    WRITTEN_YEAR,
    Periods,
    carried,
    without,
    without_filing,
)
from rag.questions.vocabulary import FUNCTIONS, LineItem, Metric, load_vocabulary, phrase_words

_OWNER = re.compile(r"^.*(?:'s|’s|s'|s’)\s+", re.I)  # noqa: RUF001 (curly apostrophes)
_ASKING = re.compile(
    r"^(?:what(?:'s|\s+(?:is|was|were|are))?|how\s+much|compute|calculate|the|its|their|a|an|unadjusted)\s+",
    re.I,
)
# A metric qualified so that its standard formula is not what is asked ("operating margin before
# impairment losses", "adjusted EBITDA", "per share").
_QUALIFIED = re.compile(
    r"\b(?:before|excluding|exclude|ex-|adjusted|strip|stripping|without|pro\s+forma|non-gaap|organic|"
    r"underlying|segment|per\s+share)\b",
    re.I,
)


@dataclass(frozen=True)
class FigureText:
    """A formula found in a question: its name ("" when it has none), the expression over the
    terms, the unit its kind implies, and where it came from."""

    name: str
    formula: Expr
    terms: tuple[Term, ...]
    unit: str
    source: str
    alternatives: tuple[FigureText, ...] = ()  # a standard metric's common alternatives, in order
    one_page: bool = False  # a share of a whole, read from one table
    parts: tuple[tuple[str, Expr], ...] = ()  # each period's own figure of an average or a change


def item_words(phrase: str) -> str:
    """A line item's words as a question writes them around it, without its owner ("Adobe's"),
    its period ("FY2019", "Q2 2023") and the asking words."""
    words = _OWNER.sub("", " ".join(phrase.split()))
    words = PERIOD_WORDS.sub(" ", words)
    previous = None
    while previous != words:
        previous, words = words, _ASKING.sub("", words.strip(" ,"))
    return " ".join(words.split()).strip(" ,.?")


_GROWTH = [
    re.compile(
        rf"\b(?:year[- ]over[- ]year|yoy|y/y)\s+(?:change|growth|increase|decrease)\s+in\s+(?P<item>.+?)\s+from\s+{WRITTEN_YEAR}\s+to\s+{WRITTEN_YEAR}",
        re.I,
    ),
    re.compile(
        r"\bby\s+(?:how\s+much|what\s+(?:percentage|percent|%|rate))\s+did\s+(?P<item>.+?)\s+(?:grow|increase|decrease|decline|fall|rise|change)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:year[- ]over[- ]year|yoy|y/y|annual)\s+(?:growth|change)\s+(?:rate\s+)?(?:in|of)\s+(?P<item>.+?)(?:\s+(?:in|for|from)\b|\?|$)",
        re.I,
    ),
]
_CAGR = re.compile(
    rf"\b(?P<n>\d+|two|three|four|five)[- ]year\s+(?P<item>.+?)\s+cagr\s+from\s+{WRITTEN_YEAR}\s+to\s+{WRITTEN_YEAR}",
    re.I,
)
_POINTS = re.compile(
    rf"\bpercentage\s+points?\s+did\s+(?P<item>.+?)\s+change\s+from\s+{WRITTEN_YEAR}\s+to\s+{WRITTEN_YEAR}",
    re.I,
)
_N = {"two": 2, "three": 3, "four": 4, "five": 5}


_CHANGE = [
    re.compile(r"\b(?:change|difference)\s+in\s+(?P<item>.+?)\s+(?:from|between)\b", re.I),
    re.compile(
        r"\bhow\s+(?:much|many\s+(?:percentage\s+)?points)\s+did\s+(?P<item>.+?)\s+(?:change|move|shift)\b",
        re.I,
    ),
]


def change_text(core: str, periods: Periods, percent: bool = True) -> FigureText | None:
    """A growth rate ((X - prior X) / prior X), a CAGR, or a ratio's change between two years (the
    difference of the two years' figures, each computed); unless percent (the question asks a
    percentage), a line item's change is the amount X changed by. periods: the core's."""
    for pattern in (_POINTS, *_GROWTH, *_CHANGE):
        found = pattern.search(core)
        metric = named_metric(found["item"]) if found else None
        if found and metric is not None and metric.unit != "amount":
            written = found.groups()[1:3] if pattern in (_POINTS, _GROWTH[0]) else ()
            years = (int(written[0]), int(written[1])) if len(written) == 2 else _two_years(periods)
            return _metric_change(metric, *years) if years else None
    found = _CAGR.search(core)
    if found:
        item = item_words(found["item"])
        years = (int(found.group(3)), int(found.group(4)))
        n = int(found["n"]) if found["n"].isdigit() else _N[found["n"].lower()]
        grown = Op("^", Op("/", Ref(0), Ref(1)), Op("/", Num(Decimal(1)), Num(Decimal(n))))
        terms = (Term(item, years[1]), Term(item, years[0]))
        return FigureText(f"{item} CAGR", Op("-", grown, Num(Decimal(1))), terms, "%", "pattern")
    for pattern in _GROWTH:
        found = pattern.search(core)
        if found:
            item = item_words(found["item"])
            if not item:
                return None
            if found.lastindex and found.lastindex >= 3:
                terms = (Term(item, int(found.group(3))), Term(item, int(found.group(2))))
            else:
                terms = (Term(item), Term(item, back=1))
            if not percent:  # "by how much did X decrease": the amount it changed by
                return FigureText(f"change in {item}", Op("-", Ref(0), Ref(1)), terms, "amount", "pattern")
            expr = Op("/", Op("-", Ref(0), Ref(1)), Ref(1))
            return FigureText(f"{item} growth", expr, terms, "%", "pattern")
    return None


def _two_years(periods: Periods) -> tuple[int, int] | None:
    """The two years a change is between: a range's ends, else the first two years written."""
    if periods.ranges:
        _, low, high = periods.ranges[0]
        return low, high
    years = sorted(periods.years[:2])
    return (years[0], years[1]) if len(years) == 2 and years[0] != years[1] else None


def _metric_change(metric: Metric, earlier: int, later: int) -> FigureText:
    """A ratio's change from one year to another: the later year's figure less the earlier's, each
    its own part (a percentage's change is in percentage points)."""
    late, late_terms = _metric_expr(metric.formula, later)
    early, early_terms = _metric_expr(metric.formula, earlier, len(late_terms))
    unit = "ratio" if metric.unit == "times" else metric.unit
    return FigureText(
        f"change in {metric.names[0]}, FY{earlier} to FY{later}",
        Op("-", late, early),
        late_terms + early_terms,
        unit,
        "pattern",
        parts=((f"FY{later}", late), (f"FY{earlier}", early)),
    )


def named_metric(words: str) -> Metric | None:
    found = [m for m in load_vocabulary().metrics_named(words) if not m.parameter]
    return found[0] if found else None


def metric_text(core: str) -> FigureText | None:
    """A standard metric the question names, unqualified, with the vocabulary's formula."""
    metric = named_metric(core)
    if metric is None or _QUALIFIED.search(core):
        return None
    unit = "ratio" if metric.unit == "times" else metric.unit
    found = [
        FigureText(metric.names[0], *_metric_expr(f, None), unit, "metric")
        for f in (metric.formula, *metric.alternatives)
    ]
    return replace(found[0], alternatives=tuple(found[1:]))


def metric_formula(metric: Metric) -> tuple[Expr, tuple[Term, ...]]:
    """A metric's formula over its line items' terms, at the asked year (a metric inside another
    figure: EBITDA inside EBITDA margin)."""
    return _metric_expr(metric.formula, None)


def _metric_expr(formula: str, year: int | None, offset: int = 0) -> tuple[Expr, tuple[Term, ...]]:
    """A vocabulary formula as an expression: avg(x) is the mean of x and the year before's,
    prior(x) and begin(x) the year before's (a balance at the start of the year)."""
    terms: list[Term] = []

    def term(key: str, back: int) -> Ref:
        words = load_vocabulary().line_items[key].names[:1] or (key.replace("_", " "),)
        t = Term(words[0], None if year is None else year - back, 0 if year is not None else back)
        if t not in terms:
            terms.append(t)
        return Ref(offset + terms.index(t))

    def walk(node: ast.AST) -> Expr:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant):
            return Num(Decimal(str(node.value)))
        if isinstance(node, ast.Name):
            return term(node.id, 0)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS:
            key = node.args[0].id  # type: ignore[attr-defined]
            if node.func.id == "avg":
                return Op("/", Op("+", term(key, 0), term(key, 1)), Num(Decimal(2)))
            return term(key, 1)
        assert isinstance(node, ast.BinOp)
        ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
        return Op(ops[type(node.op)], walk(node.left), walk(node.right))

    return walk(ast.parse(formula, mode="eval")), tuple(terms)


_ASKS_AMOUNT = re.compile(r"^\s*(?:what|how\s+much)\b", re.I)
# What a question asking for one printed figure may hold besides the line item: how it asks, the
# period, the company's name (capitalised), where to read it and the unit (words in asking.toml).
ITEM_FILLER = frozenset(
    tomllib.loads(Path(__file__).with_name("asking.toml").read_text(encoding="utf-8"))["item"]["filler"]
)
# A row the vocabulary does not hold is asked by at most this many words ("provision for credit
# losses", "operation and maintenance expense"), with no adverb before a participle ("directly
# outlined in the income statement" is how the question asks, not a label; "quarterly dividends"
# and "supply costs" are labels); a longer rest is a sentence, not a row's label.
ITEM_WORDS = 5
# A run of capitalised words, a name ("Kraft Heinz", "MGM Resorts'", "Johnson & Johnson"; the currency
# code aside); a possessive ends one ("PepsiCo's Gatorade" is two). A question naming two asks about
# one inside the other (a product, a segment, a deal: "did Diet Coke generate for Coca-Cola"), whose
# figure is no row of the company's tables: no row is then read as its answer.
_NAME_RUN = re.compile(
    r"\b(?!USD\b)[A-Z][\w&.'\u2019-]*(?:(?<!'s)(?<!\u2019s)(?<!s')(?:\s+|\s*&\s*|,\s+(?=Inc\b))[A-Z][\w&.'\u2019-]*)*"
)


def _clause(words: list[str]) -> bool:
    """Whether the words hold an adverb before a participle ("directly outlined"): a clause."""
    return any(w.endswith("ly") and nxt.endswith("ed") for w, nxt in pairwise(words))


def item_text(
    core: str, periods: Periods, names: frozenset[str] = frozenset(), amount: bool = False
) -> FigureText | None:
    """One line item asked for as printed ("What were Adobe's purchases of property and equipment
    in fiscal 2016?"): its cell is the answer. A line item of the vocabulary when every other word
    of the question is how it asks, the period (rag.questions.periods reads it), a name it gives
    (names: lower-case words of the company's name) or the unit; otherwise, when the question asks
    an amount (amount: "how much", a currency), the row its other words name
    ("casino revenue", "goodwill impairment"), matched by its label's words (rag.compute.cells)."""
    if not _ASKS_AMOUNT.match(core):
        return None
    text = FILING.sub(" ", core)
    text = without(text, carried(periods, core, text).mentions)
    words = list(phrase_words(_OWNER_WORD.sub(" ", PERIOD_WORDS.sub(" ", text))))
    item, run = _longest_item(words)
    own = (
        {w for name in item.names for w in phrase_words(name)} if item else set()
    )  # "(capex)" beside its label
    rest = [w for n, w in enumerate(words) if not run[0] <= n < run[1]]
    if _names_two(text, own):
        return None
    if item is not None and all(w in ITEM_FILLER or w in names or w in own or w.isdigit() for w in rest):
        phrase = " ".join(words[run[0] : run[1]])
        return FigureText(phrase, Ref(0), (Term(phrase),), "amount", "item")
    left = [w for w in words if w not in ITEM_FILLER and w not in names and not w.isdigit()]
    if not amount or not 0 < len(left) <= ITEM_WORDS or _clause(left):
        return None
    phrase = " ".join(left)
    return FigureText(phrase, Ref(0), (Term(phrase),), "amount", "item")


def _names_two(text: str, own: set[str]) -> bool:
    """Whether the question, its first word aside, writes two names (see _NAME_RUN); a line item's own
    name ("PP&E", "SG&A") is none."""
    runs = _NAME_RUN.findall(text.split(None, 1)[-1] if text.split() else "")
    return len([r for r in runs if not set(phrase_words(r)) <= own]) > 1


_OWNER_WORD = re.compile(r"\b[\w&.-]+(?:'s|’s|s'|s’)(?=\s)", re.I)  # noqa: RUF001 (curly apostrophes)


def _longest_item(words: list[str]) -> tuple[LineItem | None, tuple[int, int]]:
    """The line item whose name or label is the longest run of the words, and where it is."""
    best: tuple[LineItem | None, tuple[int, int]] = (None, (0, 0))
    for item in load_vocabulary().line_items.values():
        for name in (*item.names, *item.labels):
            phrase = list(phrase_words(name))
            n = len(phrase)
            for i in range(len(words) - n + 1):
                if words[i : i + n] == phrase and n > best[1][1] - best[1][0]:
                    best = (item, (i, i + n))
    return best


# "the FY2018 - FY2020 3 year average of capex as a % of revenue", "the three-year average net margin
# for 2019 to 2021", "average ROE over 2020-2022": what is averaged runs from "average" to the next
# period, "for", "over" or the end.
_AVERAGE = re.compile(
    r"\baverage\s+(?:annual\s+)?(?:of\s+(?:the\s+|its\s+)?)?"
    r"(?P<what>.+?)(?=\s+(?:for|over|from|between|during|across|in|at)\b|,|\?|$)",
    re.I,
)


def _average_periods(core: str, periods: Periods) -> tuple[bool, tuple[int, int] | None]:
    """(whether the question asks an average over years: "average" and a count of years or two years
    or more; the first and last year, or None when it does not place them). The years are those
    the period reader reads (each range's between them too), the count ending with the latest."""
    if not _AVERAGE.search(core):
        return False, None
    periods = carried(periods, core, without_filing(core))
    years = sorted({*periods.years, *(y for _, low, high in periods.ranges for y in range(low, high + 1))})
    if periods.count:
        if not years or years[0] < years[-1] - periods.count + 1:
            return True, None  # no year to count back from, or years outside the count
        return True, (years[-1] - periods.count + 1, years[-1])
    if len(years) < 2:
        return False, None
    return True, (years[0], years[-1])


def asks_average(core: str, periods: Periods) -> bool:
    """Whether the question asks an average over years (see _average_periods): then its figure is
    that mean or none, never one year's figure."""
    return _average_periods(core, periods)[0]


def average_text(
    core: str, periods: Periods, inner_text: Callable[[str], FigureText | None]
) -> FigureText | None:
    """The mean over a range of years of a line item or of a figure inner_text reads (a metric, a
    ratio written out): each year's figure is computed, then their mean is taken (FinanceBench's
    convention: the mean of the yearly ratios, not the ratio of the sums)."""
    found = _AVERAGE.search(core)
    asked, span = _average_periods(core, periods)
    if not found or not asked or span is None or not item_words(found["what"]):
        return None
    first, last = span
    if not 0 < last - first < 10:
        return None
    what = item_words(found["what"])
    inner = inner_text(what)
    parts: list[tuple[str, Expr]] = []
    terms: list[Term] = []
    for year in range(first, last + 1):
        if inner is None:
            parts.append((f"FY{year}", Ref(len(terms))))
            terms.append(Term(what, year))
        else:
            parts.append((f"FY{year}", _shift(inner.formula, len(terms))))
            terms += [Term(t.words, year) for t in inner.terms]
    total = parts[0][1]
    for _, part in parts[1:]:
        total = Op("+", total, part)
    unit = inner.unit if inner else "amount"
    name = f"average {inner.name if inner else what}, FY{first}-FY{last}"
    mean = Op("/", total, Num(Decimal(len(parts))))
    return FigureText(name, mean, tuple(terms), unit, "pattern", parts=tuple(parts))


def _shift(expr: Expr, by: int) -> Expr:
    if isinstance(expr, Ref):
        return Ref(expr.index + by)
    if isinstance(expr, Op):
        return Op(expr.op, _shift(expr.left, by), _shift(expr.right, by))
    return expr
