"""`python -m bench check_rules`: what each rule of the answer check (rag.offline.rules.table) does,
by ablation. Every question is retrieved once, then answered by the offline answerer with every
rule (the check as shipped), with none, and without each rule in turn; a rule's effect on a set is
the check without it against the check with all, in questions: unanswerable ones answered as if
answerable, answerable ones declined (closest passages), evidence page cited, gold text held.

A rule can only turn an answer into closest passages (and the label rule drop a row quoted beside
the answer), so where the check with no rule answers as the check with every rule does, no single
rule changes the answer: only the questions where those two differ are answered once per rule.

Sets: squad-dev's three articles (950 questions), filings-dev's five question files on its 51
filings, the generated filings. Libraries are opened read-only from FOOTNOTE_BENCH_SQUAD_LIBRARY,
FOOTNOTE_BENCH_FD_LIBRARY and FOOTNOTE_BENCH_GEN_LIBRARY when set (as bench.snapshot opens them),
else built in a temporary folder (filings-dev's 51 filings take over half an hour here; skipped
when quick).
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.common import CORPUS, ROOT
from rag.offline.check import DEFAULT, OFF, RULES, Rules
from rag.offline.rules.table import (
    ANALYST,
    COMPUTED,
    FINANCEBENCH,
    GENERATED,
    OURS,
    SEED0,
    SEEDS12,
    SQUAD,
    WORDING,
)

K = 6
QUICK = 8  # questions per set when quick
SQUAD_QA = CORPUS / "squad-dev" / "questions.jsonl"
ARTICLES = dict(zip(("Normans", "Computational_complexity_theory", "Southern_California"), SQUAD))
GENERATED_DIR = ROOT / "bench" / "out" / "check-rules-filings"
# What a rule's effect counts, from each question's judged row (bench.eval.judge).
FIGURES = ("caught", "declined", "wrong", "cited", "gold")


def _answered(row: dict[str, Any]) -> bool:
    return not row["unsupported"] and not row["closest"]


def tally(rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Counts of a set's judged rows: questions, unanswerable ones and those answered as if
    answerable, answerable ones and those declined, citing the evidence page, holding the gold text
    (of those that have one)."""
    answerable = [r for r in rows if not r["impossible"]]
    unanswerable = [r for r in rows if r["impossible"]]
    return {
        "questions": len(rows),
        "unanswerable": len(unanswerable),
        "unanswerable_answered": sum(map(_answered, unanswerable)),
        "answerable": len(answerable),
        "answerable_declined": sum(not _answered(r) for r in answerable),
        "cited": sum(r["cited_gold"] > 0 for r in answerable),
        "with_gold": sum(r["contains"] is not None for r in answerable),
        "gold": sum(bool(r["contains"]) for r in answerable),
    }


def effect(changes: Sequence[dict[str, Any]]) -> dict[str, int]:
    """What a rule does, from the questions it changes (_changes): unanswerable ones it keeps from
    being answered, answerable ones it declines and how many of those answers were wrong (citing
    no evidence page, holding no gold text), answers citing the evidence page and holding the gold
    text it adds."""
    found = dict.fromkeys(FIGURES, 0)
    for c in changes:
        was, now = (reply == "answered" for reply in c["reply"])
        if c["impossible"]:
            found["caught"] += now - was
            continue
        found["declined"] += now - was
        if now and not was and not c["cited_gold"][1] and not c["contains"][1]:
            found["wrong"] += 1
        found["cited"] += c["cited_gold"][0] - c["cited_gold"][1]
        found["gold"] += bool(c["contains"][0]) - bool(c["contains"][1])
    return found


def helps(figures: dict[str, int]) -> bool:
    """Whether a rule helps a set: it keeps more questions from a wrong answer (unanswerable ones
    answered as if answerable, answerable ones answered citing no evidence page and holding no gold
    text) than it declines answerable ones whose answer was not wrong (issue 41)."""
    return figures["caught"] + figures["wrong"] > figures["declined"] - figures["wrong"]


def measure_set(name: str, questions: Sequence[dict[str, Any]], library: Any) -> dict[str, Any]:
    """One set: each question retrieved once, answered with every rule and with none, and where
    those differ without each rule in turn; the tallies, each rule's effect and its changed answers."""
    from bench.eval import judge
    from rag.answering.answer import library_embedding_name
    from rag.offline.scoring import RememberedEmbeddings
    from rag.questions.read import read_question
    from rag.relevance import gate_measured_for
    from rag.retrieval.retrieve import search_evidence

    started = time.perf_counter()
    options: dict[str, Any] = {}
    if not gate_measured_for(library_embedding_name(library)):  # as rag.answering.answer_stream does
        options = {"min_coverage": 1e-9, "min_dense": math.inf}
    variants = {"every rule": DEFAULT, "no rule": OFF} | {
        f"without {rule.name}": DEFAULT.without(rule.name) for rule in RULES
    }
    rows: dict[str, list[dict[str, Any]]] = {label: [] for label in variants}
    for question in questions:
        read = read_question(question["question"])
        retrieval = search_evidence(library, read, k=K)
        embeddings = RememberedEmbeddings(library.embeddings)  # each text embedded once per question
        every = _answer(read, retrieval, DEFAULT, embeddings, options)
        none = _answer(read, retrieval, OFF, embeddings, options)
        for label, rules in variants.items():
            if label in ("every rule", "no rule"):
                reply = every if label == "every rule" else none
            else:
                reply = (
                    _answer(read, retrieval, rules, embeddings, options) if none.text != every.text else every
                )
            rows[label].append({**judge(question, retrieval, reply), "reply": _reply(reply)})
    tallies = {label: tally(found) for label, found in rows.items()}
    return {
        "name": name,
        "seconds": round(time.perf_counter() - started, 1),
        "tallies": tallies,
        "ids": [q["id"] for q in questions],
        "changes": {rule.name: _changes(rows["every rule"], rows[f"without {rule.name}"]) for rule in RULES},
    }


