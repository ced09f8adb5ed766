"""Hands a file to the LibreOffice a pooled desktop keeps warm, over UNO, from inside the sandbox.

Why: a warm office (``devices/linux/gui/warm_office.py``) used to be handed the task's file by a
second ``soffice`` process, which passes it over LibreOffice's single-instance pipe and exits;
that process's own start (the launcher script, ``oosplash``, ``soffice.bin`` loading its
libraries) was most of a warm reset: 1.8 to 5.7 s on a loaded machine. The warm office now also
listens on a named UNO pipe (``--accept=pipe,name=NAME;urp;``) and the controller, already
connected since the spare's start, asks its ``Desktop`` to load the file into the ``_default``
target — the same call the second ``soffice`` makes (``Referer`` ``private:OpenEvent``, with
the UI and its interaction handler): LibreOffice loads a file into the frame of an untouched
empty document, replacing it, exactly as before.

Run by the controller (``inside_ctl.py``) with Debian's ``/usr/bin/python3`` and its
``python3-uno``; bound read-only at ``/opt/dw/office.py``, never imported by the harness.
A load runs in a thread: LibreOffice answers only when the document is loaded, and a modal
dialog during the load would hold the call; the controller waits for it at most ``wait_s``.
"""

import contextlib
import glob
import os
import threading
import time
from typing import Any

HOME = os.environ.get("HOME", "/home/user")

_offices: dict[str, Any] = {}  # pipe name -> the office's frame.Desktop (a UNO proxy)
_loads: dict[str, dict[str, Any]] = {}  # pipe name -> the last load's state: done, error, title


def _uno() -> Any:
    import uno  # Debian's python3-uno: only inside the sandbox, and only where a warm office runs

    return uno


def connect(pipe: str, timeout_s: float) -> bool:
    """Connect to the office listening on ``pipe`` (retrying until it accepts, at most ``timeout_s``);
    True when connected. The connection is kept for :func:`load`."""
    uno = _uno()
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    end = time.monotonic() + timeout_s
    while True:
        try:
            ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
            break
        except Exception:
            if time.monotonic() >= end:
                return False
            time.sleep(0.05)
    _offices[pipe] = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    # nobody else may connect: with the socket's path gone, the office keeps this connection and its
    # acceptor waits on a socket no process can reach (an agent's script would otherwise drive the
    # office through it), and the sandbox's /tmp is as a cold start leaves it
    for found in glob.glob(f"/tmp/OSL_PIPE_*_{pipe}"):
        with contextlib.suppress(OSError):
            os.unlink(found)
    return True


_WARM_FORMATS = {
    "writer": ("private:factory/swriter", "MS Word 2007 XML", ".docx"),
    "calc": ("private:factory/scalc", "Calc MS Excel 2007 XML", ".xlsx"),
}
"""Per module: the new document, the filter and the extension of the format tasks' files come in."""


def _props(uno: Any, **values: Any) -> tuple[Any, ...]:
    out = []
    for name, value in values.items():
        prop = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
        prop.Name, prop.Value = name, value
        out.append(prop)
    return tuple(out)


def prewarm(pipe: str, module: str) -> bool:
    """Save and load a small file of ``module``'s task format (docx, xlsx) once, hidden, so that the
    first real load does not pay for the import and export filters' first use (their libraries, the
    drawing presets): measured headless, 0.22 CPU-s for the first load of a one-paragraph docx and
    0.06 for every later one. Nothing of it is left: not in the recent documents (``PickListEntry``
    false), not a window, not the file (in the sandbox's ``/tmp``, removed)."""
    desktop = _offices.get(pipe)
    if desktop is None or module not in _WARM_FORMATS:
        return False
    uno = _uno()
    factory, filter_name, ext = _WARM_FORMATS[module]
    path = f"/tmp/.dw-office-warm{ext}"
    try:
        doc = desktop.loadComponentFromURL(factory, "_blank", 0, _props(uno, Hidden=True))
        try:
            doc.storeToURL(uno.systemPathToFileUrl(path), _props(uno, FilterName=filter_name))
        finally:
            doc.close(True)
        doc = desktop.loadComponentFromURL(
            uno.systemPathToFileUrl(path), "_blank", 0, _props(uno, Hidden=True, PickListEntry=False)
        )
        doc.close(True)
        return True
    except Exception:  # a UNO exception: the first real load pays for the filters, as before
        return False
    finally:
        if os.path.exists(path):
            os.unlink(path)


def file_url(path: str) -> str:
    """``path`` as the URL LibreOffice's command line would make of it (relative: to the home)."""
    if "://" in path:
        return path
    return str(_uno().systemPathToFileUrl(os.path.normpath(os.path.join(HOME, path))))


def load(pipe: str, path: str, wait_s: float) -> dict[str, Any]:
    """Load ``path`` in the office on ``pipe`` as ``soffice PATH`` would; wait at most ``wait_s``.
    Returns ``connected`` (False: no office on that pipe), ``done``, ``error`` (why it failed)."""
    desktop = _offices.get(pipe)
    if desktop is None:
        return {"connected": False, "done": False, "error": "not connected"}
    uno = _uno()
    url = file_url(path)
    state: dict[str, Any] = {"done": False, "error": None}
    _loads[pipe] = state

    def run() -> None:
        try:
            doc = desktop.loadComponentFromURL(url, "_default", 0, _props(uno, Referer="private:OpenEvent"))
            if doc is None:
                state["error"] = f"LibreOffice did not load {url}"
        except Exception as exc:  # a UNO exception (IllegalArgument, IOException, a disposed bridge)
            state["error"] = f"{type(exc).__name__}: {exc}"
            if "Disposed" in type(exc).__name__ or "RuntimeException" in type(exc).__name__:
                _offices.pop(pipe, None)
        finally:
            state["done"] = True

    worker = threading.Thread(target=run, name="office-load", daemon=True)
    worker.start()
    worker.join(wait_s)
    return {"connected": True, "done": state["done"], "error": state["error"]}
