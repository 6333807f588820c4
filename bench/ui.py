"""Chat page speed in a real browser, today's code beside an earlier commit's in the same run:
footnote click to side panel (its text, its page picture, the end of the run the click started,
and the bytes sent), with a 1-turn and a 30-turn saved conversation; and, from Enter in the chat
input, the time until the chat shows what it is doing ("Searching N documents"), the sources
found, and the finished answer.

The clicks are timed inside the page (performance.now() from the click, bench/ui_browser.py), so
Playwright's round trips do not count. Full script runs are timed with AppTest in a child process.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from bench.common import ROOT, median, percentile
from bench.ui_baseline import BASELINE_COMMIT, extract_tree, run_in_tree, script_times, short
from bench.ui_browser import Target, alternate, chromium, close_chat, open_chat
from bench.ui_feedback import FEEDBACK_GOAL_S, browser_feedback, render_feedback

QUESTIONS = (
    "What is the boiling point of water?",
    "Why does food take longer to cook at altitude?",
    "At what temperature does water boil on Mount Everest?",
    "How does salt change the freezing point?",
    "Why do lakes freeze from the top down?",
    "How does a kettle switch itself off?",
    "How fast does air pressure fall with height?",
    "What does weather do to the boiling point?",
    "At what temperature does pure water freeze?",
    "Why are roads salted in winter?",
)
GOALS = {"text_p50_s": 0.3, "text_p90_s": 0.4, "picture_p50_s": 0.4}  # issue 27
NEEDLE_CHARS = 40  # chunk characters (whitespace removed) the panel must show to count as shown


def _seed(data_dir: Path, turns_per_conv: tuple[int, ...]) -> list[str]:
    """A library with the water guide and conversations of the given lengths (real answers)."""
    from ingest.local.library import Library
    from rag.answering.answer import answer_stream
    from rag.answering.events import Done
    from rag.offline.extractive import ExtractiveAnswerer
    from rag.stores.conversations import ConversationStore
    from settings import load_settings
    from tests.e2e.documents import guide_pdf
    from wiring import library_inputs

    settings = load_settings(data_dir=data_dir)
    embeddings, config = library_inputs(settings)
    library = Library.open(data_dir, embeddings, config=config)
    library.add_pdf(guide_pdf(), "guide.pdf")
    store = ConversationStore(data_dir / "conversations.sqlite3")
    model = ExtractiveAnswerer()
    answers = []
    for question in QUESTIONS:
        events = answer_stream(
            question,
            library=library,
            chat_model=model,
            provider_label="offline extractive mode",
            k=settings.retrieval_k,
        )
        answers.append(next(e.answer for e in events if isinstance(e, Done)))
    answers.sort(key=lambda a: -len(a.footnotes))  # the 1-turn chat gets an answer with several footnotes
    conv_ids = []
    for count in turns_per_conv:
        conv = store.create()
        for i in range(count):
            store.add_turn(conv, answers[i % len(answers)])
        conv_ids.append(conv)
    return conv_ids


# Run in the baseline's tree (bench/ui_baseline.run_in_tree): today's copy of the water guide (the
# same bytes: the same content-derived document id, so the saved turns' pages are found) added to a
# library in that tree's own format, since its code cannot read today's (schema 4 beside its 2).
_BASELINE_LIBRARY = """
import json, os, sys
from pathlib import Path
try:
    from ingest.local.library import Library
except ImportError:  # the baseline's layout, before issue 24 moved the library
    from ingest.library import Library
from settings import load_settings
from wiring import make_embeddings

