"""What a filing's cover says about it: its form (annual, quarterly or current report, or an
earnings release), the period it covers or the date it reports, who filed it (the registrant's
name) and the numbers that identify the filer on every one of its covers (employer
identification number, Commission file number, trading symbol).

Read from a document's first pages (rag/retrieval/documents.py profiles them); the patterns are
those of the SEC's cover pages (Forms 10-K, 10-Q and 8-K) and of results releases, no company's.
A document whose first pages are no cover reads as an empty Cover.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
_DATE = r"([a-z]{3})[a-z]*\.?\s+(\d{1,2})\s*,\s*((?:19|20)\d\d)\b"
# "For the fiscal year ended December 31, 2018", "For the quarterly period ended June 30, 2022" (a
# few words of another column may come between, as pdfium reads some covers).
_PERIOD_ENDED = re.compile(
    r"\bfor\s+the\s+(fiscal\s+year|year|quarterly\s+period|quarter|fiscal\s+quarter)\s+ended\b"
    rf"[^.]{{0,40}}?\b{_DATE}",
    re.IGNORECASE,
)
# An 8-K: "Date of Report (Date of earliest event reported): May 25, 2023".
_REPORTED = re.compile(rf"\bdate\s+of\s+report\b[^:]{{0,60}}:?\s*{_DATE}", re.IGNORECASE)
# A results release: "2023 Second-Quarter", "second quarter 2023", "Reports First Quarter 2023".
_QUARTER_RESULTS = re.compile(
    r"\b(?:((?:19|20)\d\d)\s+(first|second|third|fourth)[- ]quarter|"
    r"(first|second|third|fourth)[- ]quarter\s+(?:of\s+)?((?:19|20)\d\d))\b",
    re.IGNORECASE,
)
_ORDINALS = ("first", "second", "third", "fourth")
_FORMS = (
    ("10-K", re.compile(r"\bform\s+10-?K\b|\bannual\s+report\s+pursuant\b", re.I)),
    ("10-Q", re.compile(r"\bform\s+10-?Q\b|\bquarterly\s+report\s+pursuant\b", re.I)),
    ("8-K", re.compile(r"\bform\s+8-?K\b|\bcurrent\s+report\s+pursuant\b", re.I)),
    ("release", re.compile(r"\b(?:for\s+immediate\s+release|news\s+release|press\s+release)\b", re.I)),
)
_EIN = re.compile(r"\b(\d{2})[- ](\d{7})\b")
_FILE_NUMBER = re.compile(r"\b(?:file\s*:?\s*(?:number|no\.?)|number)\s*:?\s*0*(\d{1,3})-0*(\d{3,6})\b", re.I)
_EXCHANGE = r"(?:NYSE|NASDAQ|Nasdaq|New\s+York\s+Stock\s+Exchange)"
# "(NYSE: JNJ)", "[NYSE: LMT]", and the first symbol of a cover's "Trading Symbol(s)" table.
_TICKER = re.compile(rf"([A-Z][\w&.,' -]{{1,60}}?)\s*[\[(]{_EXCHANGE}\s*:\s*([A-Z]{{1,5}})[\])]")
_SYMBOL_TABLE = re.compile(
    rf"[Tt]rading\s+[Ss]ymbol.{{0,400}}?[a-z0-9,)]\s+([A-Z]{{1,5}})\s+(?:The\s+)?{_EXCHANGE}", re.S
)
_REGISTRANT = re.compile(r"\(\s*exact\s+name\s+of\s+registrant", re.IGNORECASE)


@dataclass(frozen=True)
class Cover:
    """A filing as its cover describes it (empty fields where it says nothing)."""

    form: str = ""  # "10-K", "10-Q", "8-K", "release" or ""
    year: int = 0  # of the date the period ends (the report's date for an 8-K)
    month: int = 0
    day: int = 0
    quarter: int = 0  # a results release's quarter (it gives no end date), else 0
    keys: tuple[str, ...] = ()  # "ein:52-1893632", "file:1-11437", "symbol:lmt"
    name: str = ""  # the registrant's name as the cover writes it

    @property
    def dated(self) -> bool:
        """Whether the cover says which period or day it is about."""
        return bool(self.year)

    def to_json(self) -> dict[str, Any]:
        """The cover as plain JSON (saved with the document profiles)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Cover:
        """The cover saved by to_json."""
        return cls(**{**data, "keys": tuple(data.get("keys", ()))})


def read_cover(first_pages: Sequence[str]) -> Cover:
    """The cover facts of a document's first pages (see the module docstring)."""
    raw = "\n".join(first_pages)
    text = " ".join(raw.split())
    form = _form(text)
    year = month = day = quarter = 0
    found = _REPORTED.search(text) if form == "8-K" else _PERIOD_ENDED.search(text)
    mon, dd, yyyy = found.groups()[-3:] if found else ("", "", "")
    if found and mon.lower() in _MONTHS:
        year, month, day = int(yyyy), _MONTHS.index(mon.lower()) + 1, int(dd)
        if form == "" and found.re is _PERIOD_ENDED:
            form = "10-Q" if "quarter" in found.group(1).lower() else "10-K"
    else:
        results = _QUARTER_RESULTS.search(text)
        if results:
            year = int(results.group(1) or results.group(4))
            quarter = _ORDINALS.index((results.group(2) or results.group(3)).lower()) + 1
            form = form or "release"
    return Cover(form, year, month, day, quarter, _keys(text), _registrant(raw, text))


def _form(text: str) -> str:
    """The form the cover names first."""
    found = [(m.start(), name) for name, pattern in _FORMS if (m := pattern.search(text[:3000]))]
    return min(found)[1] if found else ""


def _keys(text: str) -> tuple[str, ...]:
    keys = []
    head = text[:4000]
    if ein := _EIN.search(head):
        keys.append(f"ein:{ein.group(1)}-{ein.group(2)}")
    if number := _FILE_NUMBER.search(head):
        keys.append(f"file:{int(number.group(1))}-{int(number.group(2))}")
    symbol = _SYMBOL_TABLE.search(head) or _TICKER.search(head)
    if symbol:
        keys.append(f"symbol:{symbol.group(symbol.lastindex or 1).lower()}")
    return tuple(keys)


def _registrant(raw: str, text: str) -> str:
    """The registrant's name: the line before "(Exact name of registrant ...)", after any number
    on it; or, on a release, the name before "(NYSE: JNJ)"."""
    found = _REGISTRANT.search(raw)
    if found:
        lines = [" ".join(x.split()) for x in raw[: found.start()].splitlines() if x.strip()]
        line = lines[-1] if lines else ""
        tokens = line.split()
        last_number = max((i for i, t in enumerate(tokens) if re.search(r"\d|:|_", t)), default=-1)
        name = " ".join(tokens[last_number + 1 :])
        return name if re.search(r"[A-Za-z]{2}", name) else ""
    ticker = _TICKER.search(text[:4000])
    return re.split(r"[.:;!?]\s+", ticker.group(1))[-1].strip(" ,") if ticker else ""
