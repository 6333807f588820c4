"""The chat page driven in chromium for `bench ui`: footnote clicks timed inside the page, and
what each click made the server send (websocket bytes, page-picture bytes)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

# Click the n-th footnote button; resolve with milliseconds from the click until (text) the panel,
# or today the click relay's preview of it (components/chat/cite_relay.py), visibly shows the footnote's
# id and the start of its chunk text, (picture) every page picture on screen
# is a new one and has loaded, and (run) the script run the click started has finished; plus the
# bytes of page pictures fetched meanwhile. The script state is watched with a MutationObserver,
# since a short run can start and end between two animation frames.
CLICK_JS = """
async ([index, shortId, needle]) => {
  const buttons = [];
  document.querySelectorAll('[data-testid="stBidiComponentIsolated"]').forEach((host) => {
    const root = host.shadowRoot || host;
    root.querySelectorAll('button.fn-ref').forEach((b) => buttons.push(b));
  });
  const button = buttons[index];
  button.scrollIntoView({block: 'center'});
  await new Promise((r) => requestAnimationFrame(() => r()));
  const app = document.querySelector('[data-testid="stApp"]');
  const before = new Set([...document.querySelectorAll('.st-key-panel_pages img')].map((i) => i.src));
  const out = {};
  let t0 = 0;
  const observer = new MutationObserver(() => {
    if (app.dataset.testScriptState === 'notRunning' && out.runStarted) out.run = performance.now() - t0;
    if (app.dataset.testScriptState === 'running') out.runStarted = true;
  });
  observer.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  const squash = (s) => s.replace(/\\s+/g, '');
  // Today's click relay shows the clicked footnote's text in its own preview box (in its shadow
  // root) until the panel's run has drawn it; the baseline has none. Either counts while visible.
  const preview = () => {
    const host = document.querySelector('.st-key-chat_cite_relay [data-testid="stBidiComponentIsolated"]');
    return host && host.shadowRoot ? host.shadowRoot.querySelector('.fn-preview') : null;
  };
  // Today's panel stays laid out, but unseen (visibility: hidden), under the preview.
  const seen = (el) => el.checkVisibility({visibilityProperty: true});
  const visibleText = (el) => (el && seen(el) ? el.textContent : '');
  t0 = performance.now();
  button.click();
  return await new Promise((resolve, reject) => {
    const check = () => {
      const now = performance.now() - t0;
      // textContent, not innerText: innerText lays the page out on every frame it is read
      const texts = [visibleText(document.querySelector('.st-key-side_panel')), visibleText(preview())];
      const shown = texts.join(' | ');
      if (out.text === undefined && texts.some((t) => t.includes('id ' + shortId) && squash(t).includes(needle))) out.text = now;
      const covered = preview() !== null && seen(preview());
      const imgs = covered ? [] : [...document.querySelectorAll('.st-key-panel_pages img')].filter(seen);
      if (out.picture === undefined && imgs.length > 0
          && imgs.every((i) => !before.has(i.src) && i.complete && i.naturalWidth > 0)) out.picture = now;
      // A short run can start and end within one render: then the page never says "running",
      // and the run had ended by the time its text was drawn.
      if (out.run === undefined && !out.runStarted && out.text !== undefined && out.picture !== undefined
          && app.dataset.testScriptState === 'notRunning') out.run = now;
      if (out.text !== undefined && out.picture !== undefined && out.run !== undefined) {
        observer.disconnect();
        out.mediaBytes = performance.getEntriesByType('resource')
          .filter((e) => e.name.includes('/media/') && e.startTime >= t0)
          .reduce((sum, e) => sum + e.transferSize, 0);
        return resolve(out);
      }
      if (now > 30000) {
        observer.disconnect();
        const state = JSON.stringify({...out, imgs: imgs.map((i) => [before.has(i.src), i.complete]), shown: shown.slice(0, 300)});
        return reject(new Error('panel did not show ' + shortId + ': ' + state));
      }
      requestAnimationFrame(check);
    };
    // From the first frame after the click on: what the click drew in its own task (today's
    // preview) counts in the frame that paints it, as anything else does.
    requestAnimationFrame(check);
  });
}
"""


@dataclass(frozen=True)
class Target:
    """One footnote button to click: its index among the page's buttons, its short id, and the
    first characters of its chunk text with all whitespace removed (what the panel must show)."""

    index: int
    short_id: str
    needle: str


@dataclass
class ChatTab:
    """One open chat in chromium, counting the websocket bytes the server sent it."""

    name: str
    page: Any
    received: list[int] = field(default_factory=lambda: [0])

    def click(self, target: Target) -> dict[str, Any]:
        """Click a footnote: seconds to text, picture and run end; bytes sent for the click."""
        from playwright.sync_api import expect

        from tests.e2e.conftest import IDLE

        self.page.bring_to_front()
        sent_before = self.received[0]
        try:
            found = self.page.evaluate(CLICK_JS, [target.index, target.short_id, target.needle])
        except Exception as exc:  # say which side and which footnote
            raise RuntimeError(f"{self.name}, button {target.index}: {exc}") from exc
        expect(self.page.locator(IDLE)).to_be_attached(timeout=60_000)
        self.page.wait_for_timeout(100)  # frames of the finished run still in flight
        return {
            "text_s": found["text"] / 1000,
            "picture_s": found["picture"] / 1000,
            "run_s": found["run"] / 1000,
            "ws_bytes": self.received[0] - sent_before,
            "media_bytes": found["mediaBytes"],
        }


def _count_frames(received: list[int]):
    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: received.__setitem__(0, received[0] + len(payload)))

    return on_socket


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian chromium through Playwright, as the browser tests launch it."""
    from playwright.sync_api import sync_playwright

    from scripts.ensure_browser import find_chromium
    from tests.e2e.server import CHROMIUM_ARGS

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_chat(browser: Any, name: str, url: str, conv_id: str, first: Target) -> tuple[ChatTab, float]:
    """A new session on the saved chat, once `first` can be clicked; and the seconds that took."""
    import time

    from playwright.sync_api import expect

    from tests.e2e.conftest import IDLE

    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    tab = ChatTab(name, page)
    page.on("websocket", _count_frames(tab.received))
    started = time.perf_counter()
    page.goto(f"{url}/?conv={conv_id}")
    page.wait_for_timeout(150)
    expect(page.locator(IDLE)).to_be_attached(timeout=60_000)
    expect(  # a 30-turn chat can take longer than expect's 5 s to draw on a loaded machine
        page.locator('[data-testid="stBidiComponentIsolated"] button.fn-ref').nth(first.index)
    ).to_be_visible(timeout=60_000)
    return tab, time.perf_counter() - started


def close_chat(tab: ChatTab) -> None:
    """Close the tab's browser context (its session ends with the websocket)."""
    tab.page.context.close()


def alternate(tabs: Sequence[ChatTab], targets: Sequence[Target]) -> dict[str, list[dict[str, Any]]]:
    """Click the same targets in every tab, one click at a time, the order of the tabs swapped
    at every click so that neither side always goes first."""
    results: dict[str, list[dict[str, Any]]] = {tab.name: [] for tab in tabs}
    for i, target in enumerate(targets):
        for tab in tabs if i % 2 == 0 else list(reversed(tabs)):
            results[tab.name].append(tab.click(target))
    return results
