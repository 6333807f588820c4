"""`python -m bench.snapshot`: every dev question's answer as `python -m cli.rag ask --json` prints it,
one JSON line each, and a question-by-question comparison of two such files.

A refactor that must not change answers is checked this way: take a snapshot at the baseline
commit, one at the change, on the same libraries, and compare. The libraries are built once
(`--build`) and reused, so both sides read the same chunks.

    python -m bench.snapshot build --set filings-dev --data-dir /tmp/libs/fd24
    python -m bench.snapshot take --set filings-dev --data-dir /tmp/libs/fd24 --out base.jsonl
    python -m bench.snapshot compare base.jsonl head.jsonl

docs-dev's questions are each asked of their own document (`rag ask --doc`); a PDF the library
could not add is named when it is built, and its questions' replies say it is not in the library.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from bench.common import CORPUS, ROOT

SQUAD = CORPUS / "squad-dev"
FILINGS_DEV = CORPUS / "filings-dev"
GENERATED = ROOT / "bench" / "out" / "snapshot-filings"
SETS = ("filings-dev", "squad-dev", "generated", "docs-dev")
# Figures that vary from run to run and say nothing about the answer.
VOLATILE = frozenset({"score"})


def set_questions(name: str) -> list[dict[str, Any]]:
    """The questions of a set: id and question text (every question the set has)."""
    if name == "filings-dev":
        from bench import real_filings

        rows = real_filings.questions() + real_filings.our_questions(real_filings.WORDING)
        extra = ROOT / "bench" / "filings_dev" / "analyst_questions.jsonl"
        rows += real_filings.our_questions(extra)
        # real_filings.questions() already holds the analyst questions: each id once
        return list({row["id"]: row for row in rows}.values())
    if name == "squad-dev":
        return [json.loads(line) for line in (SQUAD / "questions.jsonl").read_text().splitlines() if line]
    if name == "docs-dev":
        from bench import real_docs

        return [q for questions in real_docs.question_sets().values() for q in questions]
    if name == "generated":
        from bench.filings import COMPANIES, generate

        filings = generate(GENERATED, COMPANIES)
        lines = filings.questions.read_text().splitlines()
        return [json.loads(line) for line in lines if line]
    raise ValueError(f"unknown set {name!r}; one of {', '.join(SETS)}")


def set_pdfs(name: str) -> list[Path]:
    """The PDFs a set's library holds."""
    if name == "filings-dev":
        return sorted((FILINGS_DEV / "pdfs").glob("*.pdf"))
    if name == "squad-dev":
        return sorted((SQUAD / "pdfs").glob("*.pdf"))
    if name == "docs-dev":
        from bench.real_docs import pdf_paths

        return pdf_paths()
    from bench.filings import COMPANIES, generate

    return list(generate(GENERATED, COMPANIES).pdfs)


def open_library(data_dir: Path) -> Any:
    """The library in data_dir, read-only, with the settings' embeddings (as `python -m cli.rag ask` opens it)."""
    from settings import load_settings
    from wiring import open_reader

    library = open_reader(load_settings(data_dir=data_dir))
    for line in library.open_report:
        print(f"note: {line}", file=sys.stderr)
    return library


def set_scope(name: str) -> dict[str, str] | None:
    """For a set whose questions are each asked of their own document (docs-dev): each PDF's
    file name -> its document id; None for a set asked of the whole library."""
    if name != "docs-dev":
        return None
    from bench.real_docs import doc_ids

    return doc_ids(set_pdfs(name))


