"""One headless Chromium per Python process, shared by every Linux device as separate contexts.

Why: launching Chromium costs about a second, a fresh browser *context* (its own
cookies, storage, cache and pages, like an incognito window) tens of milliseconds.
The full suite has thousands of web episodes, so the browser is started lazily on
the first device that needs it, kept for the life of the process and stopped at
exit (``atexit``); each device opens its own context and closes it when it closes.

Threads: Playwright's sync API is bound to the thread that started it (and refuses
to run inside an asyncio loop), so every Playwright call of every device runs on
one daemon worker thread owned by :class:`SharedChromium`; callers (the episode
loop, pre-warming threads) hand it closures and wait. A daemon thread with a plain
queue, not a ``ThreadPoolExecutor``: executors refuse work once interpreter shutdown
begins, which is before ``atexit`` handlers run, so the browser could not be closed.

Crashes: if the browser process dies or is closed, the next context request
launches a new one (and restarts the Playwright driver if that died too), so a
crash costs the episodes that were using it, never the later ones. After ``fork``
the child forgets the parent's browser (its worker thread does not exist there).

Temp files: the driver and the browser keep their profile, artifacts and sockets
under ``TMPDIR``; it is pointed at an owned folder (:mod:`devicesworld.devices.ownership`)
for the driver's start, so what a killed process leaves there is removed by the next
run, and a normal stop removes it at once. (Not when that would make Chromium's
singleton socket path longer than a Unix socket allows: then ``TMPDIR`` is left alone.)
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import tempfile
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from devicesworld.devices.ownership import make_owned_dir, remove_owned

T = TypeVar("T")

LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


class _Worker:
    """A daemon thread that runs submitted callables one at a time, in order."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._loop, name="dw-chromium", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            fn, fut = item
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                fut.set_result(fn())
            except BaseException as exc:
                fut.set_exception(exc)

    def call(self, fn: Callable[[], T], timeout: float | None = None) -> T:
        if threading.current_thread() is self.thread:
            return fn()  # already on the worker (a nested call): run inline, never deadlock
        fut: Future[T] = Future()
        self._jobs.put((fn, fut))
        return fut.result(timeout=timeout)

    def stop(self) -> None:
        self._jobs.put(None)


class SharedChromium:
    """The process's Chromium: launched on first use, relaunched after a crash, stopped at exit."""

    def __init__(self, executable: str) -> None:
        self.executable = executable
        self.launches = 0
        """How many times a browser was started (1 unless it crashed or was closed)."""
        self._worker: _Worker | None = None
        self._pw: Any = None
        self._browser: Any = None
        self._scratch: Path | None = None
        self._lock = threading.Lock()

    def call(self, fn: Callable[[], T], timeout: float | None = None) -> T:
        """Run ``fn`` on the Playwright thread (from any thread) and return its result."""
        with self._lock:
            if self._worker is None:
                self._worker = _Worker()
            worker = self._worker
        return worker.call(fn, timeout)

    # Everything below runs on the worker thread.
    def browser(self) -> Any:
        """The running browser, launching (or relaunching) it when there is none or it died."""
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        self._drop_browser()
        try:
            self._browser = self._launch()
        except Exception:
            # The driver itself may have died with the browser: start a new one and retry once.
            self._stop_driver()
            self._browser = self._launch()
        self.launches += 1
        return self._browser

    def connected(self) -> bool:
        return self._browser is not None and bool(self._browser.is_connected())

    def _launch(self) -> Any:
        if self._pw is None:
            from playwright.sync_api import sync_playwright

            self._scratch = _scratch_folder()
            with _temp_folder(self._scratch):
                self._pw = sync_playwright().start()
        return self._pw.chromium.launch(
            executable_path=self.executable,
            headless=True,
            args=LAUNCH_ARGS,
            downloads_path=str(self._scratch / "downloads") if self._scratch else None,
        )

    def _drop_browser(self) -> None:
        browser, self._browser = self._browser, None
        if browser is not None:
            with contextlib.suppress(Exception):
                browser.close()

    def _stop_driver(self) -> None:
        pw, self._pw = self._pw, None
        if pw is not None:
            with contextlib.suppress(Exception):
                pw.stop()
        scratch, self._scratch = self._scratch, None
        if scratch is not None:
            remove_owned(scratch)

    def _shutdown_here(self) -> None:
        self._drop_browser()
        self._stop_driver()

    def shutdown(self, timeout: float = 30.0) -> None:
        """Close the browser and the driver and stop the worker (the next ``call`` starts afresh)."""
        with self._lock:
            worker, self._worker = self._worker, None
        if worker is None:
            return
        with contextlib.suppress(Exception):
            worker.call(self._shutdown_here, timeout)
        worker.stop()


MAX_SOCKET_PATH = 107
"""Longest Unix socket path (``sun_path``); Chromium aborts when its singleton socket's is longer."""
_SOCKET_TAIL = "/org.chromium.Chromium.XXXXXX/SingletonSocket"


def _scratch_folder() -> Path | None:
    """An owned temp folder short enough for Chromium's sockets, or ``None`` (then ``TMPDIR`` stays)."""
    for parent in dict.fromkeys([tempfile.gettempdir(), "/tmp"]):
        if len(parent) + len("/dw-browser-XXXXXXXX") + len(_SOCKET_TAIL) > MAX_SOCKET_PATH:
            continue
        with contextlib.suppress(OSError):
            return make_owned_dir("dw-browser-", parent)
    return None


@contextlib.contextmanager
def _temp_folder(folder: Path | None) -> Iterator[None]:
    """``TMPDIR`` is ``folder`` for processes started inside (the Playwright driver and its browsers)."""
    if folder is None:
        yield
        return
    tempfile.gettempdir()  # Python's own choice is made (and cached) before TMPDIR changes
    before = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = before


_SHARED: dict[str, SharedChromium] = {}
_SHARED_LOCK = threading.Lock()
_ATEXIT = False


def shared_chromium(executable: str) -> SharedChromium:
    """This process's browser for ``executable`` (created lazily; nothing starts until used)."""
    global _ATEXIT
    with _SHARED_LOCK:
        shared = _SHARED.get(executable)
        if shared is None:
            shared = _SHARED[executable] = SharedChromium(executable)
        if not _ATEXIT:
            atexit.register(shutdown_all)
            _ATEXIT = True
        return shared


def shutdown_all() -> None:
    """Stop every shared browser of this process (registered with ``atexit``)."""
    with _SHARED_LOCK:
        browsers = list(_SHARED.values())
        _SHARED.clear()
    for shared in browsers:
        shared.shutdown()


def _forget_after_fork() -> None:
    """A forked child has no worker thread: it must start its own browser, not drive the parent's."""
    global _SHARED_LOCK
    _SHARED.clear()
    _SHARED_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)
