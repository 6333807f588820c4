"""Which of one company's filings a question's periods ask for (issue 38): the filing whose own
period (its cover's fiscal year or quarter, or an 8-K's date) is the asked one; another filing
only for an asked period that one does not cover (a span longer than its statements' columns),
or when the library holds no filing of the asked period, which the answer then says
(PeriodChoice.missing).

Periods are counted in months (year * 12 + month - 1). A cover's period end is rounded to the
nearest month end (a 52-53 week year ending December 26 or January 2 ends in December), and a
fiscal year is named by the year its rounded end falls in (Walmart's year ended January 31, 2018
is fiscal 2018, Adobe's ended December 1, 2017 fiscal 2017): the company's year-end month is read
from its own annual covers, never assumed per company. A filing covers, besides its own period,
the prior years' columns of its statements: an annual report the two years before (income and
cash flow statements show three), a quarterly report the same quarter a year before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rag.questions.periods import Period, Periods
from rag.retrieval.filings.covers import Cover

DECEMBER = 11  # 0-based month: a company with no annual cover in the library is taken as calendar
QUARTERLY = ("10-Q", "release")
_MONTH_NAMES = "January February March April May June July August September October November December".split()


@dataclass(frozen=True)
class Span:
    """Months first..last (inclusive); for a date, its day and its month as written (first and
    last then hold the date as a period's end, rounded: December 2 ends November's period)."""

    first: int
    last: int
    day: int = 0
    month: int = -1

    @property
    def length(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class Filing:
    """One document of a company, with its form and span (None when its cover gives no date)."""

    doc_id: str
    form: str
    span: Span | None
    cover: Cover


@dataclass(frozen=True)
class PeriodChoice:
    """The filings chosen (doc ids, best first) and, when the library holds no filing of the asked
    period, that period (the answer names it and the filing used instead)."""

    doc_ids: tuple[str, ...]
    missing: Period | None = None


def _rounded(year: int, month: int, day: int) -> int:
    """A period's end as a month index, rounded to the nearest month end."""
    index = year * 12 + month - 1
    return index if day == 0 or day >= 15 else index - 1


def year_end(covers: Sequence[Cover]) -> int:
    """The 0-based month the company's fiscal year ends in, by its annual covers (else December)."""
    ends = Counter(_rounded(c.year, c.month, c.day) % 12 for c in covers if c.form == "10-K" and c.month)
    return ends.most_common(1)[0][0] if ends else DECEMBER


def filing_span(cover: Cover, fy_end: int) -> Span | None:
    """The months a filing covers: a year for an annual report, a quarter for a quarterly report
    or results release, the day of an 8-K; None when its cover names no period."""
    if not cover.year:
        return None
    if cover.quarter and not cover.month:  # a release names its fiscal quarter, not its end
        last = cover.year * 12 + fy_end - 3 * (4 - cover.quarter)
        return Span(last - 2, last)
    if cover.form == "8-K":
        month = cover.year * 12 + cover.month - 1
        return Span(month, month, cover.day, month)
    last = _rounded(cover.year, cover.month, cover.day)
    return Span(last - 11 if cover.form == "10-K" else last - 2, last)


def asked_span(period: Period, fy_end: int) -> Span:
    """The months an asked period covers for a company whose year ends in month fy_end."""
    if period.month:
        month = period.year * 12 + period.month - 1
        end = _rounded(period.year, period.month, period.day)
        return Span(end, end, period.day, month)
    last = period.year * 12 + fy_end
    if period.quarter:
        last -= 3 * (4 - period.quarter)
        return Span(last - 2, last)
    return Span(last - 11, last)


def _dated(filings: Sequence[Filing]) -> list[tuple[Filing, Span]]:
    return [(f, f.span) for f in filings if f.span is not None]


