"""Numbers as filings print them, read exactly: "1,577", "(1,577)" and "( 1,177 )" (negative),
"$ 2,306,072", "4.450%", a dash for nothing; the scales tables state ("in thousands", "in
millions"); and rounding as an analyst rounds (half up). Everything is decimal.Decimal: a cell is
never a float, so 0.1 + 0.2 is 0.3 and a sum of cells is the sum an accountant gets."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

# How many units a scale word means. "units" is a table that states none; a per-share row is
# "per share" (units too, but never added to or divided by an amount in millions).
SCALES: dict[str, Decimal] = {
    "units": Decimal(1),
    "thousands": Decimal(1_000),
    "millions": Decimal(1_000_000),
    "billions": Decimal(1_000_000_000),
    "per share": Decimal(1),
}
_AMOUNT = re.compile(
    r"^(?P<open>\()?\s*(?P<minus>[-\u2212])?\s*[$\u20ac\u00a3]?\s*(?P<digits>\d[\d,]*(?:\.\d+)?|\.\d+)\s*(?P<pct>%)?\s*(?P<close>\))?$"
)
DASHES = frozenset({"-", "\u2013", "\u2014", "\u2212"})


def parse_amount(printed: str) -> Decimal | None:
    """The value of a printed cell, or None for a dash or anything that is not one number.
    Parentheses and a leading minus make it negative; a percent sign is kept out (4.450% is 4.450)."""
    text = " ".join(printed.split())
    if text in DASHES:
        return None
    found = _AMOUNT.match(text)
    if not found or bool(found["open"]) != bool(found["close"]):
        return None
    digits = found["digits"].replace(",", "")
    try:
        value = Decimal(digits)
    except InvalidOperation:  # pragma: no cover - the pattern only lets digits through
        return None
    return -value if found["open"] or found["minus"] else value


def in_parentheses(printed: str) -> bool:
    """Whether a printed cell is in parentheses, as a statement shows an outflow or a loss."""
    text = printed.strip()
    return text.startswith("(") and text.endswith(")")


def round_half_up(value: Decimal, decimals: int) -> Decimal:
    """The value rounded to that many decimals, halves away from zero (2.345 -> 2.35)."""
    return value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def decimals_of(printed: str) -> int:
    """How many decimals a printed number has ("2,953.9": 1)."""
    digits = re.sub(r"[^\d.]", "", printed)
    return len(digits.partition(".")[2])


def plain(value: Decimal) -> str:
    """A decimal as a plain string, never in exponent notation ("0.52", "9068", "-1.5")."""
    text = format(value, "f")
    return "0" if text in ("-0", "-0.0") else text


def grouped(value: Decimal) -> str:
    """A decimal with thousands separators, as statements print amounts ("9,068", "-1,234.5")."""
    sign = "-" if value < 0 else ""
    whole, dot, fraction = plain(abs(value)).partition(".")
    return f"{sign}{int(whole):,}{dot}{fraction}"
