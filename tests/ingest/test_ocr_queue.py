"""A long OCR job does not hold the queue: with the worker's second loop, a 10-page upload queued
behind a long scan is done while the scan is still read, and the job list shows the scan's progress
by OCR. The scan's reading is held by a gated fake engine until the short job is done (no timings);
tests/pg/test_pg_ocr.py runs the same on PostgreSQL."""

from __future__ import annotations

import threading
from pathlib import Path

from cli.jobs import job_line
from components.library.jobs_view import describe
from ingest.jobs import BY_OCR, DONE, READING
from ingest.types import OcrOptions
from ingest.worker import Worker
from tests.ingest.ocr_fakes import CountingEngine
from tests.ingest.pdfs import long_pages, make_image_pdf, make_pdf
from tests.ingest.test_jobs import finished, wait_for
from tests.ingest.test_library import open_library

SCAN_PAGES = 40


def gated_engine() -> tuple[CountingEngine, threading.Event]:
    """An engine whose readings wait for the returned gate."""
    gate = threading.Event()
    return CountingEngine(gate=gate), gate


def check_a_short_upload_goes_before_a_long_scan(
    library, engine: CountingEngine, gate: threading.Event
) -> None:
    """Queue a long scan, then a 10-page text PDF; a worker with two loops finishes the short one
    while the scan's first page is still being read, then the scan once the gate opens."""
    scan = library.jobs.enqueue(make_image_pdf(SCAN_PAGES), "long-scan.pdf")
    short = library.jobs.enqueue(make_pdf(long_pages(10)), "ten-pages.pdf")
    worker = Worker(library, poll_s=0.05, at_once=2).start()
    try:
        wait_for(engine.reading.is_set, "OCR to start on the scan")
        done = wait_for(lambda: finished(library, short), "the short upload to be done")
        assert done.stage == DONE and done.message.startswith("10 pages, ")
        running = library.jobs.get(scan.job_id)
        assert (running.stage, running.message, running.done, running.total) == (
            READING,
            BY_OCR,
            1,
            SCAN_PAGES,
        )
        assert describe(running) == f"Reading pages by OCR (1 of {SCAN_PAGES})"
        assert f"reading 1/{SCAN_PAGES}" in job_line(running) and job_line(running).endswith("(by OCR)")
        assert engine.readings == 1
    finally:
        gate.set()
    ended = wait_for(lambda: finished(library, scan), "the scan to be done")
    worker.stop()
    assert ended.stage == DONE and ended.message.startswith(f"{SCAN_PAGES} pages, ")
    assert engine.readings == SCAN_PAGES


def test_a_short_upload_goes_before_a_long_scan(tmp_path: Path) -> None:
    engine, gate = gated_engine()
    library = open_library(tmp_path, ocr=OcrOptions(engine=engine))
    check_a_short_upload_goes_before_a_long_scan(library, engine, gate)
