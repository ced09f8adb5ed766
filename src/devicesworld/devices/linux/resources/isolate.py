"""Opening an untrusted document with bounded size, time and memory.

An agent can leave any bytes under a document's name: a 3 MB workbook that unpacks
to gigabytes of sheet XML, a sheet that claims a million rows, a PDF whose streams
inflate without end. Python cannot interrupt a library call in the harness, so:

* every read is refused past ``Limits.read_mb`` on disk, and a zip-based document
  past ``Limits.expanded_mb`` of *declared* unpacked size (zipfile never inflates a
  member past its declared size, so the declaration bounds the work);
* a small document (the ones setups and agents normally write, a few kB) is parsed
  in the harness — its work is bounded by its size and the readers' own caps
  (cells, archive members);
* anything bigger, and every format whose work is not bounded by its size
  (compressed tar, PDF), is parsed in a fresh ``python -m`` subprocess that sets
  ``RLIMIT_AS``/``RLIMIT_CPU`` on itself and is killed after ``Limits.parse_s``;
  its answer comes back as JSON (nothing pickled).

Every refusal is :class:`~devicesworld.devices.safefs.FsError` with code
``RESOURCE_LIMIT`` and the file's name; a malformed file stays ``FormatError``.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import zipfile
from typing import Any

from devicesworld.devices.linux.limits import Limits, default_limits
from devicesworld.devices.linux.resources.parse_child import PARSERS
from devicesworld.devices.linux.resources.readers import Blob, FormatError
from devicesworld.devices.safefs import FsError

INLINE_BYTES = 1024 * 1024
"""Zip-based documents up to this size (and :data:`INLINE_EXPANDED` unpacked) are parsed in the harness."""
INLINE_EXPANDED = 8 * 1024 * 1024
INLINE_UNBOUNDED = 64 * 1024
"""PDFs and compressed archives (work not bounded by size) are parsed in the harness only up to this size."""
MAX_ANSWER_BYTES = 256 * 1024 * 1024

_ZIP_KINDS = ("xlsx", "workbook", "sheets", "docx", "docx_runs", "xlsx_formulas")
_UNBOUNDED_KINDS = ("pdf", "archive")


def declared_expanded(data: bytes) -> int | None:
    """The sum of a zip's declared member sizes, or ``None`` when it is not a zip."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            return sum(i.file_size for i in zf.infolist())
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        return None


def parse(kind: str, doc: Blob, sheet: str | None = None, *, limits: Limits | None = None) -> Any:
    """``kind``'s reader applied to ``doc`` within the limits (see the module docstring)."""
    lim = limits or default_limits()
    if kind not in PARSERS:
        raise ValueError(f"no reader for {kind!r}")
    if len(doc.data) > lim.read_bytes:
        raise FsError(
            "RESOURCE_LIMIT", f"{doc.name}: {len(doc.data):,} bytes is over the {lim.read_mb} MiB limit"
        )
    inline = len(doc.data) <= INLINE_BYTES
    if kind in _ZIP_KINDS:
        expanded = declared_expanded(doc.data)
        if expanded is not None and expanded > lim.expanded_mb * 1024 * 1024:
            raise FsError(
                "RESOURCE_LIMIT",
                f"{doc.name}: unpacks to {expanded:,} bytes, over the {lim.expanded_mb} MiB limit for documents",
            )
        inline = inline and (expanded or 0) <= INLINE_EXPANDED
    elif kind in _UNBOUNDED_KINDS and not (kind == "archive" and doc.data[:2] == b"PK"):
        inline = len(doc.data) <= INLINE_UNBOUNDED
    if inline:
        return PARSERS[kind](doc, sheet)
    return _in_subprocess(kind, doc, sheet, lim)


def _in_subprocess(kind: str, doc: Blob, sheet: str | None, lim: Limits) -> Any:
    header = json.dumps(
        {"kind": kind, "name": doc.name, "sheet": sheet, "memory": lim.parse_memory_mb, "cpu": lim.parse_s}
    ).encode()
    env = {
        k: v for k, v in os.environ.items() if k in ("PATH", "PYTHONPATH", "LANG", "LC_ALL", "VIRTUAL_ENV")
    }
    try:
        done = subprocess.run(
            [sys.executable, "-m", "devicesworld.devices.linux.resources.parse_child"],
            input=header + b"\n" + doc.data,
            capture_output=True,
            timeout=lim.parse_s,
            env=env,
        )
    except subprocess.TimeoutExpired:
        raise FsError(
            "RESOURCE_LIMIT",
            f"{doc.name}: opening it took longer than {lim.parse_s:g} s; too complex to read here",
        ) from None
    if done.returncode < 0 and -done.returncode in (signal.SIGXCPU, signal.SIGKILL):
        raise FsError(
            "RESOURCE_LIMIT", f"{doc.name}: opening it used more than {lim.parse_s:g} s of CPU time"
        )
    out = done.stdout[:MAX_ANSWER_BYTES]
    try:
        answer = json.loads(out)
    except (ValueError, RecursionError):
        raise FormatError(
            f"{doc.name} could not be opened (the reader stopped: exit {done.returncode})"
        ) from None
    if answer.get("ok"):
        return answer.get("value")
    if answer.get("code") == "FORMAT":
        raise FormatError(str(answer.get("message", "")))
    raise FsError(str(answer.get("code", "RESOURCE_LIMIT")), str(answer.get("message", "")))
