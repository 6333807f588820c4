"""Scanned pages: which OCR engine, how accurate, how fast, how much memory, and where the "no
text found" line falls. Scans are made from text PDFs by bench/scans.py (pypdfium2 renders each
page at 150 or 200 dpi into an image-only PDF), so the true text of every page is known.

- engines: Tesseract 5.5.4 in process (tesserocr, the app's), Debian's Tesseract 5.3.0 through
  pytesseract (when both are installed), and RapidOCR (rapidocr-onnxruntime 1.4.4, PP-OCRv4,
  when installed), on the same pages, alternating engines page by page;
- accuracy: word recall of the app's OCR path (ingest.pdf.ocr_pages) against the text layer, on the
  squad-dev PDFs and on filings-dev pages with tables, at 150 and 200 dpi;
- kept or no text found: the page confidence and confident-word count of real scans against
  blank, speckled and picture pages and pages read sideways;
- speed: pages per second with one and two reading threads, and an 80-page scanned document
  ingested end to end (Library.add_pdf with the local embedder), with the longest silence
  between two progress reports;
- memory: peak resident memory of that ingest, embedder loaded;
- answers: squad-dev's 80-question sample (bench/eval.py) on the scans against the text PDFs.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.common import CORPUS, median, peak_rss_mb, run_child
from bench.scans import image_pdf, scan_pages, scan_pdf

SQUAD = sorted((CORPUS / "squad-dev" / "pdfs").glob("*.pdf"))
# Filings pages with tables (0-based): balance sheet, income statement, cash flows and a
# notes table of Adobe's 2015 10-K (bench/text_layer.py met them as the densest tables).
FILING = CORPUS / "filings-dev" / "pdfs" / "ADOBE_2015_10K.pdf"
FILING_PAGES = (58, 59, 62, 102)
WORD = re.compile(r"[a-z0-9]+")
DPI = 150  # what the app renders scanned pages at for OCR (OcrOptions().dpi)


def words(text: str) -> Counter:
    """Lower-case words and numbers (a hyphen or soft hyphen joins nothing)."""
    return Counter(WORD.findall(text.lower().replace("\u00ad", "")))


def recall(true: str, found: str) -> float:
    """Share of the true words (with repeats) that were found."""
    want, got = words(true), words(found)
    total = sum(want.values())
    return sum((want & got).values()) / total if total else 1.0


def true_pages(data: bytes, pages: list[int] | None = None) -> list[str]:
    """The text layer of each page, as ingest reads it."""
    import pypdfium2 as pdfium

    from ingest.pdf.page_text import page_text

    pdf = pdfium.PdfDocument(data)
    try:
        return [page_text(pdf, i) for i in (pages if pages is not None else range(len(pdf)))]
    finally:
        pdf.close()


# --- engines --------------------------------------------------------------------------------


def _tesserocr(picture) -> str:
    from ingest.pdf.ocr_pages import reader_for

    return " ".join(w.text for w in reader_for("eng", None).read_turned(picture, 0).words)


def _pytesseract(picture) -> str:
    import pytesseract

    return pytesseract.image_to_string(picture, lang="eng")


_RAPID: list[Any] = []


def _rapidocr(picture) -> str:
    import numpy as np
    from rapidocr_onnxruntime import RapidOCR

    if not _RAPID:
        _RAPID.append(RapidOCR(intra_op_num_threads=2, inter_op_num_threads=1))
    result, _ = _RAPID[0](np.array(picture.convert("RGB")))
    return "\n".join(r[1] for r in result or [])


def available_engines() -> dict[str, Any]:
    """The engines installed here, by name."""
    engines = {"tesseract 5.5.4 (tesserocr, the app's)": _tesserocr}
    try:
        import pytesseract

        pytesseract.get_tesseract_version()
        engines["tesseract (Debian package, pytesseract)"] = _pytesseract
    except Exception:  # not installed: not measured
        pass
    try:
        import rapidocr_onnxruntime  # noqa: F401

        engines["rapidocr-onnxruntime 1.4.4 (PP-OCRv4)"] = _rapidocr
    except ImportError:
        pass
    return engines


def compare_engines(quick: bool) -> dict[str, Any]:
    """Word recall and seconds per page of each engine on the same scanned pages, alternating."""
    data = SQUAD[0].read_bytes()
    pages = [1]  # one page: RapidOCR took 85-125 s on it at load 14 (a minute of CPU or more)
    truths = true_pages(data, pages)
    engines = available_engines()
    found: dict[str, dict[str, list[float]]] = {n: {"recall": [], "seconds": []} for n in engines}
    for dpi in (150,) if quick else (150, 200):
        for picture, true in zip(scan_pages(data, dpi, pages=pages), truths):
            big = picture.resize((picture.width * DPI // dpi, picture.height * DPI // dpi))
            for name, engine in engines.items():
                start = time.perf_counter()
                text = engine(big if name.startswith("tesseract") else picture)
                found[name]["seconds"].append(time.perf_counter() - start)
                found[name]["recall"].append(recall(true, text))
    return {
        name: {
            "pages": len(v["recall"]),
            "recall_mean": round(sum(v["recall"]) / len(v["recall"]), 4),
            "seconds_per_page_median": round(median(v["seconds"]), 2),
        }
        for name, v in found.items()
    }


# --- accuracy and the kept-or-not line ------------------------------------------------------


def _read(pdf: bytes, index: int = 0) -> tuple[str | None, float, int]:
    """The app's reading of one page (ingest.pdf.ocr_pages.read_page), with the page confidence and
    confident-word count of its first, upright reading at the app's resolution."""
    from ingest.pdf.ocr_pages import MIN_WORD_CONFIDENCE, page_confidence, read_page, reader_for, render

    reader = reader_for("eng", None)
    first = reader.read_turned(render(pdf, None, index, DPI), 0).words
    good = sum(1 for w in first if w.confidence >= MIN_WORD_CONFIDENCE and sum(map(str.isalnum, w.text)) >= 2)
    found = read_page(reader, lambda dpi: render(pdf, None, index, dpi), DPI)
    return (found[0] if found else None), round(page_confidence(first), 3), good


