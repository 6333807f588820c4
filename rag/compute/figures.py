"""The vocabulary of a computed figure as an answer keeps it: the table cell an operand's evidence
is (Cell), each operand as the answer used it (ComputedOperand) and the figure (Computed). Plain,
frozen values: rag.types puts them on Evidence and Answer, rag.compute makes them."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Cell:
    """The table cell a piece of evidence is, when it is an operand of a computed figure: the short
    id of the chunk it was read from, its row's label, its column, the cell as printed, and where
    the label sits on the page ([label_start, label_end) in the page's text; the evidence's
    locator is the number's own characters). The page picture highlights these, not the chunk."""

    chunk: str
    label: str
    column: str
    printed: str
    label_start: int = 0
    label_end: int = 0


@dataclass(frozen=True)
class ComputedOperand:
    """One operand of a computed figure: its name in the formula, the value used (a decimal string
    in its table's scale, sign as used), the cell as printed, the scale, the row label, the column,
    and the short id of its cell's evidence (its footnote)."""

    name: str
    value: str
    printed: str
    scale: str
    label: str
    column: str
    short_id: str


@dataclass(frozen=True)
class Computed:
    """A figure the answer computed (rag.compute): the formula with its operands' names, each
    operand, the result as a decimal string in the asked unit, and the unit ("ratio", "%",
    "times", "days", "USD millions")."""

    formula: str
    operands: tuple[ComputedOperand, ...]
    result: str
    unit: str

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON and saved turns."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Computed:
        """Inverse of to_dict."""
        return cls(
            data["formula"],
            tuple(ComputedOperand(**o) for o in data["operands"]),
            data["result"],
            data["unit"],
        )
