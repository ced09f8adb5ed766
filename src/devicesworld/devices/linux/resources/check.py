"""Resource quality control: open every document in a folder tree with its format's reader.

Why: a task whose setup writes a workbook the agent cannot open is unsolvable for a
reason that has nothing to do with the agent (paper §3.3, "resource files open with
their readers"). ``tasks validate`` calls :meth:`LinuxDevice.check_resources` after
setup; this module does the work, one reader per extension, stricter than the
getters where a header alone could pass (images are decoded, archives are read
member by member, WAV frames are read). Files are read through the device's
:class:`~devicesworld.devices.safefs.SafeRoot` (links skipped, never followed) and
handed to the readers as bytes.

A file's verdict depends only on its name and bytes, so it is kept per content hash,
in the process and on disk (:mod:`devicesworld.diskcache`, namespace
``proven-files``, keyed with the readers' source and the libraries' versions): a
persona world's seventy documents are opened once per machine, not once per task.
"""

from __future__ import annotations

import hashlib
import io
import tarfile
import wave
import zipfile
from collections.abc import Callable
from pathlib import PurePosixPath

from devicesworld import diskcache
from devicesworld.devices.linux.resources import readers
from devicesworld.devices.linux.resources.readers import Blob, FormatError, Source, blob
from devicesworld.devices.safefs import FsError, SafeRoot

MAX_CHECK_BYTES = 256 * 1024 * 1024

_IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".bmp")
_TEXT = (".txt", ".md", ".py", ".toml", ".cfg", ".ini", ".yaml", ".yml", ".html", ".log", ".sh")


def _image(path: Source) -> None:
    from PIL import Image, UnidentifiedImageError

    b = blob(path)
    try:
        with Image.open(io.BytesIO(b.data)) as img:
            img.load()
    except (UnidentifiedImageError, OSError, SyntaxError) as exc:
        raise FormatError(f"{b.name} is not a readable image: {exc}") from exc


def _wav(path: Source) -> None:
    b = blob(path)
    readers.wav_info(b)
    try:
        with wave.open(io.BytesIO(b.data), "rb") as w:
            want = w.getnframes() * w.getnchannels() * w.getsampwidth()
            got = len(w.readframes(w.getnframes()))
    except (wave.Error, EOFError, OSError) as exc:
        raise FormatError(f"{b.name} is not a valid WAV file: {exc}") from exc
    if got < want:
        raise FormatError(f"{b.name} is a truncated WAV file ({got} of {want} bytes of audio)")


def _zip(path: Source) -> None:
    b = blob(path)
    try:
        with zipfile.ZipFile(io.BytesIO(b.data)) as zf:
            bad = zf.testzip()
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise FormatError(f"{b.name} is not a valid zip archive: {exc}") from exc
    if bad is not None:
        raise FormatError(f"{b.name}: member {bad} is corrupt")


def _tar(path: Source) -> None:
    b = blob(path)
    try:
        with tarfile.open(fileobj=io.BytesIO(b.data)) as tf:
            for member in tf.getmembers():
                if member.isfile():
                    fh = tf.extractfile(member)
                    if fh is not None:
                        fh.read()
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise FormatError(f"{b.name} is not a valid tar archive: {exc}") from exc


def _xlsx(path: Source) -> None:
    readers.read_workbook(blob(path))


def reader_for(path: PurePosixPath | Source) -> Callable[[Source], object] | None:
    """The strict reader of a file's format, or ``None`` for formats nothing reads."""
    name = path.name.lower()
    if name.endswith((".tar.gz", ".tgz", ".tar")):
        return _tar
    suffix = PurePosixPath(name).suffix
    table: dict[str, Callable[[Source], object]] = {
        ".xlsx": _xlsx,
        ".xlsm": _xlsx,
        ".docx": readers.read_docx,
        ".pdf": readers.read_pdf,
        ".wav": _wav,
        ".zip": _zip,
        ".json": readers.read_json,
        ".csv": readers.read_csv,
        ".eml": readers.read_eml,
        **dict.fromkeys(_IMAGES, _image),
        **dict.fromkeys(_TEXT, readers.read_text),
    }
    return table.get(suffix)


def check_tree(root: SafeRoot, skip: tuple[str, ...] = ()) -> list[str]:
    """One problem per regular file under ``root`` that its reader cannot open (sorted by path).

    ``skip`` holds top-level names left out (the ``Drive`` mount point); problems name
    files the way the device shows them (``root.show``).
    """
    problems: list[str] = []
    for rel in root.walk_files():
        if rel.split("/", 1)[0] in skip:
            continue
        reader = reader_for(PurePosixPath(rel))
        if reader is None:
            continue
        shown = root.show(rel)
        try:
            data = root.read_bytes(rel, MAX_CHECK_BYTES)
        except FsError as exc:
            problems.append(f"{shown}: {exc}")
            continue
        problem = verdict(reader, rel.rsplit("/", 1)[-1], data)
        if problem is not None:
            problems.append(f"{shown}: {problem}")
    return problems


_VERDICTS: dict[str, str] = {}
_NAMESPACE = "proven-files"
_CODE = (__name__, "devicesworld.devices.linux.resources.readers")
_LIBRARIES = ("python-docx", "openpyxl", "pypdf", "pillow", "lxml")
"""The readers' libraries: a new version may read a file differently."""


def verdict(reader: Callable[[Source], object], name: str, data: bytes) -> str | None:
    """Why the file ``name`` holding ``data`` does not open (``None`` when it does); cached by content.

    Stored as ``""`` for a file that opens, else ``"!"`` and the reason.
    """
    code = diskcache.code_digest(_CODE, _LIBRARIES)
    key = diskcache.key_of(reader.__name__, name, hashlib.sha256(data).hexdigest(), code)
    found = _VERDICTS.get(key)
    if found is None:
        stored = diskcache.read(_NAMESPACE, key)
        if stored is not None:
            found = stored.decode("utf-8", "replace")
        else:
            found = _open(reader, name, data)
            diskcache.write(_NAMESPACE, key, found.encode())
        if len(_VERDICTS) >= 4096:
            _VERDICTS.clear()
        _VERDICTS[key] = found
    return found[1:] if found else None


def _open(reader: Callable[[Source], object], name: str, data: bytes) -> str:
    try:
        reader(Blob(name, data))
    except FormatError as exc:
        return f"!{exc}"
    except Exception as exc:  # a reader library's own error: still a file that does not open
        return f"!cannot be opened ({type(exc).__name__}: {exc})"
    return ""
