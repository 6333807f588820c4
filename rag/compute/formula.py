"""A formula as a question writes it: where it is written (read_written) and its words read into
a small expression over its operands (parse_formula), once, for every reader of the question.

Where: after words that introduce one ("Operating cash flow ratio is defined as: cash from operations
/ total current liabilities", "Define X as", "defined as", "taking FCF as", "i.e.", "using", "give",
"counting A, B and C", a colon), in brackets ("free cash flow (CFO minus capex)", "((cash + receivables)
/ current liabilities)"), or written out in the sentence ("operating income + depreciation and
amortization", "capex as a % of revenue"). A sentence that defines a metric ("X is defined as",
"Define X as") is told apart: rag.questions.request sets it aside from the question asked.

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


def parse_formula(text: str, alone: bool = False) -> tuple[Expr, tuple[Term, ...]]:
    """The expression and its operands, in order; NotAFormula when the words hold no operator
    between two operands (unless alone: one operand is a formula too, as a definition may name
    one line item) or do not parse."""
    parse = _Parse(_tokens(text.strip(" .?;:")), [])
    if not alone and not any(kind == "op" for kind, _ in parse.tokens):
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


@dataclass(frozen=True)
class Written:
    """A formula one sentence of a question writes: how it is written (kind), the sentence and the
    formula's words, the expression over its terms, and the words before it (what names it)."""

    # "defines" (the sentence defines a metric: "X is defined as", "Define X as"), "after" (after
    # another trigger), "list" ("counting A, B and C": their sum), "bracket", "sum" ("A + B" written
    # in the sentence), "percent" ("A as a % of B")
    kind: str
    sentence: str
    span: str
    formula: Expr
    terms: tuple[Term, ...]
    name: str = ""  # the words naming it: before it in its clause, or as "Define X as" names it


# Words after which a sentence writes a formula, tried in this order.
_TRIGGERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "defines",
        re.compile(r"\b(?:is|are)\s+(?:here\s+)?(?:defined|calculated|computed|measured)\s+as\b:?", re.I),
    ),
    ("after", re.compile(r"\bdefined\s+as\b:?", re.I)),
    ("defines", re.compile(r"^\s*define\s+(?P<name>.+?)\s+as\b:?", re.I)),
    (
        "after",
        re.compile(
            r"\b(?:compute|calculate|taking|take|taken|treating|treat|measure|measured|counting)\b"
            r"(?P<name>[^.?:]*?)\bas\b:?",
            re.I,
        ),
    ),
    ("after", re.compile(r"\b(?:i\.e\.|ie\.|that\s+is)[,:]?", re.I)),
    ("after", re.compile(r"\busing\b:?", re.I)),
    ("after", re.compile(r"\bgive\b", re.I)),
    ("list", re.compile(r"\bcounting\b", re.I)),
    ("after", re.compile(r"(?<=\w):")),
)
# Where a formula after a trigger or a bracket ends: the unit, the rounding, a gloss.
_STOP = re.compile(
    r"\?|;|,?\s*\b(?:in\s+(?:usd|us\$|units|percent)|usd\b|answer\b|round(?:ed)?\b|percent\b|percentage\b|"
    r"(?:to\s+)?(?:one|two|three|zero|\d)\s+decimals?|expressed\b|i\.e\.|e\.g\.|excluding\b|including\b|"
    r"leave\b|leaving\b|where\b|which\b|respond\b|give\b|for\s+(?:the\s+)?(?:fy|fiscal|19|20|q[1-4])|"
    r"in\s+(?:fy|q[1-4]|fiscal|(?:19|20)\d\d)|for\s+[A-Z]|and\s+capital\b|with\s+debt\b)",
    re.I,
)
# A bracket saying how to answer or what to leave out, not what to compute.
_GLOSS = re.compile(
    r"\((?:[^()]*\b(?:percent|decimal|usd|millions|billions|leave|excluding|i\.e\.|e\.g\.)\b[^()]*)\)", re.I
)
# Words no line item's name holds: an operand with one is a clause, not a line item.
_NOT_ITEM = re.compile(r"\b(?:what|which|how|who|they|them|it|we|you|did|does|paid\s+\w+)\b", re.I)
# Operators a sentence writes a formula with outside a trigger or a bracket.
_WRITTEN_OUT = re.compile(r"\s\+\s|\bas\s+a\s+(?:%|percent(?:age)?)\s+of\b", re.I)
# Words a written-out operand runs to, from its operator: none of them is part of a line item's name.
_OPERAND_STOP = re.compile(
    r"^(?:what|which|is|are|was|were|the|of|for|from|in|to|or|a|an|its|their|how|much|did|does|"
    r"fy\S*|\d\S*|\S+'s|\S+\u2019s)$",
    re.I,
)
_RUN_WORD = re.compile(r"[\w&'\u2019-]+|[(),?]")


