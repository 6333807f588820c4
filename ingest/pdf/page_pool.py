"""A long PDF's text layers read in helper processes, contiguous ranges of pages each, so reading
uses every core (PDFium is not thread-safe: ingest.pdf.pdfium_guard) and the asking process keeps
its PDFium lock free for rendering meanwhile.

Each helper is ``python -c`` running ``serve`` (not multiprocessing: its spawn re-runs the
caller's main script, and its results are pickles). It reads a request from stdin (a JSON line
with the ranges, then the PDF's bytes), opens the PDF and reads each range with
``read_page`` (the reader's own, in one process), and writes one JSON line per range. Ranges go round-robin to the helpers and are read back in page
order, so pages, labels, offsets and damaged pages are the same either way
(tests/ingest/test_page_pool.py). Helpers start on first use or when a worker warms them
(``warm``) and stay; one busy with another file, or one that died, leaves the caller to read in
its own process as before.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

log = logging.getLogger(__name__)

# Fewer pages than this are read in the asking process: a short file reads in less time than
# sending it to the helpers takes. The 549-page PepsiCo 10-K took 2.1-4.1 s in one process here.
PARALLEL_MIN_PAGES = 48
RANGES_PER_HELPER = 4  # progress is reported as each range comes back, in page order
MAX_HELPERS = 4
_ROOT = str(Path(__file__).resolve().parents[2])  # where the ``ingest`` package is
_SERVE = f"import sys; sys.path.insert(0, {_ROOT!r}); from ingest.pdf.page_pool import serve; serve()"

# (text, None, usable, drawn, lines): a page's text, whether its text layer is usable
# (ingest.pdf.text_layer), whether anything is drawn on it (ingest.pdf.page_text) and the type of
# its lines (ingest.pdf.line_styles.line_rows); ("", the error's text, False, True, []) for a damaged
# page (drawn, as far as anyone knows: OCR may still read it)
PageRead = tuple[str, str | None, bool, bool, list]
_busy = threading.Lock()  # one file at a time through the helpers
_helpers: list[subprocess.Popen] = []


def helpers() -> int:
    """How many helper processes: the cores this process may use, at most MAX_HELPERS."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(MAX_HELPERS, cores))


def worth_it(pages: int) -> bool:
    """Whether a file of ``pages`` pages is read by the helpers."""
    return pages >= PARALLEL_MIN_PAGES and helpers() > 1


def warm() -> None:
    """Start the helpers now (a worker does when it starts), so the first long file does not wait
    for them; does nothing where they are not used."""
    if helpers() < 2 or not _busy.acquire(blocking=False):
        return
    try:
        _started()
    except OSError:  # read_pages tries again, or the file is read in the asking process
        log.warning("could not start the page-reading processes", exc_info=True)
    finally:
        _busy.release()


def read_pages(
    data: bytes, password: str | None, count: int, progress: Callable[[int], None]
) -> list[PageRead] | None:
    """Pages 0..count-1 of the PDF in ``data``, read by the helpers, in page order, ``progress``
    hearing how many pages are read after each range; None when the helpers are busy with
    another file or failed (the caller then reads the pages itself)."""
    if not _busy.acquire(blocking=False):
        return None
    try:
        procs = _started()
        bounds = _ranges(count, len(procs) * RANGES_PER_HELPER)
        for n, proc in enumerate(procs):
            mine = bounds[n :: len(procs)]
            head = json.dumps({"size": len(data), "password": password, "ranges": mine})
            proc.stdin.write(head.encode() + b"\n" + data)
            proc.stdin.flush()
        read: list[PageRead] = []
        for k, (_, stop) in enumerate(bounds):
            read += _answer(procs[k % len(procs)].stdout)
            progress(stop)
        return read
    except Exception:  # a helper died or wrote nonsense: stop them all, read in the caller
        log.warning("the page-reading processes failed; reading in this process", exc_info=True)
        _stop_helpers()
        return None
    finally:
        _busy.release()


def serve() -> None:
    """A helper's loop: requests from stdin, one JSON line per range to stdout, until EOF."""
    import pypdfium2 as pdfium

    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything else printed goes to stderr, never into the answers
    source = sys.stdin.buffer
    while line := source.readline():
        request = json.loads(line)
        pdf = pdfium.PdfDocument(source.read(request["size"]), password=request["password"])
        try:
            for start, stop in request["ranges"]:
                out.write(json.dumps(read_range(pdf, start, stop)).encode() + b"\n")
                out.flush()
        finally:
            pdf.close()


def read_range(pdf: Any, start: int, stop: int) -> list[PageRead]:
    """Pages start..stop-1 of an open pypdfium2 document, each read by ``read_page``."""
    return [read_page(pdf, index) for index in range(start, stop)]


def read_page(pdf: Any, index: int) -> PageRead:
    """One page of an open pypdfium2 document: its text, or its error (ingest.pdf.reader's rule: a
    damaged page is kept, empty)."""
    from ingest.pdf import page_text
    from ingest.pdf.text_layer import usable

    try:
        text, drawn, lines = page_text.page_read(pdf, index)
    except Exception as exc:  # page-level damage, reported by the asking process
        return ("", str(exc), False, True, [])
    return (text, None, usable(text), drawn, lines)


def _answer(stream: IO[bytes]) -> list[PageRead]:
    line = stream.readline()
    if not line:
        raise RuntimeError("a page-reading process ended")
    return [(text, error, fit, drawn, lines) for text, error, fit, drawn, lines in json.loads(line)]


def _ranges(count: int, parts: int) -> list[tuple[int, int]]:
    size = max(1, -(-count // max(1, parts)))
    return [(start, min(count, start + size)) for start in range(0, count, size)]


def _started() -> list[subprocess.Popen]:
    """The running helpers, started first where needed (the caller holds _busy)."""
    if len(_helpers) != helpers() or any(p.poll() is not None for p in _helpers):
        _stop_helpers()
        for _ in range(helpers()):
            _helpers.append(
                subprocess.Popen(
                    [sys.executable, "-c", _SERVE], stdin=subprocess.PIPE, stdout=subprocess.PIPE
                )
            )
    return list(_helpers)


def _stop_helpers() -> None:
    while _helpers:
        proc = _helpers.pop()
        try:
            proc.stdin.close()  # EOF: the helper's loop ends
            proc.stdout.close()  # and a helper still writing an answer stops at once
            proc.wait(timeout=5)
        except Exception:  # stuck, or its pipe already broken
            proc.kill()
            proc.wait()


atexit.register(_stop_helpers)
