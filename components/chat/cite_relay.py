"""The side panel's click relay, which also shows a clicked footnote's text at once (issue 27).

The relay is a v2 component inside the panel's fragment (components/chat/chat_panel.py). It takes an
answer's cite event, whose detail carries the footnote's panel text from that answer's data
(components/panel/preview.py), sends the click to the server, and at once shows that text in its own
preview box in the panel's place (components/panel/side_panel.py: its style), set with textContent only.
When the server's run has drawn the panel on that footnote (the relay's data names the footnote the
server shows), the preview hides and the panel, with its page picture, is seen again. The server's
session state stays the one owner of the selection: the preview only shows ahead what the server's
run will show.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from components.chat import answer_view
from components.panel.side_panel import PANEL_HEIGHT
from components.shared import state

# Static and trusted: the preview's empty parts; the JS fills them with textContent.
_HTML = """<div class="fn-preview" hidden>
<div class="fn-head"><strong class="fn-n"></strong><span class="fn-of"></span></div>
<div class="fn-title"></div><div class="fn-meta"></div><div class="fn-where"></div><div class="fn-kind"></div>
<div class="fn-wait">Drawing the page…</div>
<div class="fn-before"></div><div class="fn-inside"></div><div class="fn-after"></div>
</div>"""

# As the panel looks (components/panel/side_panel.py: its keyed containers' style).
_CSS = """
.fn-preview { box-sizing: border-box; height: @@HEIGHT@@px; overflow-y: auto; padding: 1rem;
  display: flex; flex-direction: column; gap: 0.75rem; font: inherit; color: inherit;
  background: var(--st-background-color, Canvas);
  border: 1px solid color-mix(in srgb, currentColor 20%, transparent); border-radius: 0.5rem; }
.fn-preview[hidden], .fn-preview [hidden] { display: none; }
.fn-head { min-height: 2.5rem; line-height: 2.5rem; }
.fn-title { font-weight: 600; font-size: 1.1rem; }
.fn-meta, .fn-where { color: color-mix(in srgb, currentColor 75%, transparent); font-size: 0.85rem; }
.fn-kind, .fn-wait { color: color-mix(in srgb, currentColor 60%, transparent); font-size: 0.85rem; }
.fn-before, .fn-inside, .fn-after { font-size: 0.92rem; line-height: 1.5; }
.fn-inside { background: rgba(255, 196, 0, 0.2); border-left: 3px solid rgba(224, 170, 0, 0.9);
  padding: 0.35rem 0.6rem; border-radius: 0.25rem; }
""".replace("@@HEIGHT@@", str(PANEL_HEIGHT))

# The preview shows while the page carries data-fn-preview on its body (side_panel's style hides the
# panel then, and shows the relay). Streamlit 1.67 runs this module's function again on new data
# without calling the cleanup it returned before (only on unmount): the relay's state and its one
# listener are kept on the shadow root across runs.
_JS = """
export default function ({ data, parentElement, setTriggerValue }) {
  const host = parentElement.host || parentElement.getRootNode().host || parentElement;
  const box = parentElement.querySelector(".fn-preview");
  const relay = parentElement.__fnRelay || (parentElement.__fnRelay = { pending: "", id: "", timer: 0 });
  if (relay.off) relay.off();
  relay.shown = (data && data.shown) || "";
  const hide = () => {
    relay.pending = "";
    clearTimeout(relay.timer);
    if (box) box.hidden = true;
    delete document.body.dataset.fnPreview;
  };
  // The server shows the pending footnote: hide the preview once its panel is on the page.
  const handOver = (key, id) => {
    let frames = 0;
    const wait = () => {
      if (relay.pending !== key) return;
      const panel = document.querySelector(".st-key-side_panel");
      if ((panel && panel.textContent.includes("id " + id)) || ++frames > 120) return hide();
      requestAnimationFrame(wait);
    };
    requestAnimationFrame(wait);
  };
  if (relay.pending && relay.pending === relay.shown) handOver(relay.pending, relay.id);
  const fill = (selector, text) => {
    const part = box.querySelector(selector);
    part.textContent = text ? String(text) : "";  // untrusted text: never innerHTML
    part.hidden = !text;
  };
  const show = (note, key) => {
    fill(".fn-n", "Source " + Number(note.n));
    fill(".fn-of", " of " + Number(note.count));
    for (const name of ["title", "meta", "where", "kind", "before", "inside", "after"]) fill(".fn-" + name, note[name]);
    relay.pending = key;
    relay.id = String(note.id);
    box.hidden = false;
    document.body.dataset.fnPreview = "on";
    clearTimeout(relay.timer);
    relay.timer = setTimeout(hide, 10000);  // no run came back with it: show the server's panel
  };
  const onCite = (event) => {
    const container = host.closest('[data-testid="stElementContainer"]');
    if (container && container.dataset.stale === "true") return;
    event.preventDefault();
    const turn = String(event.detail.turn), n = Number(event.detail.n), note = event.detail.note;
    const key = turn + ":" + n;
    setTriggerValue("cite", { turn, n });  // first: the server's run starts while the page draws the preview
    if (box && note && key !== relay.shown) show(note, key);
    else hide();
  };
  document.addEventListener("@@EVENT@@", onCite);
  relay.off = () => document.removeEventListener("@@EVENT@@", onCite);
  return () => { relay.off(); hide(); };
}
""".replace("@@EVENT@@", answer_view.CITE_EVENT)

_relay = st.components.v2.component("footnote_cite_relay", html=_HTML, css=_CSS, js=_JS, isolate_styles=True)


def show_relay(shown: tuple[str, int] | None, on_cite: Callable[[], object]) -> None:
    """Mount the relay; shown: the footnote this run's panel shows (turn id, number), or None."""
    _relay(
        key=state.CITE_RELAY,
        data={"shown": f"{shown[0]}:{shown[1]}" if shown else ""},
        on_cite_change=on_cite,
    )