def read_written(sentence: str) -> tuple[Written, ...]:
    """Every formula one sentence writes: after a trigger (in _TRIGGERS' order), then in brackets,
    then written out; a formula within the words of one read before it is part of that one."""
    plain = _GLOSS.sub(" ", sentence)
    found: list[tuple[int, int, Written]] = []

    def add(kind: str, start: int, end: int, name: str, words: str | None = None) -> bool:
        if any(s < end and start < e for s, e, _ in found):
            return False
        span = plain[start:end]
        read = _read(span if words is None else words, alone=kind == "defines")
        if read is not None:
            found.append((start, end, Written(kind, sentence, span.strip(), *read, name)))
        return read is not None

    for kind, trigger in _TRIGGERS:
        for match in trigger.finditer(plain):
            end = _end(plain, match.end())
            name = _naming(match.groupdict().get("name") or plain[: match.start()])
            add(kind, match.end(), end, name, _as_sum(plain[match.end() : end]) if kind == "list" else None)
    for start, end in _brackets(plain):
        # "(a + b) / c": the formula runs on past the bracket; "ratio (a / b)": the bracket is it
        if not add("bracket", start, _end(plain, start), _naming(plain[:start])):
            add("bracket", start, end, _naming(plain[:start]))
    # a sign within a formula read is that formula's; the rest of the sentence may write out one more
    masked = "".join("," if any(s <= i < e for s, e, _ in found) else ch for i, ch in enumerate(plain))
    chain = _chain(masked)
    if chain is not None and not any(s < chain[2] and chain[1] < e for s, e, _ in found):
        kind, start, end, expr, terms = chain
        found.append(
            (start, end, Written(kind, sentence, plain[start:end], expr, terms, _naming(plain[:start])))
        )
    return tuple(written for _, _, written in found)


def _naming(before: str) -> str:
    """The words before a formula in its clause, up to a preposition: what names it ("What was
    AES's free cash flow in FY2021 (" names it "What was AES's free cash flow")."""
    last = re.split(r"[.?!:]\s|,\s", before.strip(" ,:("))[-1]
    return re.split(r"\s(?:for|at|in|of|from|during)\s|\s*\(|\s+here\b", last)[0]


def _end(sentence: str, start: int) -> int:
    """Where the formula written from start ends (_STOP), or the sentence's end."""
    stop = _STOP.search(sentence[start:])
    return start + stop.start() if stop else len(sentence)


def _read(words: str, alone: bool) -> tuple[Expr, tuple[Term, ...]] | None:
    """The formula in words when it reads as one over line items: two operands or more (alone: one
    will do), none a clause or longer than ten words."""
    try:
        expr, terms = parse_formula(words, alone)
    except NotAFormula:
        return None
    if len(refs(expr)) < (1 if alone else 2):
        return None
    if any(len(t.words.split()) > 10 or _NOT_ITEM.search(t.words) for t in terms):
        return None
    return expr, terms


def _as_sum(words: str) -> str:
    """ "A, B and C" as "A + B + C" (a list the question counts)."""
    words = re.sub(r"\([^()]*\)", " ", words)
    head, _, last = words.rpartition(" and ")
    parts = [*head.split(","), last] if head else words.split(",")
    return " + ".join(p.strip() for p in parts if p.strip())


def _brackets(sentence: str) -> list[tuple[int, int]]:
    """Where each outermost pair of brackets opens and ends (past its closing bracket)."""
    found, depth, start = [], 0, 0
    for i, ch in enumerate(sentence):
        if ch == "(":
            depth += 1
            if depth == 1:
                start = i
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                found.append((start, i + 1))
    return found


def _chain(text: str) -> tuple[str, int, int, Expr, tuple[Term, ...]] | None:
    """(kind, start, end, expression, terms) of operands joined by the operators a sentence writes
    out ("A + B", "A as a % of B"): the operand before the first operator runs back from it, each
    other on from its operator, to the nearest word that cannot be part of a line item's name;
    operands naming nothing are left out, and two must be left. "T(n) = 7n2 + 15n" is no formula."""
    operators = list(_WRITTEN_OUT.finditer(text))
    if not operators:
        return None
    edges = [0, *(edge for o in operators for edge in o.span()), len(text)]
    parse = _Parse([], [])
    expr: Expr | None = None
    kind, start, end = "sum", len(text), 0
    for n in range(len(operators) + 1):
        words = list(_RUN_WORD.finditer(text, edges[2 * n], edges[2 * n + 1]))
        run = _run(words) if n else _run(words[::-1])[::-1]
        if not run:
            continue
        try:
            ref = _ref(parse, " ".join(m.group(0) for m in run), None)
        except NotAFormula:
            continue
        start, end = min(start, run[0].start()), run[-1].end()
        if expr is None:
            expr = ref
            continue
        op = "+" if operators[n - 1].group(0).strip() == "+" else "/"
        kind = "percent" if op == "/" else kind
        expr = Op(op, expr, ref)
    if expr is None or len(parse.terms) < 2:
        return None
    return kind, start, end, expr, tuple(parse.terms)


def _run(words: list[re.Match[str]]) -> list[re.Match[str]]:
    """The words from the first that may be part of a line item's name to the next that may not."""
    out: list[re.Match[str]] = []
    for word in words:
        if word.group(0) in "(),?" or _OPERAND_STOP.match(word.group(0)):
            if out:
                break
            continue
        out.append(word)
    while out and out[-1].group(0).lower() == "and":  # "and" joins the words of a name, never ends one
        out.pop()
    while out and out[0].group(0).lower() == "and":
        out.pop(0)
    return out[:5]


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
