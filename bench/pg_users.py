"""Team mode, many users: 8 simulated users asking at once against 2 app processes on one
PostgreSQL database, beside the same 8 users against 1 process: answers per second and p95 time
to the final event.

What an "app process" is here: a Python process that does what one Streamlit instance does for
its sessions, without Streamlit: it builds the settings (FOOTNOTE_DATABASE_URL pointing at the
database), opens the library once through ``ingest.backend.library_class`` (the PgOpener, as
components/ does), loads the default local embeddings (all-MiniLM-L6-v2 int8) and the offline
extractive answerer, and runs each simulated user as a thread of its own (Streamlit runs every
session as a thread) that asks its questions one after the other, without pause, through
``rag.answering.answer.answer_stream`` (k=6) to the final event. 1 process runs 8 user threads; 2 processes
run 4 each. Each process answers one question first (not timed: model warm-up, document
profiles), then says it is ready; all start together when every process is ready.

The library: the generated 10-K-style filings of bench/filings (synthetic), ingested once through
``python -m cli.ingest`` into the database; the questions: their analysts' questions, each user a
different slice. Configurations alternate over the rounds; answers per second is the round's
answers over the time from the common start to the last answer; figures are medians over rounds.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import ROOT, median, percentile

USERS, QUESTIONS_PER_USER, ROUNDS = 8, 5, 3
QUICK_USERS, QUICK_QUESTIONS_PER_USER, QUICK_ROUNDS = 4, 1, 1
QUICK_COMPANIES = 2
CONFIGS = ((1, 8), (2, 4))  # (processes, user threads per process) for USERS users
CHILD_TIMEOUT_S = 900


def app_process(url: str, users: list[list[str]], provider: str = "local") -> dict[str, Any]:
    """Child-process body: open the library as the app does, warm up, wait for "go" on stdin,
    then one thread per user asks its questions; every answer's timestamps (time.time())."""
    from bench.answer import time_answer
    from settings import load_settings
    from wiring import make_chat_model, open_reader

    settings = load_settings(embedding_provider=provider, llm_provider="extractive", database_url=url)
    library = open_reader(settings)
    model, label = make_chat_model(settings, library.embeddings)
    time_answer(users[0][0], library, model, label)  # warm-up, not timed
    answers: list[dict[str, Any]] = []
    lock = threading.Lock()

    def user(questions: list[str]) -> None:
        for question in questions:
            started = time.time()
            timed = time_answer(question, library, model, label)
            row = {
                "start": started,
                "end": time.time(),
                "done_s": timed["done_s"],
                "first_s": timed["first_s"],
                "unsupported": bool(timed["answer"].unsupported),
                "footnotes": len(timed["answer"].footnotes),
            }
            with lock:
                answers.append(row)

    threads = [threading.Thread(target=user, args=(qs,)) for qs in users]
    print("ready", flush=True)
    sys.stdin.readline()
    go = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"go": go, "answers": answers}


def run_config(
    url: str, processes: int, per_process: int, questions: list[list[str]], provider: str = "local"
) -> dict[str, Any]:
    """One round of one configuration: start the processes, start them together, collect."""
    chunks = [questions[i * per_process : (i + 1) * per_process] for i in range(processes)]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.common",
                "bench.pg_users:app_process",
                json.dumps({"url": url, "users": c, "provider": provider}),
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for c in chunks
    ]
    for proc in procs:
        line = proc.stdout.readline().strip()
        if line != "ready":
            proc.kill()
            raise RuntimeError(f"app process did not start: {line!r} {proc.stderr.read()[-800:]}")
    for proc in procs:
        proc.stdin.write("go\n")
        proc.stdin.flush()
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=CHILD_TIMEOUT_S)
        if proc.returncode != 0:
            raise RuntimeError(f"app process exited with {proc.returncode}: {err.strip()[-800:]}")
        results.append(json.loads(out.strip().splitlines()[-1]))
    answers = [a for r in results for a in r["answers"]]
    start = min(r["go"] for r in results)
    span = max(a["end"] for a in answers) - start
    done = [a["done_s"] for a in answers]
    return {
        "answers": len(answers),
        "answers_per_s": len(answers) / span,
        "done_p50_s": percentile(done, 50),
        "done_p95_s": percentile(done, 95),
        "first_p95_s": percentile([a["first_s"] for a in answers], 95),
        "answered": sum(not a["unsupported"] for a in answers),
        "with_footnotes": sum(a["footnotes"] > 0 for a in answers),
        "span_s": span,
        "start_skew_s": max(r["go"] for r in results) - start,
        "peak_rss_mb": [r.get("child_peak_rss_mb") for r in results],
    }


