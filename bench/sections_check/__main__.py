"""Section questions on a book none of docs-dev's section questions were read off: the 117-page
topology lecture notes of ../shared/corpus/sample-files (009-pdflatex-geotopo, German, with an
outline), asked in English for a chapter's subsections or a section's title
(bench/sections_check/questions.jsonl, gold titles and pages read off the book). Scored by
bench.real_docs as docs-dev is, the book alone in a fresh library:

    python -m bench.sections_check [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.common import CORPUS
from bench.real_docs import render_docs_dev, run_docs_dev

BOOK = CORPUS / "sample-files" / "009-pdflatex-geotopo" / "GeoTopo-komprimiert.pdf"
QUESTIONS = Path(__file__).resolve().parent / "questions.jsonl"


def main(argv: Sequence[str] | None = None) -> int:
    """Build a folder docs-dev's runner reads (the book, its documents.jsonl, no corpus questions)
    and score our questions on it."""
    parser = argparse.ArgumentParser(prog="python -m bench.sections_check", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="footnote-sections-check-") as tmp:
        folder = Path(tmp)
        (folder / BOOK.name).symlink_to(BOOK)
        (folder / "documents.jsonl").write_text(json.dumps({"doc_file": BOOK.name}) + "\n", encoding="utf-8")
        (folder / "questions.jsonl").write_text("", encoding="utf-8")
        result = run_docs_dev(baseline=False, folder=folder, ours=QUESTIONS)
    print(json.dumps(result, indent=2) if args.json else render_docs_dev(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