def _answer(read: Any, retrieval: Any, rules: Rules, embeddings: Any, options: dict[str, Any]) -> Any:
    """The offline answerer's Answer to a read question from its retrieval, under these rules."""
    from rag.answering.answer import stream_answer
    from rag.answering.events import Done
    from rag.offline.extractive import LABEL, ExtractiveChatModel

    model = ExtractiveChatModel(embeddings=embeddings, answer_check=rules)
    events = stream_answer(read, retrieval, chat_model=model, provider_label=LABEL, **options)
    return next(e.answer for e in events if isinstance(e, Done))


def _reply(answer: Any) -> str:
    """What the reply was: answered, closest passages or not in the documents."""
    return "closest passages" if answer.closest else "not answered" if answer.unsupported else "answered"


def _changes(every: Sequence[dict[str, Any]], without: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The questions whose reply or judged figures differ without the rule: id, unanswerable or
    not, and reply / evidence page cited / gold text held, with every rule -> without it."""
    keys = ("reply", "cited_gold", "contains")
    return [
        {
            "id": a["id"],
            "impossible": a["impossible"],
            **{
                k: [a[k] if k != "cited_gold" else a[k] > 0, b[k] if k != "cited_gold" else b[k] > 0]
                for k in keys
            },
        }
        for a, b in zip(every, without)
        if any(a[k] != b[k] for k in keys)
    ]


def _library(variable: str, pdfs: Callable[[], Sequence[Path]], tmp: Path) -> Any:
    """The library the environment variable names, read-only, else these PDFs ingested into tmp."""
    named = os.environ.get(variable)
    if named:
        from bench.snapshot import open_library

        return open_library(Path(named))
    from bench.eval import open_corpus_library

    return open_corpus_library(pdfs(), tmp / variable.lower())


def squad_sets(tmp: Path, quick: bool) -> list[tuple[str, list[dict[str, Any]], Any]]:
    """squad-dev's questions by article, on one library of its three PDFs."""
    rows = [json.loads(line) for line in SQUAD_QA.read_text(encoding="utf-8").splitlines() if line.strip()]
    library = _library(
        "FOOTNOTE_BENCH_SQUAD_LIBRARY", lambda: sorted({SQUAD_QA.parent / r["doc_file"] for r in rows}), tmp
    )
    groups = [(name, [r for r in rows if r["title"] == title]) for title, name in ARTICLES.items()]
    return [(name, group[:QUICK] if quick else group, library) for name, group in groups]


def filings_dev_sets(tmp: Path) -> list[tuple[str, list[dict[str, Any]], Any]]:
    """filings-dev's five question files, on one library of its 51 filings."""
    from bench import real_filings as fd

    library = _library("FOOTNOTE_BENCH_FD_LIBRARY", fd.filing_pdfs, tmp)
    files = (
        (FINANCEBENCH, fd.financebench_questions()),
        (OURS, fd.our_questions(fd.OURS)),
        (ANALYST, fd.our_questions(fd.ANALYST)),
        (COMPUTED, fd.our_questions(fd.COMPUTED)),
        (WORDING, fd.our_questions(fd.WORDING)),
    )
    return [(name, questions, library) for name, questions in files]


def generated_set(tmp: Path, quick: bool) -> tuple[str, list[dict[str, Any]], Any]:
    """The generated filings' questions, on one library of their PDFs."""
    from bench.filings import COMPANIES, generate

    filings = generate(GENERATED_DIR, COMPANIES)
    lines = filings.questions.read_text(encoding="utf-8").splitlines()
    questions = [json.loads(line) for line in lines if line.strip()]
    library = _library("FOOTNOTE_BENCH_GEN_LIBRARY", lambda: filings.pdfs, tmp)
    return GENERATED, questions[:QUICK] if quick else questions, library


def samples() -> dict[str, list[str]]:
    """The ids of squad-dev's samples the first rules were read off (bench.answer_check's seeds)."""
    from bench.answer_check import disjoint_sample
    from bench.eval import SQUAD_SAMPLE, load_questions

    first = load_questions(SQUAD_QA, SQUAD_SAMPLE)
    second = disjoint_sample(first, SQUAD_SAMPLE)
    third = disjoint_sample(first + second, SQUAD_SAMPLE, seed=2)
    return {SEED0: [q["id"] for q in first], SEEDS12: [q["id"] for q in second + third]}


def run(quick: bool = False) -> dict[str, Any]:
    """Every set, every rule; the README section (bench.check_rules_report)."""
    from bench.check_rules_report import render

    with tempfile.TemporaryDirectory(prefix="footnote-check-rules-") as name:
        tmp = Path(name)
        sets = squad_sets(tmp, quick)
        if not quick or os.environ.get("FOOTNOTE_BENCH_FD_LIBRARY"):
            sets += [(n, q[:QUICK] if quick else q, lib) for n, q, lib in filings_dev_sets(tmp)]
        sets.append(generated_set(tmp, quick))
        measured = [measure_set(name, questions, library) for name, questions, library in sets]
    result = {"k": K, "sets": measured, "samples": samples()}
    return {**result, "markdown": render(result)}