def user_questions(qa_path: Path, users: int, per_user: int) -> list[list[str]]:
    """users lists of per_user different questions, spread over the question file."""
    rows = [json.loads(line) for line in qa_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    step = max(1, len(rows) // (users * per_user))
    picked = [r["question"] for r in rows[::step]][: users * per_user]
    if len(picked) < users * per_user:
        raise RuntimeError(f"{qa_path} has too few questions for {users} x {per_user}")
    return [picked[u::users] for u in range(users)]


def run(quick: bool = False) -> dict[str, Any]:
    """Ingest the filings once, then the configurations alternating over the rounds."""
    from bench.filings import COMPANIES, generate
    from bench.pg_common import new_database, pg_server, server_versions
    from bench.pg_ingest import library_contents, run_workers

    users, per_user, rounds = (
        (QUICK_USERS, QUICK_QUESTIONS_PER_USER, QUICK_ROUNDS)
        if quick
        else (USERS, QUESTIONS_PER_USER, ROUNDS)
    )
    configs = [(p, users // p) for p, _ in CONFIGS]
    with tempfile.TemporaryDirectory(prefix="footnote-bench-pg-users-") as tmp:
        filings = generate(Path(tmp), COMPANIES[:QUICK_COMPANIES] if quick else COMPANIES)
        questions = user_questions(filings.questions, users, per_user)
        with pg_server() as server:
            url = new_database(server)
            ingest_s = run_workers(url, [sorted(filings.pdfs)])["wall_s"]
            contents = library_contents(url)
            runs: dict[str, list[dict[str, Any]]] = {f"{p}x{t}": [] for p, t in configs}
            for r in range(rounds):
                for p, t in configs if r % 2 == 0 else configs[::-1]:
                    runs[f"{p}x{t}"].append(run_config(url, p, t, questions))
            versions = server_versions(url)
    summary = {
        key: {
            "processes": int(key.split("x")[0]),
            "threads_per_process": int(key.split("x")[1]),
            "answers_per_s": round(median([x["answers_per_s"] for x in xs]), 2),
            "answers_per_s_runs": [round(x["answers_per_s"], 2) for x in xs],
            "done_p95_s_runs": [round(x["done_p95_s"], 2) for x in xs],
            "done_p50_s": round(median([x["done_p50_s"] for x in xs]), 3),
            "done_p95_s": round(median([x["done_p95_s"] for x in xs]), 3),
            "first_p95_s": round(median([x["first_p95_s"] for x in xs]), 3),
            "answers_per_round": xs[0]["answers"],
            "answered": [x["answered"] for x in xs],
            "with_footnotes": [x["with_footnotes"] for x in xs],
            "max_start_skew_s": round(max(x["start_skew_s"] for x in xs), 3),
            "peak_rss_mb": xs[-1]["peak_rss_mb"],
        }
        for key, xs in runs.items()
    }
    one, two = summary[f"1x{users}"], summary[f"2x{users // 2}"]
    result = {
        "users": users,
        "questions_per_user": per_user,
        "rounds": rounds,
        "documents": len(contents),
        "chunks": sum(c for _, c in contents),
        "ingest_s": round(ingest_s, 1),
        "configs": summary,
        "throughput_ratio_two_over_one": round(two["answers_per_s"] / one["answers_per_s"], 3),
        "p95_ratio_two_over_one": round(two["done_p95_s"] / one["done_p95_s"], 3),
        **versions,
    }
    return {**result, "markdown": render(result)}


def render(r: dict[str, Any]) -> str:
    """The README section body."""
    lines = [
        "| app processes x user threads | answers per second | final event p50 / p95 | first delta p95 | "
        "answered (per round) | rounds: answers/s, p95 | peak memory per process |",
        "|---|---:|---:|---:|---|---|---:|",
    ]
    for x in r["configs"].values():
        rss = ", ".join(f"{m:,.0f}" for m in x["peak_rss_mb"] if m is not None)
        answered = ", ".join(f"{a}/{x['answers_per_round']}" for a in x["answered"])
        per_round = "; ".join(
            f"{a:.2f}, {p:.1f} s"
            for a, p in zip(x.get("answers_per_s_runs", []), x.get("done_p95_s_runs", []), strict=True)
        )
        lines.append(
            f"| {x['processes']} x {x['threads_per_process']} | {x['answers_per_s']:.2f} | "
            f"{x['done_p50_s'] * 1000:,.0f} / {x['done_p95_s'] * 1000:,.0f} ms | {x['first_p95_s'] * 1000:,.0f} ms | "
            f"{answered} | {per_round} | {rss} MiB |"
        )
    return "\n".join(lines) + (
        f"\n\n2 processes against 1: answers per second {r['throughput_ratio_two_over_one']:.2f}x, "
        f"p95 time to the final event {r['p95_ratio_two_over_one']:.2f}x. "
        f"{r['users']} simulated users asking at once, {r['questions_per_user']} questions each without pause "
        f"({r['users'] * r['questions_per_user']} answers a round), median of {r['rounds']} rounds, the "
        "configurations alternating. Each app process opens the library through `ingest.backend.library_class` "
        "(PostgreSQL), with the default local embeddings (all-MiniLM-L6-v2 int8) and the offline extractive "
        "answerer, and runs each user as a thread (as Streamlit runs each session), asking through "
        "`rag.answering.answer.answer_stream` (k=6) to the final event; Streamlit itself is not in the loop. One "
        f"server, PostgreSQL {r.get('postgresql')} + pgvector {r.get('pgvector')} (pgserver, unix socket), on "
        "the same 2 cores as the app processes. Library: "
        f"{r['documents']} generated 10-K-style filings (synthetic, `bench/filings`), {r['chunks']:,} chunks, "
        f"ingested once with `python -m cli.ingest` ({r['ingest_s']} s); questions: their analysts' questions, a "
        "different slice per user."
    )
