"""A formula as a question writes it, read into a small expression over its operands:
"cash from operations / total current liabilities", "365 * (average accounts payable between
FY2017 and FY2018) / (FY2018 COGS + change in inventory between FY2017 and FY2018)", "net
revenues less transaction expense less transaction and credit losses, divided by net revenues".

Operators are the signs (+ - * / x) and the words analysts write for them (plus, minus, less,
divided by, over, times); a comma before an operator closes what came before it ("A less B,
divided by C" is (A - B) / C), as a reader takes it. An operand is the words between operators:
a line item, with what it says of periods taken out ("FY2018 COGS", "average inventory between
FY2018 and FY2019", "change in inventory ...") and turned into the columns it reads. Nothing
here knows a line item: that is the vocabulary's (rag.questions.vocabulary) and the figure's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from rag.questions.periods import WRITTEN_YEAR


@dataclass(frozen=True)
class Ref:
    """An operand of the formula: the n-th of the figure's operands."""

    index: int


@dataclass(frozen=True)
class Num:
    """A number the formula writes (365, 2, 100)."""

    value: Decimal


@dataclass(frozen=True)
class Op:
    """left op right, op one of + - * / ^ (^ only to a constant power: a growth rate's root)."""

    op: str
    left: Expr
    right: Expr


Expr = Ref | Num | Op


@dataclass(frozen=True)
class Term:
    """An operand as written: its words (periods taken out), the fiscal year its column is (None:
    the asked one) and how many years before the asked one (a prior year's column)."""

    words: str
    year: int | None = None
    back: int = 0


_YEARS_PAIR = re.compile(
    rf"(?:between|from|for|of)?\s*\(?\s*{WRITTEN_YEAR}\s+(?:and|to|-)\s+{WRITTEN_YEAR}\s*(?:year[- ]?ends?)?\s*\)?",
    re.I,
)
_ONE_YEAR = re.compile(rf"\b{WRITTEN_YEAR}\b(?:\s+year[- ]?end)?", re.I)
_AVERAGE = re.compile(r"^(?:the\s+)?(?:average|avg\.?|mean)\s+(?:of\s+(?:the\s+)?)?", re.I)
_CHANGE = re.compile(r"^(?:the\s+)?(?:change|increase|decrease)\s+in\s+", re.I)
_PRIOR = re.compile(
    r"^(?:the\s+)?(?:prior[- ]year|previous[- ]year|beginning(?:[- ]of[- ]year)?|opening)\s+", re.I
)
_FILLER = re.compile(
    r"\b(?:from|in|on|per|using)\s+the\s+(?:[\w&']+\s+){0,3}?(?:statements?|sheets?)\b|"
    r"^(?:the|its|their|a|an|total\s+of|sum\s+of)\s+|\byear[- ]?ends?\b|\bat\s+year[- ]?end\b|"
    r"\b(?:[A-Z][\w&.-]*)(?:'s|’s)\s+",  # noqa: RUF001 (a curly apostrophe)
    re.I,
)
# Operators: signs, words, and a comma before either (which closes the left side).
_TOKEN = re.compile(
    r"(?P<open>\()|(?P<close>\))|"
    r"(?P<op>(?:,\s*)?(?:[+/*\u00d7\u00f7]|(?<=\s)[-\u2212\u2013x](?=\s)|\b(?:plus|minus|less|divided\s+by|"
    r"over|times|multiplied\s+by)\b))|"
    r"(?P<num>(?<![\w.])(?!(?:19|20)\d\d\b)\d+(?:\.\d+)?(?![\w,.]*\w))|(?P<word>[^\s()+/*\u00d7\u00f7,]+)|(?P<comma>,)",
    re.I,
)
_OP_NAMES = {"plus": "+", "minus": "-", "less": "-", "over": "/", "times": "*", "x": "*"}
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


class NotAFormula(ValueError):
    """The words do not read as a formula over operands."""


@dataclass
class _Parse:
    tokens: list[tuple[str, str]]
    terms: list[Term]
    at: int = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        self.at += 1
        return self.tokens[self.at - 1]


def _op(text: str) -> str:
    word = " ".join(text.strip(", ").lower().split())
    if word.startswith("divided"):
        return "/"
    if word.startswith("multiplied"):
        return "*"
    return {"\u00d7": "*", "\u00f7": "/", "\u2212": "-", "\u2013": "-"}.get(word, _OP_NAMES.get(word, word))


def _tokens(text: str) -> list[tuple[str, str]]:
    """(kind, text) pairs: open, close, op (",op" when a comma leads it), num, words (runs of words)."""
    out: list[tuple[str, str]] = []
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or ""
        value = match.group(0)
        if kind == "op":
            out.append(("op", ("," if value.startswith(",") else "") + _op(value)))
        elif kind in ("word", "comma") and out and out[-1][0] == "words":
            out[-1] = ("words", f"{out[-1][1]}{'' if kind == 'comma' else ' '}{value}")
        elif kind == "word":
            out.append(("words", value))
        else:
            out.append((kind or "", value))
    return _join_years(out)


