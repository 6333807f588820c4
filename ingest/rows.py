"""Plain JSON for the values both stores keep in text or jsonb columns: page locators (a list
per locator, with the page's OCR confidence as a fifth item only when it was read by OCR, so text
pages keep the four items they always had) and a page's OCR record."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ingest.types import OcrBox, PageLocator, PageOcr


def locators_data(locators: Sequence[PageLocator]) -> list[list[Any]]:
    """[[page_index, page_label, char_start, char_end(, ocr_confidence)], ...]."""
    rows = []
    for loc in locators:
        row: list[Any] = [loc.page_index, loc.page_label, loc.char_start, loc.char_end]
        if loc.ocr_confidence is not None:
            row.append(loc.ocr_confidence)
        rows.append(row)
    return rows


def locators_from(data: Sequence[Sequence[Any]]) -> tuple[PageLocator, ...]:
    """Inverse of locators_data (also reads the four-item rows of libraries made before OCR)."""
    return tuple(
        PageLocator(
            int(row[0]), str(row[1]), int(row[2]), int(row[3]), _float(row[4] if len(row) > 4 else None)
        )
        for row in data
    )


def sections_text(paths: Sequence[str]) -> str:
    """A chunk's section paths as one text column (one a line: a title never holds a line end)."""
    return "\n".join(paths)


def sections_from(text: str | None) -> tuple[str, ...]:
    """Inverse of sections_text ("" and NULL: no sections)."""
    return tuple(text.split("\n")) if text else ()


def page_sections_data(sections: Sequence[tuple[int, str]]) -> list[list[Any]]:
    """A page's sections (Page.sections) as plain data: [[char offset, path], ...]."""
    return [[start, path] for start, path in sections]


def page_sections_from(data: Sequence[Sequence[Any]] | str | None) -> tuple[tuple[int, str], ...]:
    """Inverse of page_sections_data; also takes the JSON text SQLite stores ("" and NULL: none)."""
    if isinstance(data, str):
        data = json.loads(data) if data else None
    return tuple((int(start), str(path)) for start, path in data or ())


def ocr_data(ocr: PageOcr | None) -> dict[str, Any] | None:
    """A page's OCR record as plain data (None for a page read from its text layer)."""
    if ocr is None:
        return None
    boxes = [[b.char_start, b.char_end, b.left, b.top, b.right, b.bottom] for b in ocr.boxes]
    return {"engine": ocr.engine, "confidence": ocr.confidence, "boxes": boxes}


def ocr_from(data: dict[str, Any] | str | None) -> PageOcr | None:
    """Inverse of ocr_data; also takes the JSON text SQLite stores."""
    if data is None:
        return None
    if isinstance(data, str):
        data = json.loads(data)
    boxes = tuple(OcrBox(int(a), int(b), *(float(v) for v in box)) for a, b, *box in data["boxes"])
    return PageOcr(str(data["engine"]), float(data["confidence"]), boxes)


def ocr_json(ocr: PageOcr | None) -> str | None:
    """ocr_data as JSON text, for SQLite."""
    data = ocr_data(ocr)
    return None if data is None else json.dumps(data, separators=(",", ":"))


def _float(value: Any) -> float | None:
    return None if value is None else float(value)
