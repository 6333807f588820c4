"""A fake OCR engine (ingest.pdf.ocr.OcrEngine) for tests that count what OCR is asked to do, or hold
a reading until the test lets it go: it reads the same confident sentence from every picture."""

from __future__ import annotations

import threading

from PIL import Image

from ingest.pdf.ocr import OcrResult, OcrWord

SENTENCE = "The tide tables were copied by hand from the harbour ledger"


class CountingEngine:
    """Reads SENTENCE (confidence 0.95) from any picture and counts the readings; with a ``gate``, each
    reading first waits until the gate is set (or ``hold_s`` passes, so a broken test cannot hang)."""

    name = "fake ocr"

    def __init__(
        self, gate: threading.Event | None = None, hold_s: float = 120.0, gave_up: bool = False
    ) -> None:
        self.gate, self.hold_s, self.gave_up = gate, hold_s, gave_up
        self.readings = 0
        self.timeouts: list[float | None] = []
        self.reading = threading.Event()  # set once a reading has begun
        self._lock = threading.Lock()

    def read_turned(self, picture: Image.Image, rotation: int, timeout_s: float | None = None) -> OcrResult:
        with self._lock:
            self.readings += 1
            self.timeouts.append(timeout_s)
        self.reading.set()
        if self.gate is not None:
            self.gate.wait(self.hold_s)
        if self.gave_up:
            return OcrResult((), rotation, gave_up=True)
        words = SENTENCE.split()
        step = 0.9 / len(words)
        return OcrResult(
            tuple(
                OcrWord(word, 0.95, (0.05 + i * step, 0.1, 0.05 + (i + 1) * step, 0.14), i == 0, i == 0)
                for i, word in enumerate(words)
            ),
            rotation,
        )

    def orientation(self, picture: Image.Image) -> int:
        return 0
