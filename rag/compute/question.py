"""The figure a question asks to be computed, read once with the rest of the question: its
formula over operands (line items at fiscal periods), the unit, scale and rounding asked, and the
period. rag.compute computes it from the evidence's cells.

Where the formula comes from, first found first (rag.compute.question_text finds the words):
1. the question defines it or writes it out ("defined as: cash from operations / total current
   liabilities", "(dividends paid / net earnings)", "taking FCF as operating cash flow minus
   purchases of property and equipment", "capex as a % of revenue", "what share of revenue went
   into R&D", "how many times did operating income cover interest expense");
2. it asks for a change, a growth rate or an average over the years it names;
3. it names a standard metric of the vocabulary (rag.questions.vocabulary: quick ratio, DSO,
   EBITDA...), unqualified ("operating margin before impairments" is not the standard one).
A question asking for none of these has no figure (None), and is answered as any other.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rag.compute.formula import Expr, Term, Written, show
from rag.compute.question_text import FigureText, find_figure_text
from rag.questions.asked import Concept, read_concepts
from rag.questions.periods import Periods, carried, without_filing
from rag.questions.vocabulary import load_vocabulary, phrase_words

# Rounding when the question asks none (issue 39): ratios to two decimals, percentages to one.
DEFAULT_DECIMALS = {"%": 1, "ratio": 2, "times": 2, "days": 1}
_NUMBER_WORDS = {"zero": 0, "no": 0, "one": 1, "two": 2, "three": 3, "four": 4}
_DECIMALS = re.compile(r"\b(zero|no|one|two|three|four|\d)\s+decimals?\b", re.I)
_WHOLE = re.compile(
    r"\b(?:whole\s+(?:number|dollars?)|nearest\s+(?:whole|integer|million|billion|thousand))\b", re.I
)
_SCALE = re.compile(r"\b(?:usd|us\$|\$|dollars?|in)\s*(thousands|millions|billions)\b", re.I)
_PERCENT = re.compile(r"%|\bper\s*cent(?:age)?s?\b|\bpercent(?:age)?s?\b", re.I)
# What a question asks for, whatever formula is found (issue 51, step 1): a share of 100 (a
# percentage, a margin, a rate), a ratio (a ratio, a turnover, a coverage, a multiple), or an amount
# (a currency and its scale). A figure of another kind is refused rather than stated.
_ASKS_SHARE = re.compile(rf"{_PERCENT.pattern}|\bmargins?\b|\brates?\b", re.I)
_ASKS_RATIO = re.compile(r"\bratios?\b|\bturnover\b|\bcoverage\b|\bmultiples?\b|\btimes\b", re.I)
_ASKS_AMOUNT = re.compile(r"\b(?:usd|us\$|dollars?)\b|\$\s*(?:thousands|millions|billions)\b", re.I)
# Words that qualify a line item without naming another row ("unadjusted operating income", "reported
# net income", "GAAP revenue", "total revenues"): the line item is read without them when it is not
# read with them (issue 51, step 4).
_QUALIFIER = re.compile(r"\b(?:unadjusted|as\s+reported|reported|gaap|total)\b", re.I)
# A line item asked on a basis ("net PP&E", "gross profit" aside): a row that says the other basis is not it.
BASES = ("net", "gross")
# A question asking more than the figure: why it moved, how it trended, what drove it.
_MORE = re.compile(
    r"\b(?:why|explain|explains|drove|drivers?|driven|trend|trended|trending|reasons?|caused?|how\s+(?:did|has|have|is|does))\b",
    re.I,
)


@dataclass(frozen=True)
class Operand:
    """A cell the formula reads: the words naming it, the vocabulary's line item when they name
    one (its key, the labels filings print it under, whether it is an outflow), what a row label
    must hold (its concepts), and its column: a fiscal year, or the asked one less `back` years."""

    name: str
    concepts: tuple[Concept, ...]
    line_item: str = ""
    labels: tuple[str, ...] = ()
    outflow: bool = False
    year: int | None = None
    back: int = 0
    statement: str = ""  # the vocabulary line item's statement ("balance", "income", "cash flow")
    basis: str = ""  # "net" or "gross" when the words or the line item's definition say it

    def column_year(self, asked_year: int) -> int:
        """The fiscal year of its column when the question asks for asked_year."""
        return self.year if self.year is not None else asked_year - self.back


@dataclass(frozen=True)
class Figure:
    """A figure to compute: what it is called, its formula over its operands, the unit ("%",
    "ratio", "times", "days", "amount"), the scale an amount is asked in ("" when not said),
    the decimals asked (None: the unit's default), and the asked period (span "3m", "6m", "9m"
    for a quarter, a half or nine months; "" for a fiscal year)."""

    name: str
    formula: Expr
    operands: tuple[Operand, ...]
    unit: str
    scale: str = ""
    decimals: int | None = None
    year: int | None = None
    quarter: int | None = None
    span: str = ""
    source: str = ""  # "defined", "pattern", "metric"
    alternatives: tuple[Figure, ...] = ()  # a standard metric's alternatives, tried in order
    one_page: bool = False  # a share of a whole: its part and whole are read from one table (unless
    # they are line items of two statements: a payout's dividends and net income)
    whole: bool = True  # the figure is all the question asks (not "why", "how did ... trend")
    filing_year: int | None = None  # the year of the filing the question names ("in its FY2017 10-K")
    asked: str = ""  # what the question asks for: "%", "ratio", "amount", or "" when it does not say
    # Each period's own figure of an average or a change ("FY2019", its formula over the operands),
    # shown beside the result (issue 51, step 2).
    parts: tuple[tuple[str, Expr], ...] = ()

    @property
    def rounding(self) -> int | None:
        """Decimals to round to: as asked, else the unit's default (None: as computed, an amount)."""
        return self.decimals if self.decimals is not None else DEFAULT_DECIMALS.get(self.unit)

    def formula_text(self) -> str:
        """The formula with its operands' names ("(cash + receivables) / current liabilities")."""
        return show(self.formula, [o.name for o in self.operands])

    def period_text(self) -> str:
        """The asked period as an analyst writes it: "FY2022", "Q2 2023", "first half of 2023"."""
        if self.year is None:
            return ""
        if self.quarter:
            return f"Q{self.quarter} {self.year}"
        spans = {"3m": "three months", "6m": "first half", "9m": "nine months"}
        return {s: f"{w} of {self.year}" for s, w in spans.items()}.get(self.span, f"FY{self.year}")