data_dir, pdf = Path(sys.argv[1]), Path(sys.argv[2])
settings = load_settings(data_dir=data_dir)
embeddings, name = make_embeddings(settings)
library = Library.open(
    data_dir, embeddings, embedding_name=name,
    chunk_size=settings.chunk_size, chunk_overlap=settings.chunk_overlap,
)
library.add_pdf(pdf.read_bytes(), "guide.pdf")
print(json.dumps([d.doc_id for d in library.documents()]), flush=True)
os._exit(0)  # the embedding model's native threads abort a normal interpreter exit
"""

# Answer fields today's code saves that the baseline's reader rejects (it builds PageLocator and
# AnswerMetrics from all their saved fields, and ignores the other new keys).
_NEWER_LOCATOR_KEYS = ("ocr_confidence",)
_NEWER_METRICS_KEYS = ("matched_sentences", "flagged_sentences")


def _baseline_data(now_dir: Path, before_dir: Path, tree: Path, env: dict[str, str]) -> None:
    """The baseline side's data folder: its own library of the same document, and today's saved
    chats without the fields its reader rejects."""
    import json
    import sqlite3

    before_dir.mkdir(parents=True, exist_ok=True)
    [pdf] = (now_dir / "files").glob("*.pdf")  # the library's stored copy of the guide
    docs = run_in_tree(tree, _BASELINE_LIBRARY, [str(before_dir), str(pdf)], env, 600, "baseline library")
    assert docs == [pdf.stem], f"the baseline library holds {docs}, not the document {pdf.stem}"
    shutil.copy2(now_dir / "conversations.sqlite3", before_dir / "conversations.sqlite3")
    with sqlite3.connect(before_dir / "conversations.sqlite3") as db:
        for turn_id, raw in db.execute("SELECT turn_id, answer_json FROM turns").fetchall():
            answer = json.loads(raw)
            for key in _NEWER_METRICS_KEYS:
                answer["metrics"].pop(key, None)
            for ev in answer["evidence"]:
                for loc in ev["locators"]:
                    for key in _NEWER_LOCATOR_KEYS:
                        loc.pop(key, None)
            db.execute("UPDATE turns SET answer_json = ? WHERE turn_id = ?", (json.dumps(answer), turn_id))


def _footnote_targets(data_dir: Path, conv_id: str, count: int) -> list[Target]:
    """`count` buttons to click, from the newest answer backwards and cycling, never the same
    footnote twice in a row: each click moves the panel to another chunk and page picture."""
    from rag.stores.conversations import ConversationStore

    turns = ConversationStore(data_dir / "conversations.sqlite3").turns(conv_id)
    buttons = []  # every rendered button in page order: one per citation span
    for turn in turns:
        order = sorted(
            (span.group_start, span.start, f.short_id, f.evidence.text)
            for f in turn.answer.footnotes
            for span in f.spans
        )
        buttons += [(sid, "".join(text.split())[:NEEDLE_CHARS]) for _g, _s, sid, text in order]
    targets: list[Target] = []
    index, tries = len(buttons) - 1, 0
    while len(targets) < count and tries < 4 * count + len(buttons):
        if not targets or buttons[index][0] != targets[-1].short_id:
            targets.append(Target(index, *buttons[index]))
        index = index - 1 if index > 0 else len(buttons) - 1
        tries += 1
    return targets


def _clicks(
    browser: Any, sides: dict[str, str], conv_id: str, targets: list[Target], rounds: int
) -> dict[str, Any]:
    """Per side: `rounds` fresh sessions on the chat, each clicking its share of the targets (the
    first click opens the panel, the others move it), the sides alternating click by click."""
    per_round = len(targets) // rounds
    found: dict[str, dict[str, list]] = {name: {"first": [], "next": [], "load_s": []} for name in sides}
    for r in range(rounds):
        share = targets[r * per_round : (r + 1) * per_round]
        names = list(sides) if r % 2 == 0 else list(reversed(sides))
        tabs = []
        for name in names:
            tab, load_s = open_chat(browser, name, sides[name], conv_id, share[0])
            tabs.append(tab)
            found[name]["load_s"].append(load_s)
        for name, clicks in alternate(tabs, share).items():
            found[name]["first"].append(clicks[0])
            found[name]["next"] += clicks[1:]
        for tab in tabs:
            close_chat(tab)
    return found


def _summary(clicks: list[dict[str, Any]]) -> dict[str, Any]:
    """Median and p90 of each figure over the clicks, and the raw values."""
    out: dict[str, Any] = {"count": len(clicks)}
    for name in ("text_s", "picture_s", "run_s", "ws_bytes", "media_bytes"):
        values = [c[name] for c in clicks]
        out[name] = {"p50": round(median(values), 4), "p90": round(percentile(values, 90), 4)}
    out["raw"] = clicks
    return out


def _script_rerun(
    trees: dict[str, Path], envs: dict[str, dict], data: dict[str, Path], conv_id: str, runs: int
):
    """Full script runs per side (AppTest in a child process in each tree), the sides alternating."""
    times: dict[str, list[float]] = {name: [] for name in trees}
    for r in range(2):
        for name in trees if r % 2 == 0 else reversed(list(trees)):
            env = {**os.environ, **envs[name]}
            times[name] += script_times(trees[name], env, data[name], conv_id, runs)
    return {
        name: {"p50": round(median(t), 4), "p90": round(percentile(t, 90), 4)} for name, t in times.items()
    }


def run(quick: bool = False) -> dict[str, Any]:
    """Footnote clicks in chromium, today's code beside the baseline commit's in the same run
    (two servers, each on its own library of the same document and the same saved chats, clicks
    alternating), for 1 and 30 saved turns; full
    script run time of both; and the feedback after Enter (today's code)."""
    from tests.e2e.server import run_app

    sizes = (1, 5) if quick else (1, 30)
    rounds, clicks = (2, 3) if quick else (5, 5)
    loads = [round(os.getloadavg()[0], 2)]
    with tempfile.TemporaryDirectory(prefix="footnote-bench-ui-") as tmp_name:
        tmp = Path(tmp_name)
        conv_ids = _seed(tmp / "now", sizes)
        trees = {"before": extract_tree(BASELINE_COMMIT, tmp / "tree"), "now": ROOT}
        envs = {name: {"FOOTNOTE_DATA_DIR": str(tmp / name)} for name in trees}
        _baseline_data(tmp / "now", tmp / "before", trees["before"], {**os.environ, **envs["before"]})
        rows = []
        with (
            run_app(envs["before"], tmp / "before.log", root=trees["before"]) as before_url,
            run_app(envs["now"], tmp / "now.log") as now_url,
        ):
            with chromium() as browser:
                for size, conv_id in zip(sizes, conv_ids):
                    targets = _footnote_targets(tmp / "now", conv_id, rounds * clicks)
                    found = _clicks(browser, {"before": before_url, "now": now_url}, conv_id, targets, rounds)
                    rows.append(
                        {
                            "turns": size,
                            **{
                                name: {
                                    "first": _summary(f["first"]),
                                    "next": _summary(f["next"]),
                                    "load_s": round(median(f["load_s"]), 3),
                                }
                                for name, f in found.items()
                            },
                            "script_rerun": _script_rerun(
                                trees, envs, {n: tmp / n for n in trees}, conv_id, 3 if quick else 10
                            ),
                        }
                    )
                    loads.append(round(os.getloadavg()[0], 2))
            asks = 3 if quick else 10
            feedback = browser_feedback(now_url, (QUESTIONS * asks)[:asks])
    result = {
        "baseline": short(BASELINE_COMMIT),
        "rows": rows,
        "load_average_1m": loads,
        "goals": GOALS,
        "feedback": feedback,
        "feedback_goal_s": FEEDBACK_GOAL_S,
    }
    result["markdown"] = _render(result) + "\n\n" + render_feedback(feedback)
    return result


def _verdict(summary: dict[str, Any]) -> str:
    met = (
        summary["text_s"]["p50"] < GOALS["text_p50_s"]
        and summary["text_s"]["p90"] < GOALS["text_p90_s"]
        and summary["picture_s"]["p50"] < GOALS["picture_p50_s"]
    )
    return "met" if met else "not met"


def _ratio(now: float, before: float) -> str:
    return f"{now / before:.2f}" if before else "n/a"


def _render(result: dict[str, Any]) -> str:
    base = result["baseline"]
    lines = [
        f"Footnote click to side panel, today's code beside commit {base} (before issue 27: a click "
        "reran the whole script) in the same run: two servers, each on a library of the same document "
        "in its own format and the same "
        "saved chats, one chromium (headless), the two sides clicking the same footnotes in turn "
        "(which side goes first swaps at every click). Timed in the page from the click: **text**, "
        "the panel (or, today, the preview of it that the click relay draws in the browser from the "
        "answer's data, in the panel's place) visibly shows the footnote's id and its chunk text, "
        "checked in each frame from the first one after the click; **picture**, every page picture in it "
        "is new and loaded; **run end**, the script run the click started has finished. Sent: what "
        "the websocket carried for the click, and the page-picture bytes fetched. Each size: "
        f"{result['rows'][0]['now']['first']['count']} fresh sessions; the first click opens the panel "
        "(its picture may already be drawn in the server's cache from an earlier session, as on a "
        "running server), the next clicks move it to another footnote (never the one just shown; "
        "0 B of picture: the browser had it from an earlier click). Goal: text p50 < "
        f"{GOALS['text_p50_s']} s and p90 < {GOALS['text_p90_s']} s, "
        f"picture p50 < {GOALS['picture_p50_s']} s. Load average (1 min) during the clicks: "
        + ", ".join(str(x) for x in result["load_average_1m"])
        + "; the ratio columns (today / before, same run) are the robust figures.",
        "",
        "| saved turns | click | code | text p50 | text p90 | picture p50 | picture p90 | run end p50 | "
        "sent (websocket) p50 | picture bytes p50 | goal |",
        "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in result["rows"]:
        for kind in ("first", "next"):
            before, now = row["before"][kind], row["now"][kind]
            for name, s in ((base, before), ("today", now)):
                lines.append(
                    f"| {row['turns']} | {kind} ({s['count']}) | {name} | {s['text_s']['p50']:.3f} s | "
                    f"{s['text_s']['p90']:.3f} s | {s['picture_s']['p50']:.3f} s | {s['picture_s']['p90']:.3f} s | "
                    f"{s['run_s']['p50']:.3f} s | {s['ws_bytes']['p50']:,.0f} B | {s['media_bytes']['p50']:,.0f} B | "
                    f"{_verdict(s) if s is now else ''} |"
                )
            cells = [
                _ratio(now[f][q], before[f][q])
                for f, q in (("text_s", "p50"), ("text_s", "p90"), ("picture_s", "p50"), ("picture_s", "p90"))
            ]
            cells += [_ratio(now[f]["p50"], before[f]["p50"]) for f in ("run_s", "ws_bytes", "media_bytes")]
            lines.append(f"| {row['turns']} | {kind} | today / before | " + " | ".join(cells) + " | |")
    lines += [
        "",
        "Full script run with the panel open (AppTest in a child process in each tree: what a reload or "
        "a new question costs; a click reran all of it before): ",
        "",
        "| saved turns | before p50 | today p50 | today / before | page load before | page load today |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for row in result["rows"]:
        s = row["script_rerun"]
        lines.append(
            f"| {row['turns']} | {s['before']['p50']:.3f} s | {s['now']['p50']:.3f} s | "
            f"{_ratio(s['now']['p50'], s['before']['p50'])} | {row['before']['load_s']:.2f} s | "
            f"{row['now']['load_s']:.2f} s |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    import json

    print(json.dumps(run(quick=True), indent=2))