def answers(
    questions: Sequence[dict[str, Any]], data_dir: Path, scope: dict[str, str] | None = None
) -> Iterator[dict[str, Any]]:
    """Each question's --json object, answered as `python -m cli.rag ask --json` answers it
    (with scope, as `cli.rag ask --doc` does: only from the document its doc_file names; a document not in
    the library gives no answer, and the reply says so)."""
    from rag.answering.answer import answer_stream
    from rag.answering.events import Done
    from rag.answering.json_report import answer_json
    from settings import load_settings
    from wiring import make_chat_model, stream_options

    settings = load_settings(data_dir=data_dir)
    library = open_library(data_dir)
    model, label = make_chat_model(settings, library.embeddings)
    for row in questions:
        doc_ids = None if scope is None else [scope[row["doc_file"]]]
        if doc_ids is not None and library.document(doc_ids[0]) is None:
            missing = {"not_in_library": row["doc_file"]}
            yield {"id": row["id"], "question": row["question"], "reply": missing}
            continue
        events = answer_stream(
            row["question"],
            library=library,
            chat_model=model,
            provider_label=label,
            k=settings.retrieval_k,
            doc_ids=doc_ids,
            **stream_options(settings),
        )
        done = next(e for e in events if isinstance(e, Done))
        yield {"id": row["id"], "question": row["question"], "reply": answer_json(done.answer)}


def _stable(value: Any) -> Any:
    """The value without its volatile fields."""
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def compare(before: Path, after: Path, out: Any = sys.stdout, subset: bool = False) -> int:
    """Print how many answers are the same and which differ (and in which fields); 1 if any differ.
    subset: after holds only some of before's questions (a --limit or --ids snapshot); the others
    are not counted."""
    old = {r["id"]: r for r in map(json.loads, before.read_text().splitlines()) if r}
    new = {r["id"]: r for r in map(json.loads, after.read_text().splitlines()) if r}
    if subset:
        old = {qid: row for qid, row in old.items() if qid in new}
    differ = []
    for qid in old.keys() & new.keys():
        a, b = _stable(old[qid]["reply"]), _stable(new[qid]["reply"])
        if a != b:
            differ.append((qid, sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))))
    only = sorted(old.keys() ^ new.keys())
    same = len(old.keys() & new.keys()) - len(differ)
    print(f"{same} answers the same, {len(differ)} differ, {len(only)} in one file only", file=out)
    for qid, fields in sorted(differ):
        print(f"  {qid}: {', '.join(fields)}", file=out)
    if only:
        print(f"  in one file only: {', '.join(only[:20])}", file=out)
    return 1 if differ or only else 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m bench.snapshot", description=__doc__)
    verbs = parser.add_subparsers(dest="verb", required=True)
    for verb in ("build", "take"):
        sub = verbs.add_parser(verb)
        sub.add_argument("--set", choices=SETS, required=True)
        sub.add_argument("--data-dir", type=Path, required=True, help="the set's library")
        if verb == "take":
            sub.add_argument("--out", type=Path, required=True, help="the snapshot (JSON lines)")
            sub.add_argument("--limit", type=int, help="only the set's first N questions")
            sub.add_argument("--ids", help="only these questions (ids, comma-separated)")
    cmp = verbs.add_parser("compare")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    cmp.add_argument("--subset", action="store_true", help="after holds only some of before's questions")
    args = parser.parse_args(argv)
    if args.verb == "compare":
        return compare(args.before, args.after, subset=args.subset)
    if args.verb == "build":
        from bench.eval import open_corpus_library

        if args.set != "docs-dev":
            open_corpus_library(set_pdfs(args.set), args.data_dir)
            return 0
        from bench.real_docs import add_pdfs

        pdfs = set_pdfs(args.set)
        failed = add_pdfs(open_corpus_library([], args.data_dir), pdfs)
        print(f"{len(pdfs) - len(failed)} of {len(pdfs)} PDFs added", file=sys.stderr)
        return 0
    questions = set_questions(args.set)
    if args.ids:
        wanted = set(args.ids.split(","))
        questions = [q for q in questions if q["id"] in wanted]
    with args.out.open("w", encoding="utf-8") as out:
        for line in answers(questions[: args.limit], args.data_dir, set_scope(args.set)):
            out.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