def read_figure(text: str, core: str, periods: Periods, written: tuple[Written, ...]) -> Figure | None:
    """The figure the question asks for (see the module docstring), or None. written: the formulas
    the question writes (rag.questions.request.Request.written)."""
    found = find_figure_text(text, core, written, carried(periods, text, core))
    if found is None:
        return None
    period = _period(text, core, periods)
    figure = _figure(text, periods, found, period)
    if figure is None:
        return None
    others = [f for alternative in found.alternatives if (f := _figure(text, periods, alternative, period))]
    return replace(figure, alternatives=tuple(others))


def _figure(
    text: str, periods: Periods, found: FigureText, period: tuple[int | None, int | None, str]
) -> Figure | None:
    operands = tuple(_operand(term, carried(periods, text, term.words)) for term in found.terms)
    if not operands or any(not o.concepts and not o.line_item for o in operands):
        return None
    unit = _unit(text, found)
    year, quarter, span = period
    filing = _filing(text, text, periods)
    return Figure(
        name=found.name,
        formula=found.formula,
        operands=operands,
        unit=unit,
        scale=_asked_scale(text) if unit == "amount" else "",
        decimals=_decimals(text),
        year=year,
        quarter=quarter,
        span=span,
        source=found.source,
        one_page=found.one_page and len({o.statement for o in operands if o.statement}) <= 1,
        whole=not _MORE.search(text),
        filing_year=filing,
        asked=asked_kind(text),
        parts=found.parts,
    )