def _join_years(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A bracket holding only years ("(FY2015 and FY2016 year-ends)") is part of the operand before it."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(tokens):
        if tokens[i][0] == "open" and i + 2 < len(tokens) and tokens[i + 2][0] == "close":
            inner = tokens[i + 1]
            if inner[0] == "words" and not re.sub(
                _YEARS_PAIR.pattern + "|" + _ONE_YEAR.pattern, "", inner[1], flags=re.I
            ).strip(" ,;"):
                if out and out[-1][0] == "words":
                    out[-1] = ("words", f"{out[-1][1]} {inner[1]}")
                else:
                    out.append(inner)
                i += 3
                continue
        out.append(tokens[i])
        i += 1
    return out


def parse_formula(text: str) -> tuple[Expr, tuple[Term, ...]]:
    """The expression and its operands, in order; NotAFormula when the words hold no operator
    between two operands or do not parse."""
    parse = _Parse(_tokens(text.strip(" .?;:")), [])
    if not any(kind == "op" for kind, _ in parse.tokens):
        raise NotAFormula(text)
    expr = _sequence(parse)
    if parse.peek() is not None:
        raise NotAFormula(text)
    return expr, tuple(parse.terms)


def _sequence(parse: _Parse) -> Expr:
    """Comma-separated parts, each closing the one before: "A less B, divided by C"."""
    expr = _expression(parse, 1)
    while (token := parse.peek()) is not None and token[0] == "op" and token[1].startswith(","):
        parse.take()
        expr = Op(token[1][1:], expr, _expression(parse, 1))
    return expr


def _expression(parse: _Parse, least: int) -> Expr:
    left = _primary(parse)
    while (token := parse.peek()) is not None and token[0] == "op" and not token[1].startswith(","):
        precedence = _PRECEDENCE[token[1]]
        if precedence < least:
            break
        parse.take()
        left = Op(token[1], left, _expression(parse, precedence + 1))
    return left


def _primary(parse: _Parse) -> Expr:
    token = parse.peek()
    if token is None:
        raise NotAFormula("an operator at the end")
    kind, value = parse.take()
    if kind == "open":
        inner = _sequence(parse)
        if parse.peek() is None or parse.take()[0] != "close":
            raise NotAFormula("an unclosed bracket")
        return inner
    if kind == "num":
        return Num(Decimal(value))
    if kind == "words":
        return _operand(parse, value)
    raise NotAFormula(f"{value!r} where an operand should be")


def _operand(parse: _Parse, words: str) -> Expr:
    """An operand's words as an expression of Refs: an average or a change of two columns, or one."""
    text = _FILLER.sub(" ", words).strip(" ,")
    pair = _YEARS_PAIR.search(text)
    years = (int(pair.group(1)), int(pair.group(2))) if pair else None
    if pair:
        text = (text[: pair.start()] + " " + text[pair.end() :]).strip(" ,")
    for pattern, combine in ((_AVERAGE, "avg"), (_CHANGE, "change")):
        head = pattern.match(text)
        if head:
            item = text[head.end() :]
            first, second = (_ref(parse, item, y) for y in (years or (None, None)))
            if not years:
                first = _ref(parse, item, None)
                second = _ref(parse, item, None, back=1)
            later, earlier = (second, first) if years and years[1] > years[0] else (first, second)
            if combine == "avg":
                return Op("/", Op("+", later, earlier), Num(Decimal(2)))
            return Op("-", later, earlier)
    prior = _PRIOR.match(text)
    if prior:
        return _ref(parse, text[prior.end() :], None, back=1)
    single = _ONE_YEAR.search(text)
    year = int(single.group(1)) if single else None
    if single:
        text = text[: single.start()] + " " + text[single.end() :]
    return _ref(parse, text, year)


def _ref(parse: _Parse, words: str, year: int | None, back: int = 0) -> Ref:
    name = " ".join(_FILLER.sub(" ", words).split()).strip(" ,")
    if not re.search(r"[A-Za-z]{2}|&", name):
        raise NotAFormula(f"no line item in {words!r}")
    term = Term(name, year, back)
    if term not in parse.terms:
        parse.terms.append(term)
    return Ref(parse.terms.index(term))


def refs(expr: Expr) -> list[int]:
    """The operand indexes an expression reads, in order."""
    if isinstance(expr, Ref):
        return [expr.index]
    if isinstance(expr, Op):
        return refs(expr.left) + refs(expr.right)
    return []


def evaluate(expr: Expr, values: dict[int, Decimal]) -> Decimal:
    """The expression over the operands' values; ZeroDivisionError on a zero divisor."""
    if isinstance(expr, Num):
        return expr.value
    if isinstance(expr, Ref):
        return values[expr.index]
    left, right = evaluate(expr.left, values), evaluate(expr.right, values)
    if expr.op == "+":
        return left + right
    if expr.op == "-":
        return left - right
    if expr.op == "*":
        return left * right
    if expr.op == "/":
        if right == 0:
            raise ZeroDivisionError("a divisor is zero")
        return left / right
    return left**right


def show(expr: Expr, names: list[str], top: bool = True) -> str:
    """The expression written out with operand names (or values): "(cash + receivables) / current liabilities"."""
    if isinstance(expr, Num):
        return format(expr.value, "f")
    if isinstance(expr, Ref):
        return names[expr.index]
    left, right = show(expr.left, names, False), show(expr.right, names, False)
    if isinstance(expr.left, Op) and _PRECEDENCE.get(expr.left.op, 3) < _PRECEDENCE.get(expr.op, 3):
        left = f"({left})"
    if isinstance(expr.right, Op) and _PRECEDENCE.get(expr.right.op, 3) <= _PRECEDENCE.get(expr.op, 3):
        right = f"({right})"
    sign = {"*": "\u00d7", "^": "^"}.get(expr.op, expr.op)
    return f"{left} {sign} {right}"
