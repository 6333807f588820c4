"""python -m cli.ingest --queue, worker, jobs and cancel: lines and JSON objects scripts can read, exit
statuses, and the synchronous default left as it was (tests/cli/test_ingest.py)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_ingest import run
from tests.ingest.pdfs import PARAGRAPH, make_image_pdf, make_pdf


def test_queue_then_a_worker_then_the_job_list(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (tmp_path / "good.pdf").write_bytes(make_pdf([PARAGRAPH * 3], title="Good"))
    (tmp_path / "scan.pdf").write_bytes(make_image_pdf())
    queued = run(
        "--data-dir", str(data), "--queue", "--json", str(tmp_path / "good.pdf"), str(tmp_path / "scan.pdf")
    )
    assert queued.returncode == 0, queued.stderr
    records = [json.loads(line) for line in queued.stdout.splitlines()]
    assert [(r["file"].rsplit("/", 1)[1], r["status"]) for r in records] == [
        ("good.pdf", "queued"),
        ("scan.pdf", "queued"),
    ]
    listed = run("jobs", "--data-dir", str(data), "--json")
    assert [(j["file"], j["stage"]) for j in map(json.loads, listed.stdout.splitlines())] == [
        ("good.pdf", "queued"),
        ("scan.pdf", "queued"),
    ]
    worker = run("worker", "--data-dir", str(data), "--until-idle")
    assert worker.returncode == 0, worker.stderr
    assert "good.pdf" in worker.stdout and "scan.pdf" in worker.stdout
    jobs = {
        j["file"]: j
        for j in map(json.loads, run("jobs", "--data-dir", str(data), "--json").stdout.splitlines())
    }
    assert jobs["good.pdf"]["stage"] == "done" and jobs["good.pdf"]["message"].startswith("1 pages, ")
    assert jobs["scan.pdf"]["stage"] == "failed"
    assert jobs["scan.pdf"]["message"] == (  # the worker reads by OCR, as the settings' default has it
        "scan.pdf: has no text layer, and OCR found no text on its pages "
        "(page 1: no text found by OCR; page 2: no text found by OCR)"
    )
    again = run("--data-dir", str(data), "--queue", str(tmp_path / "good.pdf"))
    assert again.returncode == 0 and again.stdout.startswith("skipped ")


def test_queue_of_an_unreadable_path_exits_1_and_cancel(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (tmp_path / "good.pdf").write_bytes(make_pdf([PARAGRAPH * 3], title="Good"))
    missing = run("--data-dir", str(data), "--queue", str(tmp_path / "nothing-here.pdf"))
    assert missing.returncode == 1 and "cannot be read" in missing.stdout
    queued = run("--data-dir", str(data), "--queue", "--json", str(tmp_path / "good.pdf"))
    job_id = json.loads(queued.stdout)["job_id"]
    cancelled = run("cancel", job_id[:8], "--data-dir", str(data))
    assert cancelled.returncode == 0 and cancelled.stdout.strip() == "cancelled good.pdf"
    assert run("cancel", job_id[:8], "--data-dir", str(data)).returncode == 1  # finished already
    assert json.loads(run("jobs", "--data-dir", str(data), "--json").stdout)["stage"] == "cancelled"
