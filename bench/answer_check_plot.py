"""The trade-off plot of `python -m bench answer_check`, drawn with Pillow (no plotting package):
answerable declined (x) against unanswerable answered as if answerable (y), one line per set, a
point per support threshold, the threshold in use ringed; one panel per mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from bench.common import ROOT

PLOT = ROOT / "bench" / "answer_check.png"
PANEL, MARGIN, TOP = 420, 60, 40
COLOURS = ((31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189))


def _xy(panel: int, x: float, y: float) -> tuple[float, float]:
    left = MARGIN + panel * (PANEL + MARGIN)
    return left + x * PANEL, TOP + (1 - y) * PANEL


def _axes(draw: ImageDraw.ImageDraw, panel: int, title: str, font: Any) -> None:
    x0, y0 = _xy(panel, 0, 0)
    x1, y1 = _xy(panel, 1, 1)
    draw.rectangle([x0, y1, x1, y0], outline=(0, 0, 0))
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        tx, _ = _xy(panel, tick, 0)
        _, ty = _xy(panel, 0, tick)
        draw.line([tx, y0, tx, y0 + 4], fill=(0, 0, 0))
        draw.text((tx - 10, y0 + 6), f"{tick:.2f}", fill=(0, 0, 0), font=font)
        draw.line([x0 - 4, ty, x0, ty], fill=(0, 0, 0))
        draw.text((x0 - 40, ty - 7), f"{tick:.2f}", fill=(0, 0, 0), font=font)
        draw.line([x0 + 1, ty, x1 - 1, ty], fill=(230, 230, 230))
    draw.text((x0, 12), title, fill=(0, 0, 0), font=font)
    draw.text((x0 + PANEL / 2 - 70, y0 + 24), "answerable declined", fill=(0, 0, 0), font=font)


def draw_curves(sets: list[dict[str, Any]], chosen: float, path: Path = PLOT) -> Path:
    """Write the PNG: a panel per mode ("support alone", "with the other rules"), a line per set."""
    font = ImageFont.load_default(size=13)
    with_curve = [s for s in sets if s["curve"]]
    modes = list(with_curve[0]["curve"]) if with_curve else []
    width = MARGIN + len(modes) * (PANEL + MARGIN)
    image = Image.new("RGB", (width, TOP + PANEL + 110), "white")
    draw = ImageDraw.Draw(image)
    for panel, mode in enumerate(modes):
        _axes(draw, panel, f"{mode}: unanswerable answered (y)", font)
        for colour, s in zip(COLOURS, with_curve):
            points = [p for p in s["curve"][mode] if p["answered_unanswerable"] is not None]
            xy = [_xy(panel, p["declined_answerable"], p["answered_unanswerable"]) for p in points]
            if len(xy) > 1:
                draw.line(xy, fill=colour, width=2)
            for p, (x, y) in zip(points, xy):
                draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=colour)
                if abs(p["threshold"] - chosen) < 1e-9:
                    draw.ellipse([x - 7, y - 7, x + 7, y + 7], outline=(0, 0, 0), width=2)
    legend_y = TOP + PANEL + 50
    for i, (colour, s) in enumerate(zip(COLOURS, with_curve)):
        x = MARGIN + i * 300
        draw.line([x, legend_y + 7, x + 24, legend_y + 7], fill=colour, width=3)
        draw.text((x + 30, legend_y), s["name"], fill=(0, 0, 0), font=font)
    note = f"points: support thresholds; ringed: the one in use ({chosen})"
    draw.text((MARGIN, legend_y + 24), note, fill=(0, 0, 0), font=font)
    image.save(path, optimize=True)
    return path
