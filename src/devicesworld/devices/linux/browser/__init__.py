"""The device's browser: one interface, two backends (Chromium via Playwright, or built-in)."""

from __future__ import annotations

import logging
import os
from typing import Literal

from devicesworld.devices.linux.browser.base import Browser, BrowserError, Element, PageView
from devicesworld.devices.linux.browser.builtin import BuiltinBrowser
from devicesworld.devices.linux.browser.chromium import ChromiumBrowser, chromium_path
from devicesworld.devices.linux.sites.server import SiteService

__all__ = [
    "Browser",
    "BrowserError",
    "BuiltinBrowser",
    "ChromiumBrowser",
    "Element",
    "PageView",
    "make_browser",
    "pick_backend",
]

BROWSER_ENV = "DEVICESWORLD_BROWSER"
log = logging.getLogger(__name__)


def pick_backend(choice: Literal["auto", "chromium", "builtin"]) -> Literal["chromium", "builtin"]:
    """``auto`` means Chromium when it can run here (overridable by ``DEVICESWORLD_BROWSER``)."""
    if choice == "auto":
        env = os.environ.get(BROWSER_ENV, "").strip().lower()
        if env in ("chromium", "builtin"):
            return "chromium" if env == "chromium" else "builtin"
        return "chromium" if chromium_path() else "builtin"
    return choice


def make_browser(sites: SiteService, choice: Literal["auto", "chromium", "builtin"] = "auto") -> Browser:
    """The chosen backend; ``auto`` falls back to the built-in engine (with a warning) if Chromium fails to start."""
    if pick_backend(choice) == "builtin":
        return BuiltinBrowser(sites)
    try:
        return ChromiumBrowser(sites)
    except BrowserError:
        if choice == "chromium":
            raise
    except Exception as exc:
        if choice == "chromium":
            raise BrowserError(
                "NO_BROWSER", f"Chromium could not start: {type(exc).__name__}: {exc}"
            ) from None
        log.warning("Chromium could not start (%s); using the built-in browser", exc)
    return BuiltinBrowser(sites)
