"""The interactive answer: a Custom Components v2 element showing sanitised answer HTML whose
footnote buttons report the clicked footnote back to Python.

A click is first offered, in the browser, to the side panel's relay (components/chat/chat_panel.py),
a widget inside the panel's fragment, so that Streamlit reruns the panel alone; the click carries
the footnote's panel text from this answer's data, which the relay shows at once. When no relay
takes it (none on the page, or a run is on its way), the answer's own one-shot 'cite' trigger
carries it, which Streamlit answers with a full run of the page.

The footnote the side panel shows is highlighted by a style rule the panel draws (active_style),
not by the answer's own data: a click reruns the panel alone, so the answers are not drawn again."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import streamlit as st

from components.panel import page_resources
from components.shared import state
from rag.types import Answer

# Static and trusted: per-answer content arrives through `data`, already sanitised.
_HTML = '<div class="fn-answer"></div>'

# Colours come from the Streamlit theme (v2 components get it as --st-* custom properties), so the
# answer reads in the light and the dark theme alike; the fallbacks only matter outside Streamlit.
# _ACTIVE_LOOK: a footnote under the pointer, focused, or open in the side panel.
_ACTIVE_LOOK = (
    "color: var(--st-background-color, Canvas); background: var(--st-blue-text-color, CanvasText); "
    "border-color: var(--st-blue-text-color, CanvasText);"
)
_CSS = """
.fn-answer { font: inherit; line-height: 1.6; color: inherit; }
.fn-answer p { margin: 0 0 0.6em 0; }
.fn-answer p:last-child { margin-bottom: 0; }
.fn-answer code { background: var(--st-code-background-color, color-mix(in srgb, currentColor 12%, transparent));
  padding: 0.1em 0.25em; border-radius: 0.25rem; }
.fn-answer pre { background: var(--st-code-background-color, color-mix(in srgb, currentColor 12%, transparent));
  padding: 0.6em; overflow-x: auto; }
.fn-answer a { color: var(--st-link-color, currentColor); }
.fn-ref { display: inline-block; min-width: 1.35em; height: 1.35em; margin: 0 0.1em; padding: 0 0.3em;
  font-size: 0.72em; font-weight: 600; line-height: 1.35em; vertical-align: super; text-align: center;
  color: var(--st-blue-text-color, currentColor);
  background: var(--st-blue-background-color, color-mix(in srgb, currentColor 12%, transparent));
  border: 1px solid color-mix(in srgb, var(--st-blue-text-color, currentColor) 35%, transparent);
  border-radius: 0.7em; cursor: pointer; }
.fn-ref:hover, .fn-ref:focus-visible { @@ACTIVE@@ outline: none; }
/* Matched by Footnote (the model cited nothing there): green, dashed, in italics. */
.fn-ref.fn-matched { font-style: italic; color: var(--st-green-text-color, currentColor);
  background: var(--st-green-background-color, color-mix(in srgb, currentColor 8%, transparent));
  border: 1px dashed color-mix(in srgb, var(--st-green-text-color, currentColor) 60%, transparent); }
.fn-ref.fn-matched:hover, .fn-ref.fn-matched:focus-visible {
  color: var(--st-background-color, Canvas); background: var(--st-green-text-color, CanvasText); }
/* Cited by the model, but the automatic check finds the passage does not support the sentence. */
.fn-ref.fn-flagged { border: 1px solid var(--st-orange-text-color, currentColor);
  box-shadow: 0 0 0 1px var(--st-orange-background-color, transparent); }
.fn-unresolved { font-size: 0.72em; vertical-align: super; color: var(--st-orange-text-color, currentColor);
  background: var(--st-orange-background-color, color-mix(in srgb, currentColor 12%, transparent));
  border: 1px dashed currentColor; border-radius: 0.3em; padding: 0 0.25em; text-decoration: line-through; }
""".replace("@@ACTIVE@@", _ACTIVE_LOOK)

# The DOM event an answer dispatches on a footnote click, for the side panel's relay to take.
CITE_EVENT = "footnote-cite"

_JS = """
export default function ({ data, parentElement, setTriggerValue }) {
  const root = parentElement.querySelector(".fn-answer");
  if (!root) return;
  const html = (data && data.html) || "";
  if (root.dataset.html !== html) {
    root.innerHTML = html;  // sanitised server side (allow-list, no event attributes)
    root.dataset.html = html;
  }
  // Each footnote is a shadow part "fn-N", so that a page-level rule can style it (active_style).
  root.querySelectorAll("button.fn-ref").forEach((b) => b.setAttribute("part", "fn-ref fn-" + b.dataset.n));
  const onClick = (event) => {
    const button = event.target.closest("button.fn-ref");
    if (button) {
      event.preventDefault();
      const n = Number(button.dataset.n);
      const note = (data.notes || [])[n - 1] || null;  // what the panel will show: the relay shows it at once
      const cite = new CustomEvent("@@EVENT@@", { detail: { turn: data.turn, n, note }, cancelable: true });
      if (data.turn && !document.dispatchEvent(cite)) return;  // the side panel's relay took it
      setTriggerValue("cite", n);
      return;
    }
    const link = event.target.closest("a[href]");
    if (link) {
      event.preventDefault();
      window.open(link.href, "_blank", "noopener,noreferrer");
    }
  };
  root.addEventListener("click", onClick);
  return () => root.removeEventListener("click", onClick);
}
""".replace("@@EVENT@@", CITE_EVENT)

_mount = st.components.v2.component("footnote_answer", html=_HTML, css=_CSS, js=_JS, isolate_styles=True)


def show_answer(turn_id: str, answer: Answer, on_cite: Callable[[str], object]) -> None:
    """Mount a saved turn's interactive answer; a footnote click that the side panel's relay does
    not take calls on_cite(turn_id), which reads the clicked number from the component's state
    (components/shared/state.py:on_cite)."""
    _mount(
        key=state.answer_key(turn_id),
        data={
            "html": page_resources.answer_html(turn_id, answer),
            "turn": turn_id,
            "notes": page_resources.answer_previews(turn_id, answer),
        },
        on_cite_change=functools.partial(on_cite, turn_id),
    )


_SAFE_KEY = re.compile(r"[A-Za-z0-9_-]+")


_NO_RULE = "<style>/* no footnote open */</style>"


def active_style(selection: tuple[str, int] | None) -> str:
    """A style element highlighting the selected footnote in its answer (by the answer's keyed
    element and the button's shadow part), or one with no rule when nothing is selected. Draw it
    on every run of the panel: st.html sends style-only HTML to the page's event container, where
    an element a fragment run does not draw again stays, highlight and all."""
    if selection is None:
        return _NO_RULE
    key, number = state.answer_key(selection[0]), int(selection[1])
    if not _SAFE_KEY.fullmatch(key):  # turn ids are uuid hex: anything else never reaches a selector
        return _NO_RULE
    host = f'.st-key-{key} [data-testid="stBidiComponentIsolated"]'
    return f"<style>{host}::part(fn-{number}) {{ {_ACTIVE_LOOK} }}</style>"
