"""Where a question's words give a figure's formula (rag.questions.figure): a definition or a
formula written out, a share, a change, a growth rate or an average over years, or a standard
metric's name. Each finder returns a FigureText: the formula over terms as rag.questions.formula
reads it, the figure's name and the unit its kind implies.

These are ways English writes a computation ("defined as", "taken as", "i.e.", "as a % of",
"share of X came from Y", "by how much did X grow"), not phrases of one question set; the words
between them are left to the formula reader and the vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

from rag.questions.asked import YES_NO
from rag.questions.formula import Expr, NotAFormula, Num, Op, Ref, Term, parse_formula, refs
from rag.questions.metrics import (
    FigureText,
    average_text,
    change_text,
    item_text,
    item_words,
    metric_text,
    named_metric,
)
from rag.questions.request import sentences
from rag.questions.vocabulary import load_vocabulary, phrase_words

# Words after which a question writes its formula out.
_TRIGGERS = [
    re.compile(r"\b(?:is|are)\s+(?:here\s+)?(?:defined|calculated|computed|measured)\s+as\b:?", re.I),
    re.compile(r"\bdefined\s+as\b:?", re.I),
    re.compile(r"^\s*define\s+(?P<name>.+?)\s+as\b:?", re.I),
    re.compile(
        r"\b(?:compute|calculate|taking|take|taken|treating|treat|measure|measured|counting)\b(?P<name>[^.?:]*?)\bas\b:?",
        re.I,
    ),
    re.compile(r"\b(?:i\.e\.|ie\.|that\s+is)[,:]?", re.I),
    re.compile(r"\busing\b:?", re.I),
    re.compile(r"\bgive\b", re.I),
    re.compile(r"\bcounting\b", re.I),
    re.compile(r"(?<=\w):", re.I),
]
PERCENT = re.compile(r"%|\bper\s*cent(?:age)?s?\b|\bpercent(?:age)?s?\b|\brate\b", re.I)
# Where a written-out formula ends: the unit, the rounding, a gloss.
_STOP = re.compile(
    r"\?|;|,?\s*\b(?:in\s+(?:usd|us\$|units|percent)|usd\b|answer\b|round(?:ed)?\b|percent\b|percentage\b|"
    r"(?:to\s+)?(?:one|two|three|zero|\d)\s+decimals?|expressed\b|i\.e\.|e\.g\.|excluding\b|including\b|"
    r"leave\b|leaving\b|where\b|which\b|respond\b|give\b|for\s+(?:the\s+)?(?:fy|fiscal|19|20|q[1-4])|"
    r"in\s+(?:fy|q[1-4]|fiscal|(?:19|20)\d\d)|for\s+[A-Z]|and\s+capital\b|with\s+debt\b)",
    re.I,
)
_GLOSS = re.compile(
    r"\((?:[^()]*\b(?:percent|decimal|usd|millions|billions|leave|excluding|i\.e\.|e\.g\.)\b[^()]*)\)", re.I
)
# Words no line item's name holds: an operand with one is a clause, not a line item.
_NOT_ITEM = re.compile(r"\b(?:what|which|how|who|they|them|it|we|you|did|does|paid\s+\w+)\b", re.I)


def find_figure_text(text: str, core: str) -> FigureText | None:
    """The first formula the question gives (rag.questions.figure's order), or None; a question
    asked yes or no gets one only from a formula it writes out."""
    if YES_NO.match(core):  # a yes/no question asks whether, not how much
        return _defined(text, core)
    finders: list[Callable[[], FigureText | None]] = [
        lambda: _defined(text, core),
        lambda: average_text(core, lambda words: _written(words) or metric_text(words)),
        lambda: change_text(core, bool(PERCENT.search(text))),
        lambda: _written(core),
        lambda: metric_text(core),
        lambda: item_text(core, _names(text)),
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


def _formula(words: str) -> tuple[Expr, tuple[Term, ...]] | None:
    """The formula in words, when it has two operands or more."""
    try:
        expr, terms = parse_formula(_GLOSS.sub(" ", words))
    except NotAFormula:
        return None
    if len(refs(expr)) < 2 or any(len(t.words.split()) > 10 or _NOT_ITEM.search(t.words) for t in terms):
        return None
    return expr, terms


def _defined(text: str, core: str) -> FigureText | None:
    """A formula the question writes after a trigger ("defined as", "i.e.") or in brackets."""
    for sentence in (_GLOSS.sub(" ", s) for s in sentences(text)):
        for trigger in _TRIGGERS:
            for match in trigger.finditer(sentence):
                rest = sentence[match.end() :]
                stop = _STOP.search(rest)
                words = rest[: stop.start()] if stop else rest
                if trigger.pattern == r"\bcounting\b":
                    words = _as_sum(words)
                found = _formula(words)
                if found:
                    name = _name(match.groupdict().get("name") or sentence[: match.start()], core)
                    return FigureText(name, *_with_unit(found, name), "defined")
        for inside in _brackets(sentence):
            at = sentence.find(inside) - 1  # its opening bracket
            rest = sentence[at:]
            stop = _STOP.search(rest)
            # "(a + b) / c": the formula runs on past the bracket; "ratio (a / b)": the bracket is it
            found = _formula(rest[: stop.start()] if stop else rest) or _formula(inside)
            if found:
                name = _name(sentence[:at], core)
                return FigureText(name, *_with_unit(found, name), "defined")
    return None


def _with_unit(found: tuple[Expr, tuple[Term, ...]], name: str) -> tuple[Expr, tuple[Term, ...], str]:
    expr, unit = _unit_of(found[0], name)
    return expr, found[1], unit


def _as_sum(words: str) -> str:
    """ "A, B and C" as "A + B + C" (a list the question counts)."""
    words = _GLOSS.sub(" ", re.sub(r"\([^()]*\)", " ", words))
    head, _, last = words.rpartition(" and ")
    parts = [*head.split(","), last] if head else words.split(",")
    return " + ".join(p.strip() for p in parts if p.strip())


def _brackets(sentence: str) -> list[str]:
    """What each outermost pair of brackets holds."""
    found, depth, start = [], 0, 0
    for i, ch in enumerate(sentence):
        if ch == "(":
            depth += 1
            if depth == 1:
                start = i + 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                found.append(sentence[start:i])
    return found


def _name(before: str, core: str) -> str:
    """What the formula is called: the metric the question names, else the words before it."""
    metric = next(iter(load_vocabulary().metrics_named(core)), None)
    last = re.split(r"[.?!:]\s|,\s", before.strip(" ,:("))[-1]
    last = re.split(r"\s(?:for|at|in|of|from|during)\s|\s*\(|\s+here\b", last)[0]
    words = item_words(last) if last.strip() else ""
    if metric is not None and (not words or metric.key == _metric_key(words)):
        return words or metric.names[0]
    return words if len(words.split()) <= 6 else ""


def _metric_key(words: str) -> str:
    found = load_vocabulary().metrics_named(words)
    return found[0].key if found else ""


_AS_PERCENT = re.compile(
    r"(?P<a>[\w&'\u2019 -]+?)\s+as\s+a\s+(?:%|percent(?:age)?)\s+of\s+(?P<b>[\w&'\u2019 -]+)", re.I
)
_SHARE = re.compile(
    r"\b(?:share|percentage|proportion|portion)\s+of\s+(?P<whole>.+?)\s+(?:(?:came|come|comes)\s+from|"
    r"went\s+(?:into|to)|goes?\s+(?:into|to)|was|were|is|are|did\s+.+?\s+(?:pay\s+out\s+(?:as|in)|pay\s+as|"
    r"return\s+(?:through|via|as|in)|spend\s+on))\s+(?P<part>.+?)"
    r"(?:\s+in\s+(?:q[1-4]|fy|fiscal|(?:19|20)\d\d)\b|\?|$)",
    re.I,
)
_MARGIN = re.compile(r"(?P<a>[\w&'\u2019 -]+?)\s*(?:\([^()]*\))?\s*%\s*margin\b", re.I)
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


def _head(words: str) -> str:
    """The first run of words before a stop word (the operand starting where a phrase starts)."""
    out: list[str] = []
    for word in words.split():
        if _STOP_WORD.match(word):
            break
        out.append(word)
    return " ".join(out)


def _written(core: str) -> FigureText | None:
    """ "A as a % of B", "what share of B came from A", "how many times did A cover B"."""
    found = _AS_PERCENT.search(core)
    if found:
        a, b = item_words(_tail(found["a"])), item_words(_head(found["b"]))
        return _ratio(a, b, "%", f"{a} as a % of {b}")
    found = _SHARE.search(core)
    if found:
        whole, part = item_words(found["whole"]), _GENERIC.sub("", item_words(found["part"]))
        share = _ratio(part, whole, "%", f"{part} as a share of {whole}")
        return replace(share, one_page=True) if share else None
    found = _MARGIN.search(core)
    if found and named_metric(found.group(0)) is None:
        a = item_words(_tail(found["a"]))
        return _ratio(a, "revenue", "%", f"{a} margin")
    for pattern in (_COVER, _TIMES):
        found = pattern.search(core)
        if found:
            a, b = item_words(found["a"]), item_words(found["b"])
            return _ratio(a, b, "times", f"{a} / {b}")
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
