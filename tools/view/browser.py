"""Headless Chromium for the viewer's browser tests and bench: Debian's ``chromium`` driven by
Playwright for Python (``pip install 'botarena[view-test]'``; never ``playwright install``: the
system browser is used). Optional: ``missing()`` says in one line what is absent."""
from __future__ import annotations

import os
import shutil
import tempfile

# The machine may have no network: without these Chromium stalls on connections it tries to make.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions")


def chromium_path() -> str | None:
    """The browser to drive: $BOTARENA_CHROMIUM, else Debian's chromium on the PATH."""
    chosen = os.environ.get("BOTARENA_CHROMIUM")
    if chosen is not None:
        return shutil.which(chosen)
    return shutil.which("chromium") or shutil.which("chromium-browser")


def missing() -> str | None:
    """None when a browser can be driven, else one line naming what to install."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install 'botarena[view-test]')"
    if chromium_path() is None:
        return "chromium is not installed (apt-get install chromium)"
    return None


class Browser:
    """A headless Chromium with a fresh profile, closed (profile removed) on ``close()``."""

    def __init__(self):
        from playwright.sync_api import sync_playwright
        self._profile = tempfile.TemporaryDirectory(prefix="botarena-chromium-")
        self._playwright = sync_playwright().start()
        try:
            self.context = self._playwright.chromium.launch_persistent_context(
                self._profile.name, executable_path=chromium_path(), args=list(FLAGS),
                headless=True, viewport={"width": 1280, "height": 900})
        except Exception:
            self._playwright.stop()
            self._profile.cleanup()
            raise

    def new_page(self):
        """A page that records console errors and uncaught exceptions in ``page.errors``."""
        page = self.context.new_page()
        page.errors = []
        page.on("console", lambda message: message.type == "error" and page.errors.append(message.text))
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    def close(self) -> None:
        self.context.close()
        self._playwright.stop()
        self._profile.cleanup()
