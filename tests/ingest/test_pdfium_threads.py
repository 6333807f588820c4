"""Reading and rendering from several threads at once (as Streamlit sessions do) must not crash.

PDFium is not thread-safe; without ingest.pdf.pdfium_guard this crashed the whole test process with
a segfault. The check runs in a child process so a crash fails this test instead of the suite.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys
from concurrent.futures import ThreadPoolExecutor
from tests.ingest.pdfs import PARAGRAPH, make_pdf
from ingest.pdf.reader import read_pdf
from ingest.pdf.render import draw_page, render_page

pdf = make_pdf([PARAGRAPH * 3] * 6)

def work(n):
    for _ in range(15):
        doc = read_pdf(pdf, f"t{n}.pdf")
        assert len(doc.pages) == 6 and doc.pages[2].text.strip()
        png = render_page(pdf, n % 6, [(0, 40)], scale=0.5)
        assert png.startswith(b"\\x89PNG")
        assert draw_page(pdf, n % 6, [(0, 40)], scale=0.5).boxes
    return n

with ThreadPoolExecutor(max_workers=4) as pool:
    assert sorted(pool.map(work, range(8))) == list(range(8))
print("ok")
"""


def test_threads_reading_and_rendering_at_once_do_not_crash() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, f"child exited {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout.strip() == "ok"