def own(span: Span, filings: Sequence[Filing]) -> list[Filing]:
    """The filings of the asked period itself, the best kind first: its own report (the annual
    report of the year, the quarterly report or release of the quarter); for a month or a day,
    the report whose period ends then, an 8-K of that month (that day first), then the shortest
    report whose period holds it."""
    reports = [(f, s) for f, s in _dated(filings) if f.form != "8-K"]
    exact = [f for f, s in reports if (s.first, s.last) == (span.first, span.last)]
    if exact:
        return exact
    if span.length == 1:
        ending = [f for f, s in reports if s.last == span.last]
        dated = [(f, s) for f, s in _dated(filings) if f.form == "8-K" and s.month == span.month]
        current = [f for f, s in sorted(dated, key=lambda fs: fs[1].day != span.day)]
        if ending or current:
            return ending or current
    holding = [(s.length, f) for f, s in reports if s.first <= span.first and span.last <= s.last]
    return [f for _, f in sorted(holding, key=lambda lf: lf[0])[:1]]


def comparative(span: Span, filings: Sequence[Filing]) -> list[Filing]:
    """Later filings whose statements show the asked period as a prior period, nearest first: an
    annual report of one or two years later, a quarterly report of the same quarter a year later."""
    found = []
    for f, s in _dated(filings):
        gap = s.last - span.last
        if (f.form == "10-K" and span.length in (1, 3, 12) and gap in (12, 24)) or (
            f.form in QUARTERLY and span.length in (1, 3) and gap == 12
        ):
            found.append((gap, f))
    return [f for _, f in sorted(found, key=lambda gf: gf[0])]


def covers(filing: Filing, span: Span) -> bool:
    """Whether a filing shows the asked period: its own, held in its period, or a prior column."""
    return bool(own(span, [filing]) or comparative(span, [filing]))


def nearest(span: Span, filings: Sequence[Filing]) -> list[Filing]:
    """The dated filing whose period ends nearest the asked one's end (the later on a tie), among
    those of the asked period's length when there are any (a year asked: an annual report)."""
    dated = _dated(filings)
    alike = [(f, s) for f, s in dated if s.length == span.length] or dated
    ranked = sorted(alike, key=lambda fs: (abs(fs[1].last - span.last), -fs[1].last))
    return [f for f, _ in ranked[:1]]


def choose(filings: Sequence[Filing], filing: Periods, fallback: bool = True) -> PeriodChoice | None:
    """The company's filings the question asks for (see the module docstring), or None when it
    names no period or form. Without fallback only a filing of an asked period itself is chosen."""
    formed = bool(filing.form) and any(f.form == filing.form for f in filings)
    pool = [f for f in filings if f.form == filing.form] if formed else list(filings)
    if not filing.asked:
        return PeriodChoice(tuple(f.doc_id for f in pool)) if formed else None
    fy_end = year_end([f.cover for f in filings])
    spans = sorted(((asked_span(p, fy_end), p) for p in filing.asked), key=lambda sp: -sp[0].last)
    for n, (span, _) in enumerate(spans):
        anchor = own(span, pool)
        if anchor:
            chosen = list(anchor)
            for other, _ in spans[n + 1 :]:
                if not any(covers(f, other) for f in chosen):
                    chosen += (own(other, pool) or comparative(other, pool))[:1]
            return PeriodChoice(tuple(dict.fromkeys(f.doc_id for f in chosen)))
    if not fallback:
        return None
    latest, period = spans[0]
    found = comparative(latest, pool) or nearest(latest, pool)
    return PeriodChoice((found[0].doc_id,), period) if found else None


def period_words(cover: Cover) -> str:
    """A filing's own period as its cover gives it ("fiscal year ended December 1, 2017")."""
    if not cover.year:
        return ""
    if cover.quarter and not cover.month:
        return f"Q{cover.quarter} {cover.year} results"
    date = f"{_MONTH_NAMES[cover.month - 1]} {cover.day}, {cover.year}"
    if cover.form == "8-K":
        return f"report dated {date}"
    return f"{'quarter' if cover.form == '10-Q' else 'fiscal year'} ended {date}"


def missing_line(missing: Period, used: Sequence[tuple[str, Cover]]) -> str:
    """The answer's line when the library holds no filing of the asked period: which filing the
    evidence comes from instead, and its own period."""
    named = "; ".join(f"{name} ({words})" if (words := period_words(cover)) else name for name, cover in used)
    return f"The library holds no filing for {missing.words()}; this draws on {named}."
