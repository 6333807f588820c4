"""`python -m bench check_rules`: what each rule of the answer check (rag.offline.rules.table) does,
by ablation. Every question is retrieved once, as the answer stream retrieves (a computed figure's
missing operand rows gathered), then answered by the offline answerer with every rule (the check
as shipped) and with none; where those differ, with each rule alone, which says the rules that
fail its best quote. A rule can only turn an answer into closest passages, so a question's reply
under any choice of rules follows: closest passages when one of the rules that fail it is on, else
its answer with no rule. A rule's effect on a set is the check without it
against the check with all, in questions: unanswerable ones answered as if answerable, answerable
ones declined (closest passages), evidence page cited, gold text held.

Sets: squad-dev's three articles (950 questions), filings-dev's seven question files on its 51
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

# The sets every rule is measured on, by the names rows use.
NORMANS = "squad-dev: Normans"
COMPLEXITY = "squad-dev: Computational complexity"
CALIFORNIA = "squad-dev: Southern California"
FINANCEBENCH = "filings-dev: FinanceBench"
OURS = "filings-dev: ours"
ANALYST = "filings-dev: analyst"
COMPUTED = "filings-dev: computed"
WORDING = "filings-dev: wording"
STRUCTURE = "filings-dev: structure"
OBLIGATIONS = "filings-dev: obligations"
GENERATED = "generated filings"
SQUAD = (NORMANS, COMPLEXITY, CALIFORNIA)
SETS = (*SQUAD, FINANCEBENCH, OURS, ANALYST, COMPUTED, WORDING, STRUCTURE, OBLIGATIONS, GENERATED)
# squad-dev's samples the first rules were read off (bench.eval.load_questions, bench.answer_check),
# and the rest of squad-dev for each rule: the questions of no set or sample it was read off.
SEED0 = "squad-dev: seed-0 sample"
SEEDS12 = "squad-dev: seed-1 and seed-2 samples"
NOT_READ_OFF = "squad-dev: not read off"
GROUPS = (*SETS, SEED0, SEEDS12)
# The sets and samples (GROUPS) whose failures each rule of rag.offline.rules.table was read off:
# a rule helps when it helps a set it was not read off (issue 41; bench/README.md).
READ_OFF = {
    "asked_for": (SEED0, FINANCEBENCH, OURS),
    "specific": (SEED0, FINANCEBENCH, OURS),
    "negation": (SEED0,),
    "moved": (SEED0, SEEDS12),
    "inserted": (SEED0, SEEDS12),
    "reversed": (NORMANS, COMPLEXITY),
    "outranked": (CALIFORNIA,),
    "opposite": SQUAD,
    "recounted": (CALIFORNIA,),
    "elsewhere": (CALIFORNIA,),
    "renamed": (NORMANS,),
    "support": (FINANCEBENCH, OURS),
}

K = 6
QUICK = 8  # questions per set when quick
SQUAD_QA = CORPUS / "squad-dev" / "questions.jsonl"
ARTICLES = dict(zip(("Normans", "Computational_complexity_theory", "Southern_California"), SQUAD))
GENERATED_DIR = ROOT / "bench" / "out" / "check-rules-filings"
# What a rule's effect counts, from the answers it changes.
FIGURES = ("caught", "declined", "wrong", "mended", "cited", "gold")


def outcome(row: dict[str, Any], on: frozenset[str]) -> dict[str, Any]:
    """A question's judged reply under the rules on: declined (closest passages) when one of them
    fails its best quote, else the answer the check lets through."""
    return row["with"] if on & set(row["failing"]) else row["without"]


def _answered(reply: dict[str, Any]) -> bool:
    return reply["reply"] == "answered"


def tally(rows: Sequence[dict[str, Any]], on: frozenset[str]) -> dict[str, int]:
    """Counts of a set's questions under the rules on: questions, unanswerable ones and those
    answered as if answerable, answerable ones and those declined, citing the evidence page,
    holding the gold text (of those that have one)."""
    answerable = [outcome(r, on) for r in rows if not r["impossible"]]
    unanswerable = [outcome(r, on) for r in rows if r["impossible"]]
    return {
        "questions": len(rows),
        "unanswerable": len(unanswerable),
        "unanswerable_answered": sum(map(_answered, unanswerable)),
        "answerable": len(answerable),
        "answerable_declined": sum(not _answered(r) for r in answerable),
        "cited": sum(r["cited"] for r in answerable),
        "with_gold": sum(r["contains"] is not None for r in answerable),
        "gold": sum(bool(r["contains"]) for r in answerable),
    }


def changes(rows: Sequence[dict[str, Any]], on: frozenset[str], rule: str) -> list[dict[str, Any]]:
    """The questions whose reply the rule changes among the rules on (declined with it, answered
    without it): id, unanswerable or not, and reply / evidence page cited / gold text held, with
    the rule -> without it."""
    found = []
    for row in rows:
        a, b = outcome(row, on), outcome(row, on - {rule})
        if a != b:
            found.append({"id": row["id"], "impossible": row["impossible"]} | {k: [a[k], b[k]] for k in a})
    return found


def effect(changed: Sequence[dict[str, Any]]) -> dict[str, int]:
    """What a rule does, from the questions it changes (changes): unanswerable ones it keeps from
    being answered, answerable ones it declines and how many of those answers were wrong (citing
    no evidence page, holding no gold text), answers it mends (answered either way, wrong without
    it and not with it; negative: the other way, when the check's next quote is the wrong one),
    answers citing the evidence page and holding the gold text it adds."""
    found = dict.fromkeys(FIGURES, 0)
    for c in changed:
        was, now = (reply == "answered" for reply in c["reply"])
        if c["impossible"]:
            found["caught"] += now - was
            continue
        found["declined"] += now - was
        wrong = [not cited and not contains for cited, contains in zip(c["cited"], c["contains"])]
        if now and not was and wrong[1]:
            found["wrong"] += 1
        if now and was:
            found["mended"] += wrong[1] - wrong[0]
        found["cited"] += c["cited"][0] - c["cited"][1]
        found["gold"] += bool(c["contains"][0]) - bool(c["contains"][1])
    return found


def helps(figures: dict[str, int]) -> bool:
    """Whether a rule helps a set: it keeps more questions from a wrong answer (unanswerable ones
    answered as if answerable, answerable ones answered citing no evidence page and holding no gold
    text, declined or mended) than it declines answerable ones whose answer was not wrong (issue 41)."""
    return figures["caught"] + figures["wrong"] + figures["mended"] > figures["declined"] - figures["wrong"]


def measure_set(name: str, questions: Sequence[dict[str, Any]], library: Any) -> dict[str, Any]:
    """One set: each question retrieved once and answered with every rule and with none; where
    those differ, with each rule alone, which says the rules that fail its best quote ("failing").
    A question's reply under any rules is then its reply with every rule when one of them fails,
    else its reply with none (outcome)."""
    from rag.answering.answer import library_embedding_name
    from rag.compute.gather import gather
    from rag.offline.scoring import RememberedEmbeddings
    from rag.questions.read import read_question
    from rag.relevance import gate_measured_for
    from rag.retrieval.retrieve import search_evidence

    started = time.perf_counter()
    options: dict[str, Any] = {}
    if not gate_measured_for(library_embedding_name(library)):  # as rag.answering.answer_stream does
        options = {"min_coverage": 1e-9, "min_dense": math.inf}
    rows = []
    for question in questions:
        read = read_question(question["question"])
        retrieval = gather(library, read, search_evidence(library, read, k=K))
        embeddings = RememberedEmbeddings(library.embeddings)  # each text embedded once per question

        def answer(
            rules: Rules, read: Any = read, retrieval: Any = retrieval, embeddings: Any = embeddings
        ) -> Any:
            return _answer(read, retrieval, rules, embeddings, options)

        every, none = answer(DEFAULT), answer(OFF)
        failing = []
        if every.text != none.text:
            failing = [r.name for r in RULES if answer(DEFAULT.only(r.name)).text != none.text]
        rows.append(
            {
                "id": question["id"],
                "impossible": question["is_impossible"],
                "failing": failing,
                "with": _judged(question, retrieval, every),
                "without": _judged(question, retrieval, none),
            }
        )
    return {"name": name, "seconds": round(time.perf_counter() - started, 1), "rows": rows}


def _answer(read: Any, retrieval: Any, rules: Rules, embeddings: Any, options: dict[str, Any]) -> Any:
    """The offline answerer's Answer to a read question from its retrieval, under these rules."""
    from rag.answering.answer import stream_answer
    from rag.answering.events import Done
    from rag.offline.extractive import LABEL, ExtractiveAnswerer

    model = ExtractiveAnswerer(embeddings=embeddings, answer_check=rules)
    events = stream_answer(read, retrieval, chat_model=model, provider_label=LABEL, **options)
    return next(e.answer for e in events if isinstance(e, Done))


def _judged(question: dict[str, Any], retrieval: Any, answer: Any) -> dict[str, Any]:
    """The reply (answered, closest passages or not answered), whether it cites the evidence page
    and whether it holds the gold text (None: no gold text to look for), as bench.eval judges."""
    from bench.eval import judge

    row = judge(question, retrieval, answer)
    reply = "closest passages" if answer.closest else "not answered" if answer.unsupported else "answered"
    return {"reply": reply, "cited": row["cited_gold"] > 0, "contains": row["contains"]}


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
    """filings-dev's seven question files, on one library of its 51 filings."""
    from bench import real_filings as fd

    library = _library("FOOTNOTE_BENCH_FD_LIBRARY", fd.filing_pdfs, tmp)
    files = (
        (FINANCEBENCH, fd.financebench_questions()),
        (OURS, fd.our_questions(fd.OURS)),
        (ANALYST, fd.our_questions(fd.ANALYST)),
        (COMPUTED, fd.our_questions(fd.COMPUTED)),
        (WORDING, fd.our_questions(fd.WORDING)),
        (STRUCTURE, fd.our_questions(fd.STRUCTURE)),
        (OBLIGATIONS, fd.our_questions(fd.OBLIGATIONS)),
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


def rules() -> list[dict[str, Any]]:
    """The rules measured, in the check's order: name, what it catches, the sets it was read off."""
    return [{"name": r.name, "catches": r.catches, "read_off": list(READ_OFF[r.name])} for r in RULES]


def run(quick: bool = False) -> dict[str, Any]:
    """Every set, every rule; each rule's effect per set and the README section
    (bench.check_rules_report), both from the answers measured."""
    from bench.check_rules_report import effects, render

    with tempfile.TemporaryDirectory(prefix="footnote-check-rules-") as name:
        tmp = Path(name)
        sets = squad_sets(tmp, quick)
        if not quick or os.environ.get("FOOTNOTE_BENCH_FD_LIBRARY"):
            sets += [(n, q[:QUICK] if quick else q, lib) for n, q, lib in filings_dev_sets(tmp)]
        sets.append(generated_set(tmp, quick))
        measured = [measure_set(name, questions, library) for name, questions, library in sets]
    result = {"k": K, "rules": rules(), "sets": measured, "samples": samples()}
    return {**result, "effects": effects(result), "markdown": render(result)}
