"""Where a question's words give a figure's formula (rag.compute.question): a formula it writes
(after "defined as", "i.e.", in brackets, "A as a % of B": read once by
rag.compute.formula.read_written, for the request's inputs too), a share, a change, a growth rate
or an average over years, or a standard metric's name. Each finder returns a FigureText: the
formula over terms, the figure's name and the unit its kind implies.

These are ways English writes a computation ("share of X came from Y", "how many times did A cover
B", "by how much did X grow"), not phrases of one question set; the words between them are left to
the formula reader and the vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

from rag.compute.formula import Expr, Num, Op, Ref, Term, Written, refs
from rag.compute.metrics import (
    FigureText,
    asks_average,
    average_text,
    change_text,
    item_text,
    item_words,
    metric_formula,
    metric_text,
    named_metric,
)
from rag.questions.asked import YES_NO
from rag.questions.periods import Periods
from rag.questions.vocabulary import load_vocabulary, phrase_words

# The Written kinds _defined takes a figure's formula from; "A + B" written out in the sentence
# only names a metric's inputs (rag.questions.request), "A as a % of B" is _written's.
_DEFINED = ("defines", "after", "list", "bracket")
PERCENT = re.compile(r"%|\bper\s*cent(?:age)?s?\b|\bpercent(?:age)?s?\b|\brate\b", re.I)
# A question asking a row's amount of a filing: a currency or a scale ("USD millions", "in thousands"),
# or the statement to read it from ("according to the cash flow statement"). "How much" alone is not
# one: "how much was the earthquake estimated to cost" asks a sentence, not a table's row.
_AMOUNT = re.compile(
    r"\b(?:usd|us\$|dollars?|thousands|millions|billions)\b|\bstatements?\s+of\b|\b(?:income|cash\s+flows?|operations)\s+statements?\b|\bbalance\s+sheets?\b",
    re.I,
)


def find_figure_text(
    text: str, core: str, written: tuple[Written, ...], periods: Periods
) -> FigureText | None:
    """The first formula the question gives (rag.compute.question's order), or None; a question
    asked yes or no gets one only from a formula it writes out. written: the formulas its
    sentences write (rag.compute.formula.read_written), in order; periods: the core's."""
    if YES_NO.match(core):  # a yes/no question asks whether, not how much
        return _defined(written, core)
    defined = _defined(written, core)
    if defined is not None:
        return defined
    if asks_average(core, periods):  # an average over years is that mean or no figure, never one year's
        return average_text(core, periods, lambda words: _written(written, words) or metric_text(words))
    finders: list[Callable[[], FigureText | None]] = [
        lambda: change_text(core, periods, bool(PERCENT.search(text))),
        lambda: _written(written, core),
        lambda: metric_text(core),
        lambda: item_text(core, periods, _names(text), bool(_AMOUNT.search(text))),
    ]
    for finder in finders:
        found = finder()
        if found is not None:
            return found
    return None


def _names(text: str) -> frozenset[str]:
    """The lower-case words of the capitalised names a question writes (a company's: "Coca-Cola",
    "General Mills"), its first word aside."""
    tokens = re.findall(r"[\w&.'\u2019-]+", text)[1:]
    return frozenset(w for t in tokens if t[:1].isupper() for w in phrase_words(t))


def _unit_of(expr: Expr, name: str) -> tuple[Expr, str]:
    """The unit a formula's shape and name imply; a percentage's "* 100" is left to the unit."""
    metric = next(iter(load_vocabulary().metrics_named(name)), None) if name else None
    if isinstance(expr, Op) and expr.op == "*" and Num(Decimal(100)) in (expr.left, expr.right):
        return (expr.left if expr.right == Num(Decimal(100)) else expr.right), "%"
    if _has_number(expr, Decimal(365)):
        return expr, "days"
    shape = "ratio" if isinstance(expr, Op) and expr.op in "/^" else "amount"
    if metric is not None and shape == "ratio" and metric.unit in ("days", "%"):
        return expr, metric.unit
    return expr, shape


def _has_number(expr: Expr, value: Decimal) -> bool:
    if isinstance(expr, Num):
        return expr.value == value
    return isinstance(expr, Op) and (_has_number(expr.left, value) or _has_number(expr.right, value))


def _defined(written: tuple[Written, ...], core: str) -> FigureText | None:
    """The first formula of two operands or more the question writes after a trigger ("defined
    as", "i.e.") or in brackets."""
    for found in written:
        if found.kind in _DEFINED and len(refs(found.formula)) >= 2:
            name = _name(found.name, core)
            expr, unit = _unit_of(found.formula, name)
            return FigureText(name, expr, found.terms, unit, "defined")
    return None


def _name(naming: str, core: str) -> str:
    """What the formula is called: the metric the question names, else the words naming it
    (Written.name) without its owner, period and asking words."""
    metric = next(iter(load_vocabulary().metrics_named(core)), None)
    words = item_words(naming) if naming.strip() else ""
    if metric is not None and (not words or metric.key == _metric_key(words)):
        return words or metric.names[0]
    return words if len(words.split()) <= 6 else ""


def _metric_key(words: str) -> str:
    found = load_vocabulary().metrics_named(words)
    return found[0].key if found else ""


_SHARE = re.compile(
    r"\b(?:share|percentage|proportion|portion)\s+of\s+(?P<whole>.+?)\s+(?:(?:came|come|comes)\s+from|"
    r"went\s+(?:into|to)|goes?\s+(?:into|to)|was|were|is|are|did\s+.+?\s+(?:pay\s+out\s+(?:as|in)|pay\s+as|"
    r"return\s+(?:through|via|as|in)|spend\s+on))\s+(?P<part>.+?)"
    r"(?:\s+in\s+(?:q[1-4]|fy|fiscal|(?:19|20)\d\d)\b|\?|$)",
    re.I,
)
_MARGIN = re.compile(r"(?P<a>[\w&'\u2019 -]+?)\s*(?:\([^()]*\))?\s*(?P<pct>%)?\s*margin\b", re.I)
_GENERIC = re.compile(r"\s+(?:segment|segments|division|business|line)$", re.I)
_COVER = re.compile(
    r"\bhow\s+many\s+times\s+(?:did|does|do|has|have)\s+(?P<a>.+?)\s+cover\s+(?P<b>.+?)(?:\s+in\b|\?|$)", re.I
)
_TIMES = re.compile(
    r"\bhow\s+many\s+times\s+(?P<b>.+?)\s+(?:was|were|is|are)\s+(?P<a>.+?)(?:\s+in\b|\?|$)", re.I
)
_STOP_WORD = re.compile(
    r"^(?:what|which|was|were|is|are|the|of|for|in|to|a|an|its|their|how|much|did|does)$", re.I
)


def _tail(words: str) -> str:
    """The last run of words before a stop word (the operand ending where a phrase ends)."""
    out: list[str] = []
    for word in reversed(words.split()):
        if _STOP_WORD.match(word) or word.endswith(("'s", "’s")):  # noqa: RUF001
            break
        out.append(word)
    return " ".join(reversed(out))


def _written(written: tuple[Written, ...], core: str) -> FigureText | None:
    """ "A as a % of B" (a formula written in the core), "what share of B came from A", "how many
    times did A cover B"."""
    found_in = next((w for w in written if w.kind == "percent" and w.span in core), None)
    if found_in is not None and len(found_in.terms) == 2:
        a, b = (item_words(t.words) for t in found_in.terms)
        return _ratio(a, b, "%", f"{a} as a % of {b}")
    found = _SHARE.search(core)
    if found:
        whole, part = item_words(found["whole"]), _GENERIC.sub("", item_words(found["part"]))
        share = _ratio(part, whole, "%", f"{part} as a share of {whole}")
        return replace(share, one_page=True) if share else None
    found = _MARGIN.search(core)
    if found and not _margin_metric(found.group(0)):
        margin = _margin(item_words(_tail(found["a"])), bool(found["pct"]))
        if margin is not None:
            return margin
    for pattern in (_COVER, _TIMES):
        found = pattern.search(core)
        if found:
            a, b = item_words(found["a"]), item_words(found["b"])
            return _ratio(a, b, "times", f"{a} / {b}")
    return None


def _margin_metric(words: str) -> bool:
    """Whether the words name a margin of the vocabulary ("operating margin"): its own formula."""
    metric = named_metric(words)
    return metric is not None and metric.unit == "%"


def _margin(a: str, percent: bool) -> FigureText | None:
    """ "X % margin", "X margin": X over revenue, where X is a metric of the vocabulary (EBITDA
    margin = (operating income + D&A) / revenue: its formula composed), a line item, or, written
    with "%", any row's words."""
    metric = named_metric(a) if a else None
    if metric is not None and metric.unit == "amount" and phrase_words(a) in map(phrase_words, metric.names):
        expr, terms = metric_formula(metric)
        whole = Ref(len(terms))
        return FigureText(f"{a} margin", Op("/", expr, whole), (*terms, Term("revenue")), "%", "pattern")
    if percent or (a and load_vocabulary().line_item_named(a) is not None):
        return _ratio(a, "revenue", "%", f"{a} margin")
    return None


def _ratio(part: str, whole: str, unit: str, name: str) -> FigureText | None:
    """part / whole; a part of two line items joined by "and" is their sum."""
    if not part or not whole:
        return None
    vocabulary = load_vocabulary()
    pieces = part.split(" and ")
    if len(pieces) == 2 and all(vocabulary.line_item_named(p) for p in pieces):
        terms = (Term(pieces[0]), Term(pieces[1]), Term(whole))
        expr: Expr = Op("/", Op("+", Ref(0), Ref(1)), Ref(2))
    else:
        terms = (Term(part), Term(whole))
        expr = Op("/", Ref(0), Ref(1))
    return FigureText(name, expr, terms, unit, "pattern")
