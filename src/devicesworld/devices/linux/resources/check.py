"""Resource quality control: open every document in a folder tree with its format's reader.

Why: a task whose setup writes a workbook the agent cannot open is unsolvable for a
reason that has nothing to do with the agent (paper §3.3, "resource files open with
their readers"). ``tasks validate`` calls :meth:`LinuxDevice.check_resources` after
setup; this module does the work, one reader per extension, stricter than the
getters where a header alone could pass (images are decoded, archives are read
member by member, WAV frames are read).
"""

from __future__ import annotations

import tarfile
import wave
import zipfile
from collections.abc import Callable
from pathlib import Path

from devicesworld.devices.linux.resources import readers
from devicesworld.devices.linux.resources.readers import FormatError

_IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".bmp")
_TEXT = (".txt", ".md", ".py", ".toml", ".cfg", ".ini", ".yaml", ".yml", ".html", ".log", ".sh")


def _image(path: Path) -> None:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as img:
            img.load()
    except (UnidentifiedImageError, OSError, SyntaxError) as exc:
        raise FormatError(f"{path.name} is not a readable image: {exc}") from exc


def _wav(path: Path) -> None:
    readers.wav_info(path)
    try:
        with wave.open(str(path), "rb") as w:
            want = w.getnframes() * w.getnchannels() * w.getsampwidth()
            got = len(w.readframes(w.getnframes()))
    except (wave.Error, EOFError, OSError) as exc:
        raise FormatError(f"{path.name} is not a valid WAV file: {exc}") from exc
    if got < want:
        raise FormatError(f"{path.name} is a truncated WAV file ({got} of {want} bytes of audio)")


def _zip(path: Path) -> None:
    try:
        with zipfile.ZipFile(path) as zf:
            bad = zf.testzip()
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise FormatError(f"{path.name} is not a valid zip archive: {exc}") from exc
    if bad is not None:
        raise FormatError(f"{path.name}: member {bad} is corrupt")


def _tar(path: Path) -> None:
    try:
        with tarfile.open(path) as tf:
            for member in tf.getmembers():
                if member.isfile():
                    fh = tf.extractfile(member)
                    if fh is not None:
                        fh.read()
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise FormatError(f"{path.name} is not a valid tar archive: {exc}") from exc


def _xlsx(path: Path) -> None:
    for sheet in readers.xlsx_sheets(path):
        readers.read_xlsx(path, sheet)


def reader_for(path: Path) -> Callable[[Path], object] | None:
    """The strict reader of a file's format, or ``None`` for formats nothing reads."""
    name = path.name.lower()
    if name.endswith((".tar.gz", ".tgz", ".tar")):
        return _tar
    suffix = path.suffix.lower()
    table: dict[str, Callable[[Path], object]] = {
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


def check_tree(root: Path, shown: Callable[[Path], str], skip: tuple[Path, ...] = ()) -> list[str]:
    """One problem per file under ``root`` that its reader cannot open (sorted by path)."""
    problems: list[str] = []
    for path in sorted(root.rglob("*")):
        if any(path == s or s in path.parents for s in skip) or path.is_symlink() or not path.is_file():
            continue
        reader = reader_for(path)
        if reader is None:
            continue
        try:
            reader(path)
        except FormatError as exc:
            problems.append(f"{shown(path)}: {exc}")
        except Exception as exc:  # a reader library's own error: still a file that does not open
            problems.append(f"{shown(path)}: cannot be opened ({type(exc).__name__}: {exc})")
    return problems
