"""Start processes from one long-lived thread.

Why: bubblewrap's ``--die-with-parent`` is ``PR_SET_PDEATHSIG``, which the kernel ties to
the *thread* that forked the child, not to the process. A desktop spawned from a pool's
short-lived worker thread would be killed the moment that thread ends. Every desktop
is therefore forked by a single daemon thread that lives as long as the process.
"""

from __future__ import annotations

import queue
import subprocess
import threading
from concurrent.futures import Future
from typing import Any

_QUEUE: queue.Queue[tuple[list[str], dict[str, Any], Future[subprocess.Popen[bytes]]]] = queue.Queue()
_THREAD: threading.Thread | None = None
_LOCK = threading.Lock()


def _serve() -> None:
    while True:
        argv, kwargs, fut = _QUEUE.get()
        try:
            fut.set_result(subprocess.Popen(argv, **kwargs))
        except BaseException as exc:  # handed to the caller
            fut.set_exception(exc)


def spawn(argv: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """``subprocess.Popen(argv, **kwargs)``, forked by the long-lived spawner thread."""
    global _THREAD
    with _LOCK:
        if _THREAD is None or not _THREAD.is_alive():
            _THREAD = threading.Thread(target=_serve, name="desktop-spawner", daemon=True)
            _THREAD.start()
    fut: Future[subprocess.Popen[bytes]] = Future()
    _QUEUE.put((argv, kwargs, fut))
    return fut.result()
