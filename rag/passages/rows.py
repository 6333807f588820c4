"""How a table row is quoted with the column the question asks for (the offline answerer's row
units, rag.passages.units). Nothing here invents a number: every number quoted is a cell of the
row as written, and a year is named only when a header gave it (rag.tables.lines.header_years)."""

from __future__ import annotations

from collections.abc import Sequence

from rag.tables.lines import DASHES, Row, header_years


def context_years(context: str) -> tuple[int, ...]:
    """The column years in a source's context line ("Cash flows | 2023 2022"): its last part
    that reads as a header line, or ()."""
    for part in reversed(context.split("|")):
        years = header_years(part)
        if years:
            return years
    return ()


def value_for(row: Row, columns: Sequence[int], year: int) -> str | None:
    """The row's cell in the column of that year, when the header and the cells line up."""
    if year not in columns or len(columns) != len(row.cells):
        return None
    cell = row.cells[list(columns).index(year)].text
    return None if cell in DASHES else cell


def quote_row(row: Row, columns: Sequence[int], years: Sequence[int]) -> str:
    """The row as an answer: "Capital expenditures: 1,577 in 2022 (columns 2023, 2022:
    1,602 / 1,577)", or the label and cells as written when no column can be named."""
    cells = " / ".join(row.printed)
    aligned = len(columns) == len(row.cells)
    where = f" (columns {', '.join(map(str, columns))}: {cells})" if aligned else ""
    for year in years:
        value = value_for(row, columns, year)
        if value is not None:
            return f"{row.label}: {value} in {year}{where}"
    return f"{row.label}: {cells}" + (f" (columns {', '.join(map(str, columns))})" if aligned else "")
