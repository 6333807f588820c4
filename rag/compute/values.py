"""Numbers as computed answers use them: the scales tables state ("in thousands", "in millions"),
rounding as an analyst rounds (half up), and a result written as statements print amounts. A
cell's value is read exactly where the table is read (rag.tables.lines.parse_amount). Everything
is decimal.Decimal: a cell is never a float, so 0.1 + 0.2 is 0.3 and a sum of cells is the sum an
accountant gets."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

# How many units a scale word means. "units" is a table that states none; a per-share row is
# "per share" (units too, but never added to or divided by an amount in millions).
SCALES: dict[str, Decimal] = {
    "units": Decimal(1),
    "thousands": Decimal(1_000),
    "millions": Decimal(1_000_000),
    "billions": Decimal(1_000_000_000),
    "per share": Decimal(1),
}


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
