"""`python -m cli.rag ask QUESTION`: answer from the library on a terminal, or as one JSON object."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from cli.output import print_notes
from ingest.types import LibraryReader
from rag.answering.events import Cited, Done, Failed, TextDelta
from rag.answering.json_report import answer_json
from rag.types import Answer

EXIT_MODEL_FAILED = 1
EXIT_BAD_INPUT = 2


class CliError(Exception):
    """Something the user must fix; the message says what."""


def print_sources(answer: Answer, out: TextIO) -> None:
    """The numbered sources under an answer."""
    if answer.unsupported:
        print("\n(Not supported by the documents.)", file=out)
    if answer.footnotes:
        print("\nSources:", file=out)
    for f in answer.footnotes:
        e = f.evidence
        pages = e.page_label if e.page_end_index == e.page_index else f"{e.page_label}-{e.page_end_label}"
        ocr = "" if e.ocr_confidence is None else f", read by OCR (confidence {e.ocr_confidence:.0%})"
        cell = (
            ""
            if e.cell is None
            else f", cell of [{e.cell.chunk}]: {e.cell.label}, {e.cell.column}: {e.cell.printed}"
        )
        print(f"  [{f.number}] {e.title} ({e.file_name}), page {pages}{ocr}{cell} [{f.short_id}]", file=out)
        if e.sections:  # where the passage starts, and the section it runs into last
            print(f"      in {e.sections[0]}", file=out)
            if len(e.sections) > 1:
                print(f"      then {e.sections[-1]}", file=out)
        for m in f.matches:  # no marker in the text: say which sentence it is for
            sentence = " ".join(answer.text[m.start : m.end].split())
            print(f"      matched by Footnote (the model cited nothing): {sentence[:120]}", file=out)
    for flag in answer.flags:
        cites = ", ".join(f"[{n}]" for n in flag.numbers)
        print(f"  Flagged: the passages of {cites} hardly hold the sentence that cites them.", file=out)
    if answer.unresolved:
        print(f"  Unknown source ids (ignored): {', '.join(answer.unresolved)}", file=out)
    for line in answer.words_only:
        print(f"  ({line})", file=out)


def open_library(settings: Any, err: TextIO = sys.stderr) -> LibraryReader:
    """The library the settings point at, read-only (wiring.open_reader); what a writer would repair
    is printed as a note, and answers use the rest."""
    from ingest.errors import IngestError
    from wiring import open_reader

    try:
        library = open_reader(settings)
    except IngestError as exc:
        raise CliError(str(exc)) from exc
    print_notes(library, err)
    return library


def pick_documents(library: LibraryReader, wanted: Sequence[str] | None) -> list[str] | None:
    """Full document ids for --doc values (a unique prefix is enough)."""
    if not wanted:
        return None
    ids = [d.doc_id for d in library.documents()]
    chosen = []
    for prefix in wanted:
        matches = [i for i in ids if i.startswith(prefix.lower())]
        if len(matches) != 1:
            problem = "matches no document" if not matches else "matches several documents"
            raise CliError(f"--doc {prefix} {problem} in the library")
        chosen.append(matches[0])
    return chosen


FLAGS = {"data_dir": "--data-dir", "retrieval_k": "--k"}


def settings_problem(exc: ValidationError, given: dict[str, Any]) -> str:
    """One sentence for invalid settings: the variable (or flag) and value, and the rule broken."""
    first = exc.errors()[0]
    field = str(first["loc"][0]) if first["loc"] else ""
    name = FLAGS[field] if given.get(field) is not None else f"FOOTNOTE_{field.upper()}"
    others = len(exc.errors()) - 1
    more = f" ({others} more invalid setting{'s' if others > 1 else ''})" if others else ""
    value = "(hidden)" if "key" in field else repr(first.get("input"))  # never print a secret
    return f"{name}={value} is not valid: {first['msg'].rstrip('.')}{more}."


def ask(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Run one question; the exit status."""
    from rag.answering.answer import answer_stream
    from settings import load_settings
    from wiring import make_chat_model, stream_options

    try:
        settings = load_settings(data_dir=args.data_dir, retrieval_k=args.k)
    except ValidationError as exc:
        raise CliError(settings_problem(exc, {"data_dir": args.data_dir, "retrieval_k": args.k})) from exc
    library = open_library(settings)
    if not library.documents():
        raise CliError(f"The library in {Path(settings.data_dir).resolve()} is empty: add PDFs first.")
    doc_ids = pick_documents(library, args.doc)
    model, label = make_chat_model(settings, library.embeddings)
    if not args.json:
        print(f"({label})", file=err)
    events = answer_stream(
        " ".join(args.question),
        library=library,
        chat_model=model,
        provider_label=label,
        k=settings.retrieval_k,
        doc_ids=doc_ids,
        **stream_options(settings),
    )
    failure = None
    for event in events:
        if isinstance(event, TextDelta) and not args.json:
            out.write(event.text)
            out.flush()
        elif isinstance(event, Failed):
            failure = event
        elif isinstance(event, Done):
            if args.json:
                print(json.dumps(answer_json(event.answer), ensure_ascii=False), file=out)
            else:
                print(file=out)
                print_sources(event.answer, out)
        elif isinstance(event, Cited):
            pass  # the terminal shows raw markers; sources are listed at the end
    if failure is not None:
        print(f"error: {failure.message}", file=err)
        return EXIT_MODEL_FAILED
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m cli.rag", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    ask_cmd = commands.add_parser("ask", help="answer a question from the library, with sources")
    ask_cmd.add_argument("--data-dir", type=Path, default=None, help="library folder (FOOTNOTE_DATA_DIR)")
    ask_cmd.add_argument("--k", type=int, default=None, help="pieces of evidence to retrieve")
    ask_cmd.add_argument("--doc", action="append", metavar="DOC_ID", help="only this document (repeatable)")
    ask_cmd.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    ask_cmd.add_argument("question", nargs="+", metavar="QUESTION")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Entry point; returns the exit status."""
    args = build_parser().parse_args(argv)
    if not " ".join(args.question).strip():
        print(
            'error: the question is empty; ask one, for example: python -m cli.rag ask "Who wrote it?"',
            file=err,
        )
        return EXIT_BAD_INPUT
    try:
        return ask(args, out, err)
    except CliError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    # What needs the user is said in the notes; log records (a FAISS error's C++ text, say) are for
    # a log, not the terminal, as in `python -m cli.ingest`.
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    sys.exit(main())
