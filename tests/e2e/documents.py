"""Small PDFs for the browser tests, the benchmark and the screenshot (text written for this project)."""

from __future__ import annotations

from tests.pages.conftest import make_pdf

GUIDE_TITLE = "A Short Guide to Water"
GUIDE = [
    "1. Boiling\n\n"
    "Water boils at 100 degrees Celsius at sea level, where the air pressure is one standard "
    "atmosphere. The boiling point of water falls as the air pressure around it drops, because "
    "the molecules need less energy to escape into the air. Dissolved salt raises the boiling "
    "point slightly, by about half a degree for a spoonful in a litre.\n\n"
    "A kettle switches itself off when steam reaches a bimetallic strip near the spout. The strip "
    "bends as it warms and pushes the switch open.",
    "2. Altitude\n\n"
    "On high mountains the boiling point of water is much lower: on the summit of Mount Everest "
    "water boils at about 70 degrees Celsius. Food cooked in boiling water therefore takes longer "
    "at altitude, and climbers use pressure cookers to raise the temperature again.\n\n"
    "Air pressure halves roughly every five and a half kilometres of height. Weather also moves "
    "the pressure, so the boiling point at one place changes by a few tenths of a degree.",
    "3. Freezing\n\n"
    "Pure water freezes at 0 degrees Celsius. Salt lowers the freezing point, which is why roads "
    "are salted in winter and why sea water freezes at about minus two degrees. Ice is less dense "
    "than liquid water, so lakes freeze from the top down and fish survive the winter beneath.",
]
GUIDE_QUESTION = "What is the boiling point of water?"

HOSTILE_TITLE = '<img src=x onerror="window.__pwned=1"> Evil <b>title</b>'
HOSTILE = [
    "Attack notes. The attack text is <img src=x onerror=window.__pwned=1> and "
    "<script>window.__pwned=1</script> inside one sentence. A link [click me](javascript:window.__pwned=1) "
    'and **bold** markdown and $\\frac{a}{b}$ LaTeX and <a href="javascript:window.__pwned=1">anchor</a>.',
]
HOSTILE_QUESTION = "What is the attack text?"


def guide_pdf() -> bytes:
    """The three-page water guide."""
    return make_pdf(GUIDE, GUIDE_TITLE)


def hostile_pdf() -> bytes:
    """A one-page PDF full of markup that must stay text."""
    return make_pdf(HOSTILE, HOSTILE_TITLE)
