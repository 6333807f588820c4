"""How the side panel's keyed containers look (components.panel.side_panel draws it once per
page run): static and trusted, no untrusted text in here."""

from __future__ import annotations

from components.shared import state

PANEL_STYLE = """<style>
@media (min-width: 640px) {  /* beside the chat (narrower screens stack the columns) */
  div[data-testid="stColumn"]:has(.st-key-side_panel),
  div[data-testid="stColumn"]:has(.st-key-side_panel_hint) {
    position: sticky; top: 3.75rem; align-self: flex-start; }
}
.st-key-panel_title p, .st-key-panel_title div { font-weight: 600; font-size: 1.1rem; }
.st-key-panel_meta div { color: color-mix(in srgb, currentColor 75%, transparent); font-size: 0.85rem; }
.st-key-panel_chunk div { font-size: 0.92rem; line-height: 1.5; }
.st-key-cited_passage { background: rgba(255, 196, 0, 0.2); border-left: 3px solid rgba(224, 170, 0, 0.9);
  padding: 0.35rem 0.6rem; border-radius: 0.25rem; }  /* translucent: a highlight on either theme */
.st-key-panel_pages img { border: 1px solid color-mix(in srgb, currentColor 15%, transparent); border-radius: 0.25rem; }
/* The click relay (components/chat/cite_relay.py) shows nothing but its preview of a clicked footnote,
   in the panel's place until the panel's run has drawn that footnote: in the hint's place, or
   over the panel, which stays laid out (unseen) while its new elements and pictures arrive. */
.st-key-panel_warm { display: none; }
body:not([data-fn-preview]) .st-key-@@RELAY@@ { display: none; }
body[data-fn-preview] [data-testid="stLayoutWrapper"]:has(> .st-key-side_panel_hint),
body[data-fn-preview] .st-key-side_panel_hint { display: none; }
body[data-fn-preview] .st-key-side_panel { visibility: hidden; }
[data-testid="stVerticalBlock"]:has(> .st-key-@@RELAY@@) { position: relative; }
body[data-fn-preview] [data-testid="stVerticalBlock"]:has(.st-key-side_panel) > .st-key-@@RELAY@@ {
  position: absolute; top: 0; left: 0; right: 0; z-index: 3; }
</style>""".replace("@@RELAY@@", state.CITE_RELAY)