def asked_kind(text: str) -> str:
    """What the question asks for (see _ASKS_SHARE): "%", "ratio", "amount", or "". A currency
    beside a margin or a rate and no percentage ("gross margin in USD millions") asks for an
    amount: a percentage is no answer to it, so it is refused rather than stated."""
    share, ratio, amount = _ASKS_SHARE.search(text), _ASKS_RATIO.search(text), _ASKS_AMOUNT.search(text)
    if share and not amount:
        return "%"
    if ratio and not amount:
        return "ratio"
    if amount and share and not ratio and not _PERCENT.search(text):
        return "amount"
    return "amount" if amount and not (share or ratio) else ""


def _operand(term: Term, periods: Periods) -> Operand:
    """The operand a term of the formula names; periods: those of the question its words carry."""
    vocabulary = load_vocabulary()
    words = term.words
    item = vocabulary.line_item_named(words)
    if item is None and _QUALIFIER.search(words):
        plain_words = " ".join(_QUALIFIER.sub(" ", words).split())
        if vocabulary.line_item_named(plain_words) is not None or not plain_words:
            words = plain_words or words
            item = vocabulary.line_item_named(words)
    concepts = read_concepts(
        words, periods if words == term.words else carried(periods, term.words, words)
    ).concepts
    if item is None:
        outflow = vocabulary.outflow_named(words)
        said = [b for b in BASES if b in phrase_words(words)]
        basis = said[0] if len(said) == 1 else ""
        return Operand(words, concepts, outflow=outflow, year=term.year, back=term.back, basis=basis)
    return Operand(
        words,
        concepts,
        item.key,
        (*item.labels, *item.names),
        item.outflow,
        term.year,
        term.back,
        item.statement,
        item.basis,
    )


def _decimals(text: str) -> int | None:
    found = _DECIMALS.search(text)
    if found:
        word = found.group(1).lower()
        return _NUMBER_WORDS[word] if word in _NUMBER_WORDS else int(word)
    return 0 if _WHOLE.search(text) else None


def _asked_scale(text: str) -> str:
    found = _SCALE.search(text)
    return found.group(1).lower() if found else ""


def _unit(text: str, found: FigureText) -> str:
    """The unit: a percentage when the question or the formula's own kind says so, else the kind's."""
    if found.unit in ("%", "days"):
        return found.unit
    if _PERCENT.search(text) and found.unit != "amount":
        return "%"
    if found.unit == "ratio" and re.search(r"\btimes\b", text, re.I):
        return "times"
    return found.unit


def _filing(text: str, core: str, periods: Periods) -> int | None:
    """The year of a filing the question names ("in its FY2017 10-K"), when it names the asked
    period too ("the FY2021 balance sheet" alone is the asked year's). periods: the text's."""
    year = periods.filing_year
    if year is None:
        return None
    return year if carried(periods, text, without_filing(core)).years else None


def _period(text: str, core: str, periods: Periods) -> tuple[int | None, int | None, str]:
    """(the asked fiscal year, its quarter, its span): the latest period the question names,
    a filing it names aside ("for 2019 in its 2020 annual report" asks for 2019)."""
    filing = _filing(text, core, periods)
    source = text
    if filing is not None:
        text, core = without_filing(text), without_filing(core)
        periods = carried(periods, source, text)
    years = [p.year for p in periods.fiscal] + list(carried(periods, text, core).years)
    if filing is not None and any(y != filing for y in years):
        years = [y for y in years if y != filing]  # "for 2020, as shown in its 2022 income statement"
    if not years:
        return None, None, ""
    year = max(years)
    quarter = next((p.quarter for p in periods.fiscal if p.year == year and p.quarter), None)
    quarter = quarter or next(  # "the second quarter of 2021", "2023 Q2": a quarter of the year asked
        (m.period.quarter for m in periods.mentions if m.period and m.period.year == year and m.quarter),
        None,
    )
    if quarter:
        return year, quarter, "3m"
    if periods.span:
        return year, None, periods.span
    return year, None, ""
