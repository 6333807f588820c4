"""The answer and the side panel read in Streamlit's light and dark themes: the footnote badge's
text against its own background (composited over the page, from computed styles) has at least
WCAG AA contrast, the badge follows the theme instead of staying a light chip on a dark page, and
the panel's muted text stays readable. Screenshots of both themes are left in the test's tmp dir."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import FOOTNOTE, PANEL, ask, wait_idle
from tests.e2e.documents import GUIDE_QUESTION, guide_pdf
from tests.e2e.server import offline_env, run_app
from tests.pages.conftest import build_library

pytestmark = pytest.mark.browser
AA = 4.5  # WCAG 2 AA contrast for normal text

# [text rgb, background rgb] of an element as seen on screen: its colours from computed styles,
# normalised by painting them on a canvas, its background alpha-composited over every ancestor's
# (across the component's shadow root) down to the first opaque one.
_COLOURS_JS = """
(el) => {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const rgba = (c) => {
    ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = c; ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[3] * top[i] + (1 - top[3]) * under[i]);
  const layers = [];
  for (let node = el; node; ) {
    if (node.nodeType === 1) {
      const bg = rgba(getComputedStyle(node).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    node = node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentNode;
  }
  let background = [255, 255, 255];
  for (const layer of layers.reverse()) background = over(layer, background);
  const text = over(rgba(getComputedStyle(el).color), background);
  return [text, background];
}
"""


def _luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: list[float], b: list[float]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.fixture(scope="module", params=["light", "dark"])
def themed_app(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str, Path]]:
    """The app in one theme (the `--theme.base` option, given as its environment variable)."""
    root = tmp_path_factory.mktemp(f"theme_{request.param}")
    build_library(root / "data", [("guide.pdf", guide_pdf())], chunk_size=400)
    env = offline_env(root / "data", STREAMLIT_THEME_BASE=request.param)
    with run_app(env, root / "streamlit.log") as url:
        yield request.param, url, root


def test_footnote_badges_and_panel_are_readable_in_the_theme(themed_app, page: Page) -> None:
    theme, url, root = themed_app
    page.goto(url)
    wait_idle(page)
    ask(page, GUIDE_QUESTION)
    badge = page.locator(FOOTNOTE).first
    expect(badge).to_be_visible()
    page_bg = page.locator('[data-testid="stApp"]').evaluate(_COLOURS_JS)[1]
    dark_page = _luminance(page_bg) < 0.2
    assert dark_page == (theme == "dark"), f"the app is not in the {theme} theme: background {page_bg}"

    text, background = badge.evaluate(_COLOURS_JS)
    assert _contrast(text, background) >= AA, (theme, text, background)
    # The badge belongs to the page's theme: a dark chip on a dark page, a light one on a light page.
    assert (_luminance(background) < 0.2) == dark_page, (theme, background)
    body_text, body_bg = page.locator('[data-testid="stBidiComponentIsolated"] .fn-answer').first.evaluate(
        _COLOURS_JS
    )
    assert _contrast(body_text, body_bg) >= AA, (theme, body_text, body_bg)
    page.screenshot(path=str(root / f"answer_{theme}.png"))

    badge.click()
    panel = page.locator(PANEL)
    expect(panel).to_contain_text("id ")
    wait_idle(page)
    active_text, active_bg = page.locator(FOOTNOTE).first.evaluate(_COLOURS_JS)
    assert _contrast(active_text, active_bg) >= AA, (theme, "active badge", active_text, active_bg)
    meta = page.locator(".st-key-panel_meta div").first
    meta_text, meta_bg = meta.evaluate(_COLOURS_JS)
    assert _contrast(meta_text, meta_bg) >= AA, (theme, "panel meta", meta_text, meta_bg)
    page.screenshot(path=str(root / f"panel_{theme}.png"))
