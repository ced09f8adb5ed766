"""A machine-wide cache of derived bytes (rendered worlds, proven files), safe for parallel workers.

Why: building ``full`` proves thousands of tasks in several processes, and many of them
share a persona world whose documents take a second of CPU to render. What depends
only on its inputs and on our code is computed once per machine and read back by every
later process and every rebuild.

Entries live under ``$DEVICESWORLD_CACHE_DIR`` when set, else
``$XDG_CACHE_HOME/devicesworld``, else ``~/.cache/devicesworld`` (the folder the
Windows kind keeps its prefix in), one subfolder per namespace. A key is a content
hash of every input, including :func:`code_digest` of the modules that produce the
bytes, so changed code never reads an old entry. Each entry is written to a temporary
name and renamed into place (a reader sees a whole entry or none) and carries the
SHA-256 of its payload, checked on read: a damaged entry is a miss. Nothing is
pickled. Deleting the folder is always safe (``devicesworld clean --caches``); setting
``DEVICESWORLD_DISK_CACHE=0`` turns the cache off (every read misses, nothing is written).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import struct
import sys
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

CACHE_ENV = "DEVICESWORLD_CACHE_DIR"
SWITCH_ENV = "DEVICESWORLD_DISK_CACHE"
_MAGIC = b"DWC1"
_DIGEST = 32


def cache_root() -> Path:
    """The devicesworld cache folder (not created here)."""
    explicit = os.environ.get(CACHE_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if xdg else Path.home() / ".cache") / "devicesworld"


def enabled() -> bool:
    return os.environ.get(SWITCH_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _path(namespace: str, key: str) -> Path:
    return cache_root() / namespace / key[:2] / key


def key_of(*parts: object) -> str:
    """A cache key: the SHA-256 of the parts' JSON (strings, numbers, lists of them)."""
    return hashlib.sha256(json.dumps(parts, default=str, sort_keys=True).encode()).hexdigest()


@cache
def code_digest(modules: tuple[str, ...], distributions: tuple[str, ...] = ()) -> str:
    """The hash of the named modules' source files and the installed versions of some packages.

    A module that is a package counts with every ``.py`` file under it.
    """
    h = hashlib.sha256()
    for name in modules:
        module = sys.modules.get(name) or __import__(name, fromlist=["_"])
        origin = getattr(module, "__file__", None)
        if origin is None:
            h.update(name.encode())
            continue
        source = Path(origin)
        files = sorted(source.parent.rglob("*.py")) if source.name == "__init__.py" else [source]
        for file in files:
            h.update(str(file.relative_to(source.parent)).encode())
            h.update(file.read_bytes())
    for dist in distributions:
        try:
            version = metadata.version(dist)
        except metadata.PackageNotFoundError:
            version = "absent"
        h.update(f"{dist}=={version}".encode())
    return h.hexdigest()


def read(namespace: str, key: str) -> bytes | None:
    """The payload stored under ``key``, or ``None`` (absent, damaged, unreadable or cache off)."""
    if not enabled():
        return None
    try:
        raw = _path(namespace, key).read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + _DIGEST
    if raw[: len(_MAGIC)] != _MAGIC or len(raw) < head:
        return None
    payload = raw[head:]
    if hashlib.sha256(payload).digest() != raw[len(_MAGIC) : head]:
        return None
    return payload


def write(namespace: str, key: str, payload: bytes) -> bool:
    """Store ``payload`` under ``key`` (write-then-rename); ``False`` when it could not be stored."""
    if not enabled():
        return False
    target = _path(namespace, key)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
        os.replace(tmp, target)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        return False
    return True


def pack(meta: Any, blobs: Sequence[bytes]) -> bytes:
    """JSON metadata and binary blobs as one payload (see :func:`unpack`)."""
    head = json.dumps({"meta": meta, "sizes": [len(b) for b in blobs]}, separators=(",", ":")).encode()
    return struct.pack(">Q", len(head)) + head + b"".join(blobs)


def unpack(payload: bytes) -> tuple[Any, list[bytes]]:
    """The metadata and blobs :func:`pack` stored; ``ValueError`` when the payload is not one."""
    try:
        (size,) = struct.unpack(">Q", payload[:8])
        head = json.loads(payload[8 : 8 + size])
        sizes: Iterable[int] = head["sizes"]
        meta = head["meta"]
    except (struct.error, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"not a packed cache entry: {exc}") from None
    blobs: list[bytes] = []
    at = 8 + size
    for n in sizes:
        blobs.append(payload[at : at + n])
        at += n
    if at != len(payload):
        raise ValueError("packed cache entry has the wrong length")
    return meta, blobs


def folders() -> list[Path]:
    """The namespace folders present (what :func:`clear` removes)."""
    root = cache_root()
    return [root / n for n in NAMESPACES if (root / n).is_dir()]


def clear() -> list[Path]:
    """Remove every namespace this module wrote (the Windows kind's folders are left); what went."""
    import shutil

    gone = folders()
    for folder in gone:
        shutil.rmtree(folder, ignore_errors=True)
    return gone


NAMESPACES = ("worlds", "desktop-templates", "proven-files", "phone-databases")
"""Every namespace in use (``clear`` removes these)."""
