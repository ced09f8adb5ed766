"""Shared by the viewer's browser tests: one headless Chromium per test module, and viewer servers
over run folders that stop when the test ends.

Runs Debian's Chromium (``/usr/bin/chromium``) through Playwright and never downloads a browser.
Skips, saying why, when Chromium or Playwright is missing, unless ``DEVICESWORLD_REQUIRE_SYSTEM=1``
(CI), where that is a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from devicesworld.viewer import ViewerServer, make_server, serve_in_thread

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

ServeRuns = Callable[..., ViewerServer]


def _unavailable(reason: str) -> None:
    if os.environ.get("DEVICESWORLD_REQUIRE_SYSTEM") == "1":
        pytest.fail(f"DEVICESWORLD_REQUIRE_SYSTEM=1 but {reason}")
    print(f"skipping browser test: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A Playwright ``Browser`` (typed ``Any``: playwright is a dev dependency the suite may lack)."""
    if not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        _unavailable(f"{CHROMIUM} not found (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def serve_runs() -> Iterator[ServeRuns]:
    """``serve_runs(run_dir, ...)`` starts a viewer over those runs (ids 0, 1, ... in that order)
    on a free port; every server started is shut down after the test."""
    started: list[ViewerServer] = []

    def start(*run_dirs: Path) -> ViewerServer:
        srv = make_server(list(run_dirs), port=0)
        serve_in_thread(srv)
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.shutdown()
        srv.server_close()
