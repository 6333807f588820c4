"""Make sure a Chromium exists for the browser tests; install it if we can, fail loudly if not."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def find_chromium() -> str | None:
    """Return a Chromium executable to drive, or None to use Playwright's own build."""
    explicit = os.environ.get("FOOTNOTE_CHROMIUM")
    if explicit:
        return explicit
    for path in CANDIDATES:
        if Path(path).exists():
            return path
    return None


def _playwright_has_browser() -> bool:
    cache = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH", Path.home() / ".cache" / "ms-playwright"))
    if sys.platform == "darwin":
        cache = Path.home() / "Library" / "Caches" / "ms-playwright"
    return any(cache.glob("chromium*")) if cache.exists() else False


def main() -> int:
    if find_chromium() or _playwright_has_browser():
        return 0
    if sys.platform.startswith("linux") and shutil.which("apt-get"):
        prefix = [] if os.geteuid() == 0 else ["sudo"]
        print("Installing Debian's chromium for the browser tests...", flush=True)
        subprocess.run([*prefix, "apt-get", "update", "-qq"], check=False)
        subprocess.run([*prefix, "apt-get", "install", "-y", "-qq", "chromium"], check=False)
        if find_chromium():
            return 0
    print("Installing Playwright's chromium for the browser tests...", flush=True)
    done = subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"], check=False)
    if done.returncode == 0:
        return 0
    print(
        "No browser for the UI tests: install chromium (apt-get install chromium) or set "
        "FOOTNOTE_CHROMIUM to a Chromium executable.",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