def accuracy(quick: bool) -> dict[str, Any]:
    """Word recall of the app's OCR path (ingest.pdf.ocr_pages.read_page) against the text layer, on
    filings-dev pages with tables (squad-dev's recall comes from answers_child's libraries)."""

    if not FILING.exists():
        return {}
    data, pages = FILING.read_bytes(), list(FILING_PAGES[:1] if quick else FILING_PAGES)
    result: dict[str, Any] = {}
    for dpi in (150, 200):
        recalls, confidences = [], []
        scan = scan_pdf(data, dpi, pages=pages)
        for i, true in enumerate(true_pages(data, pages)):
            text, confidence, _good = _read(scan, i)
            recalls.append(recall(true, text or ""))
            confidences.append(confidence)
        result[f"filings-dev tables at {dpi} dpi"] = _recalls(recalls, confidences)
    return result


def _recalls(recalls: list[float], confidences: list[float]) -> dict[str, Any]:
    return {
        "pages": len(recalls),
        "recall_mean": round(sum(recalls) / len(recalls), 4),
        "recall_min": round(min(recalls), 4),
        "confidence_min": round(min(confidences), 3),
    }


def kept_or_not(quick: bool) -> dict[str, Any]:
    """Page confidence and confident words of the first (upright) reading, and whether the page was
    kept, for real scans and for pages that hold no text (each page rendered as the app renders it)."""
    import random

    from PIL import Image

    from bench.scans import speckle
    from ingest.pdf.ocr_pages import GaveUp

    data = SQUAD[1].read_bytes()
    blank = Image.new("L", (1700, 2200), 255)  # a Letter page at 200 dpi
    scans = {
        "squad-dev page at 100 dpi": (scan_pages(data, 100, pages=[3])[0], 100),
        "squad-dev page at 100 dpi, blurred and 3% speckled": (
            scan_pages(data, 100, pages=[3], blur=0.7, noise=0.03)[0],
            100,
        ),
        "squad-dev page at 150 dpi": (scan_pages(data, 150, pages=[3])[0], 150),
        "squad-dev page at 200 dpi, turned 90 degrees": (scan_pages(data, 200, pages=[3], turn=90)[0], 200),
        "squad-dev page at 200 dpi, upside down": (scan_pages(data, 200, pages=[3], turn=180)[0], 200),
        "blank page": (blank, 200),
        "speckled blank page (10%)": (speckle(blank, 0.10, random.Random(0)), 200),
    }
    pdfs = {name: image_pdf([picture], dpi) for name, (picture, dpi) in scans.items()}
    folders = ("007-imagemagick-images", "019-grayscale-image", "023-cmyk-image")
    for path in sorted(p for f in folders for p in (CORPUS / "sample-files" / f).glob("*.pdf")):
        pdfs[f"picture: {path.name} p. 1"] = path.read_bytes()
    if quick:
        pdfs = dict(list(pdfs.items())[:1] + list(pdfs.items())[-1:])
    out = {}
    for name, pdf in pdfs.items():
        start = time.perf_counter()
        try:
            text, confidence, good = _read(pdf)
        except GaveUp:
            text, confidence, good = None, "gave up", 0
        seconds = round(time.perf_counter() - start, 1)
        out[name] = {
            "first_confidence": confidence,
            "confident_words": good,
            "kept": text is not None,
            "s": seconds,
        }
        print(f"bench.ocr: {name}: {out[name]}", file=sys.stderr, flush=True)
    return out


