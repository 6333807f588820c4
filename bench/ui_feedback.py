"""`bench ui`'s second part: from Enter in the chat input, the time until the chat shows what it
is doing ("Searching N documents"), the sources found, and the finished answer (in chromium)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bench.common import median, percentile

FEEDBACK_GOAL_S = 0.3  # Enter to the first visible change

# Arm a listener on the chat input: from the Enter keydown (its own timestamp) record, in
# milliseconds, when the new messages first say what is happening, when they name the sources,
# and when the finished (interactive) answer is there. Read back from window.__feedback.
_FEEDBACK_JS = """
() => {
  const input = document.querySelector('[data-testid="stChatInputTextArea"]');
  const messages = () => [...document.querySelectorAll('[data-testid="stChatMessage"]')];
  const answers = () => document.querySelectorAll('[data-testid="stBidiComponentIsolated"]').length;
  const before = messages().length, answersBefore = answers();
  const fb = {};
  window.__feedback = fb;
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    const t0 = event.timeStamp;
    const check = () => {
      const now = performance.now() - t0;
      const text = messages().slice(before).map((m) => m.innerText).join('\\n');
      if (fb.question === undefined && text.length > 0) fb.question = now;
      if (fb.status === undefined && /Searching \\d+ document|passages? in|No passages found/.test(text)) fb.status = now;
      if (fb.sources === undefined && /passages? in|No passages found/.test(text)) fb.sources = now;
      if (fb.answer === undefined && answers() > answersBefore) fb.answer = now;
      if (fb.answer !== undefined && fb.status !== undefined) return (fb.done = true);
      if (now > 60000) return (fb.done = true);
      requestAnimationFrame(check);
    };
    check();
  }, {capture: true, once: true});
}
"""


def browser_feedback(url: str, questions: Sequence[str]) -> dict[str, Any]:
    """Enter to the first feedback, to the sources found and to the finished answer, one new chat."""
    from playwright.sync_api import expect, sync_playwright

    from scripts.ensure_browser import find_chromium
    from tests.e2e.conftest import CHAT_INPUT, IDLE
    from tests.e2e.server import CHROMIUM_ARGS

    samples: dict[str, list[float]] = {"question": [], "status": [], "sources": [], "answer": []}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url)
        page.wait_for_timeout(150)
        expect(page.locator(IDLE)).to_be_attached(timeout=60_000)
        for question in questions:
            page.locator(CHAT_INPUT).fill(question)
            page.evaluate(_FEEDBACK_JS)
            page.locator(CHAT_INPUT).press("Enter")
            page.wait_for_function("window.__feedback && window.__feedback.done", timeout=90_000)
            found = page.evaluate("window.__feedback")
            for name, values in samples.items():
                if found.get(name) is not None:
                    values.append(found[name] / 1000)
            page.wait_for_timeout(150)
            expect(page.locator(IDLE)).to_be_attached(timeout=60_000)
        browser.close()
    return {
        "asks": len(questions),
        **{
            f"{name}_s": {
                "median": round(median(v), 3),
                "p90": round(percentile(v, 90), 3),
                "all": [round(x, 3) for x in v],
            }
            if v
            else None
            for name, v in samples.items()
        },
    }


def render_feedback(fb: dict[str, Any]) -> str:
    def cell(name: str) -> str:
        v = fb.get(f"{name}_s")
        return f"{v['median']:.3f} s | {v['p90']:.3f} s" if v else "n/a | n/a"

    status = fb.get("status_s")
    verdict = (
        ("met" if status and status["p90"] < FEEDBACK_GOAL_S else "not met") if status else "not measured"
    )
    return "\n".join(
        [
            (
                f"Feedback before the first token, {fb['asks']} questions in one new chat (offline answerer, default "
                "embeddings): time from the Enter keydown (its event timestamp, in the page) until the new messages "
                'first say what is happening ("Searching N documents" or already the sources), until they name '
                f"the sources found, and until the finished answer is on screen. Goal for the first: under "
                f"{FEEDBACK_GOAL_S} s at p90: {verdict}."
            ),
            "",
            "| step | median | p90 |",
            "|---|---:|---:|",
            f"| question shown | {cell('question')} |",
            f"| first feedback (searching / sources) | {cell('status')} |",
            f"| sources found | {cell('sources')} |",
            f"| finished answer | {cell('answer')} |",
        ]
    )