# --- speed and memory -----------------------------------------------------------------------


def pages_per_second(quick: bool) -> dict[str, Any]:
    """OCR pages per second on 2 cores with one and with two reading threads (same pages, alternating)."""
    from ingest.pdf.ocr_pages import read_picture, reader_for

    pictures = scan_pages(SQUAD[0].read_bytes(), 200, pages=[0, 1] if quick else [0, 1, 2, 3])
    pictures = [p.resize((p.width * DPI // 200, p.height * DPI // 200)) for p in pictures]  # as the app
    reader = reader_for("eng", None)
    read_picture(reader, pictures[0])  # load the model outside the timing
    rounds: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(1):  # one round of each, alternating (OCR is slow on these shared cores)
        for threads in (1, 2):
            start = time.perf_counter()
            _read_all(reader, pictures, threads)
            rounds[threads].append(len(pictures) / (time.perf_counter() - start))
    one, two = median(rounds[1]), median(rounds[2])
    return {
        "pages": len(pictures),
        "one_thread": round(one, 3),
        "two_threads": round(two, 3),
        "ratio": round(two / one, 2),
    }


def _read_all(reader, pictures, threads: int) -> None:
    from ingest.pdf.ocr_pages import read_picture

    todo = list(pictures)
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                if not todo:
                    return
                picture = todo.pop()
            read_picture(reader, picture)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def ingest_scan_child(pages: int) -> dict[str, Any]:
    """Child body: an image-only PDF of ``pages`` squad-dev pages (200 dpi) ingested with the local
    embedder; seconds, chunks, peak memory and the longest silence between progress reports."""
    from ingest.embeddings import LOCAL_NAME, LocalEmbeddings
    from ingest.local.library import Library
    from ingest.types import OcrOptions

    texts = [p.read_bytes() for p in SQUAD]
    pictures = []
    while len(pictures) < pages:
        for data in texts:
            pictures += scan_pages(data, 200)
    scan = image_pdf(pictures[:pages], 200)
    embeddings = LocalEmbeddings()
    embeddings.embed_array(["warm up"])
    before = peak_rss_mb()
    reports: list[float] = []
    with tempfile.TemporaryDirectory(prefix="footnote-ocr-") as tmp:
        library = Library.open(Path(tmp), embeddings, embedding_name=LOCAL_NAME, ocr=OcrOptions())
        start = time.perf_counter()
        result = library.add_pdf(scan, "scan.pdf", progress=lambda p: reports.append(time.perf_counter()))
        seconds = time.perf_counter() - start
    gaps = [b - a for a, b in zip([start, *reports], [*reports, start + seconds])]
    return {
        "pages": pages,
        "chunks": result.chunks,
        "seconds": round(seconds, 1),
        "pages_per_s": round(pages / seconds, 3),
        "longest_silence_s": round(max(gaps), 1),
        "progress_reports": len(reports),
        "peak_rss_mb_before": round(before, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


# --- answers on scans -----------------------------------------------------------------------


def answers_on_scans(quick: bool) -> dict[str, Any]:
    """bench/eval.py's squad-dev sample on the text PDFs and on their 200 dpi scans (same file
    names, OCR on), ours retrieval and the extractive answerer; gold page cited and answer found."""
    return run_child("bench.ocr:answers_child", {"quick": quick}, 3600)


def answers_child(quick: bool) -> dict[str, Any]:
    """Child body of answers_on_scans."""
    from bench.eval import SQUAD_QA, SQUAD_SAMPLE, answer_all, load_questions, summarize
    from ingest.local.library import Library
    from ingest.types import OcrOptions
    from rag.questions.read import read_question
    from rag.retrieval.retrieve import search_evidence
    from settings import load_settings
    from wiring import make_embeddings

    questions = load_questions(SQUAD_QA, 10 if quick else SQUAD_SAMPLE, 0)
    embeddings, name = make_embeddings(load_settings())
    out = {}
    for kind, dpi in (("text PDFs", None), ("scans at 200 dpi", 200), ("scans at 150 dpi", 150)):
        if quick and dpi == 150:
            continue
        with tempfile.TemporaryDirectory(prefix="footnote-ocr-eval-") as tmp:
            library = Library.open(Path(tmp), embeddings, embedding_name=name, ocr=OcrOptions())
            start = time.perf_counter()
            for path in sorted({SQUAD_QA.parent / q["doc_file"] for q in questions}):
                data = path.read_bytes()
                library.add_pdf(data if dpi is None else scan_pdf(data, dpi), path.name)
            ingest_s = time.perf_counter() - start
            if dpi is not None:
                out[f"recall at {dpi} dpi"] = _library_recall(library, SQUAD_QA.parent, questions)
            rows = answer_all(
                questions,
                lambda q, lib=library: search_evidence(lib, read_question(q), k=6),
                gate=True,
                embeddings=embeddings,
            )
            figures = summarize(rows)
            out[kind] = {
                "ingest_s": round(ingest_s, 1),
                "gold_page_cited": figures["gold_page_cited"],
                "answer_contains_gold": figures["answer_contains_gold"],
                "hit_at_k": figures["hit_at_k"],
                "abstention_accuracy": figures["abstention_accuracy"],
            }
    return out


def _library_recall(library: Any, root: Path, questions: list[dict[str, Any]]) -> dict[str, Any]:
    """Word recall of every scanned page in the library against its source PDF's text layer."""
    recalls, confidences = [], []
    by_name = {Path(q["doc_file"]).name: root / q["doc_file"] for q in questions}
    for doc in library.documents():
        truths = true_pages(by_name[doc.file_name].read_bytes())
        for page, true in zip(library.pages(doc.doc_id), truths):
            recalls.append(recall(true, page.text))
            confidences.append(page.ocr.confidence if page.ocr else 0.0)
    return _recalls(recalls, confidences)


# --- the section ----------------------------------------------------------------------------


def run(quick: bool = False) -> dict[str, Any]:
    """Every measurement above, and the README section."""
    load = [round(os.getloadavg()[0], 1)]
    # The 80-page ingest runs in its own process beside the other sections (it alone takes 10-30
    # minutes here), so its pages per second are a lower bound.
    ingest: dict[str, Any] = {}
    pages = 4 if quick else 80
    child = threading.Thread(
        target=lambda: ingest.update(run_child("bench.ocr:ingest_scan_child", {"pages": pages}, 3 * 3600))
    )
    child.start()
    result: dict[str, Any] = {"engines": compare_engines(quick)}
    load.append(round(os.getloadavg()[0], 1))
    result["accuracy"] = accuracy(quick)
    result["kept_or_not"] = kept_or_not(quick)
    result["speed"] = pages_per_second(quick)
    load.append(round(os.getloadavg()[0], 1))
    result["answers"] = answers_on_scans(quick)
    load.append(round(os.getloadavg()[0], 1))
    child.join()
    result["ingest"] = ingest
    result["load_averages"] = load
    result["markdown"] = render(result)
    return result


def _table(head: list[str], rows: list[list[Any]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + [
        "| " + " | ".join(str(c) for c in row) + " |" for row in rows
    ]


def render(r: dict[str, Any]) -> str:
    """The README section."""
    from ingest.pdf.ocr_pages import MIN_PAGE_CONFIDENCE, MIN_WORD_CONFIDENCE, MIN_WORDS

    lines = [
        f"Load averages (1 min) through the run: {', '.join(map(str, r['load_averages']))}. Scans: "
        "pypdfium2 renders text PDFs at 150 or 200 dpi into image-only PDFs (bench/scans.py); the app "
        f"renders each scanned page at {DPI} dpi for Tesseract.",
        "",
        "**Engines** (the same squad-dev pages at 150 and 200 dpi, engines alternating page by page; "
        f"Tesseract given the {DPI} dpi picture the app renders, RapidOCR the scan as it is):",
        "",
    ]
    lines += _table(
        ["engine", "pages", "word recall", "seconds per page (median)"],
        [[n, v["pages"], v["recall_mean"], v["seconds_per_page_median"]] for n, v in r["engines"].items()],
    )
    lines += ["", "**Accuracy** (word recall of the app's OCR path against the text layer):", ""]
    answers = {k: v for k, v in r["answers"].items() if isinstance(v, dict)}  # not child_peak_rss_mb
    squad = {
        f"squad-dev (all pages) {k.removeprefix('recall ')}": v
        for k, v in answers.items()
        if k.startswith("recall")
    }
    lines += _table(
        ["scans", "pages", "mean recall", "lowest page", "lowest page confidence"],
        [
            [n, v["pages"], v["recall_mean"], v["recall_min"], v["confidence_min"]]
            for n, v in {**squad, **r["accuracy"]}.items()
        ],
    )
    lines += [
        "",
        f"**Kept or no text found** (kept: at least {MIN_WORDS} words of 2+ letters or digits at "
        f"confidence {MIN_WORD_CONFIDENCE} or more, and a page confidence of {MIN_PAGE_CONFIDENCE} or "
        "more; otherwise the page is turned upright by Tesseract's orientation detection and read again):",
        "",
    ]
    lines += _table(
        ["page", "first reading: page confidence", "confident words", "kept"],
        [
            [n, v["first_confidence"], v["confident_words"], "yes" if v["kept"] else "no text found"]
            for n, v in r["kept_or_not"].items()
        ],
    )
    s, i = r["speed"], r["ingest"]
    lines += [
        "",
        f"**Speed**: {s['one_thread']} pages/s with one reading thread, {s['two_threads']} with two "
        f"({s['ratio']}x; {s['pages']} pages at {DPI} dpi, one round of each). An "
        f"{i['pages']}-page scanned document (squad-dev pages at 200 dpi) ingested in {i['seconds']} s "
        f"({i['pages_per_s']} pages/s, {i['chunks']} chunks, local embedder, beside the other sections); "
        f"{i['progress_reports']} "
        f"progress reports, the longest silence between two {i['longest_silence_s']} s.",
        "",
        f"**Memory**: peak resident memory {i['peak_rss_mb']} MiB while OCRing and embedding that "
        f"document (embedder loaded and warm: {i['peak_rss_mb_before']} MiB before).",
        "",
        "**Answers** (bench/eval.py's squad-dev sample, our retrieval, the extractive answerer):",
        "",
    ]
    lines += _table(
        ["library", "ingest s", "gold page cited", "answer holds gold", "hit@6", "abstention"],
        [
            [
                n,
                v["ingest_s"],
                v["gold_page_cited"],
                v["answer_contains_gold"],
                v["hit_at_k"],
                v["abstention_accuracy"],
            ]
            for n, v in answers.items()
            if not n.startswith("recall")
        ],
    )
    return "\n".join(lines)


if __name__ == "__main__":
    import json

    part = sys.argv[1] if len(sys.argv) > 1 else "all"
    quick = "--quick" in sys.argv
    if part == "all":
        print(run(quick)["markdown"])
    else:
        print(json.dumps(globals()[part](quick), indent=1))
