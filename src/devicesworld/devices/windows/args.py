"""Argument models of the Windows kind's profile, setup ops, getters and checks.

Paths are Windows paths (``C:\\Users\\user\\Desktop\\notes.txt``, ``N:\\report.rtf``),
validated when the task is loaded, so a path Windows would refuse is a clear error
before any device starts.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from devicesworld.devices.base import Args
from devicesworld.devices.windows.paths import PathError, parse_path

APPS = ("notepad", "wordpad", "explorer", "cmd")


def _valid_path(raw: str) -> str:
    try:
        return str(parse_path(raw))
    except PathError as exc:
        raise ValueError(str(exc)) from None


WinPathStr = Annotated[str, Field(min_length=3, max_length=260), AfterValidator(_valid_path)]
"""A Windows path, normalised (``c:/users/user/desktop/a.txt`` -> ``C:\\users\\user\\desktop\\a.txt``)."""


class WindowsProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    width: int = Field(1280, ge=640, le=2560, description="Screen width in pixels.")
    height: int = Field(800, ge=480, le=1600, description="Screen height in pixels.")
    tree: bool = Field(True, description="Include the element list in observations.")
    desktop: Literal["gui", "hybrid"] = Field(
        "gui",
        description="gui: the GUI action space only (cmd is an app whose window is typed into); "
        "hybrid: plus run_command (a cmd.exe command line). A schema_version 1 task reads as hybrid.",
    )


class PathArgs(Args):
    path: WinPathStr


class WriteTextOp(Args):
    path: WinPathStr
    content: str = Field(max_length=1_000_000)
    encoding: Literal["ansi", "utf-8", "utf-8-bom", "utf-16"] = "ansi"
    crlf: bool = True


class RunSpec(Args):
    text: str = Field(max_length=100_000)
    bold: bool = False
    italic: bool = False
    underline: bool = False


Paragraph = str | list[RunSpec]


class WriteRtfOp(Args):
    path: WinPathStr
    paragraphs: list[Paragraph] = Field(max_length=2000)
    font: str = Field("Arial", max_length=60)
    size_pt: int = Field(12, ge=6, le=72)


class LaunchOp(Args):
    app: Literal["notepad", "wordpad", "explorer", "cmd"]
    path: WinPathStr | None = None


class ListingArgs(Args):
    path: WinPathStr


class ElementTextsArgs(Args):
    role: str | None = Field(None, description="Win32 class, e.g. 'Edit', 'RichEdit20W'.")
    window_title_contains: str | None = None


_DISTRACTORS = (
    "Near-miss values (a twin ahead of the asked one) that must not appear; a file giving one fails."
)


def _near_misses(description: str = _DISTRACTORS) -> Any:
    """A check's ``distractors`` field: the near misses it must not find, none by default."""
    return Field(default_factory=list, description=description)


class FileExistsArgs(Args):
    path: WinPathStr
    present: bool = True
    is_dir: bool | None = None
    distractors: list[WinPathStr] = _near_misses(
        "Near-miss paths (the look-alike file put there instead) that must not exist."
    )


class FileTextArgs(Args):
    path: WinPathStr
    equals: str | None = None
    contains: list[str] = Field(default_factory=list)
    not_contains: list[str] = Field(default_factory=list)
    strip: bool = Field(True, description="Ignore leading/trailing whitespace for equals.")
    encoding: Literal["ansi", "utf-8", "utf-8-bom", "utf-16"] | None = Field(
        None, description="Also require this encoding (by byte-order mark / bytes)."
    )
    distractors: list[str] = _near_misses()


class RtfTextArgs(Args):
    path: WinPathStr
    text: str = Field(min_length=1)
    bold: bool | None = None
    italic: bool | None = None
    underline: bool | None = None
    distractors: list[str] = _near_misses(
        "Near-miss paragraphs (their text) that must not carry the styles asked true here."
    )


class RtfParagraphsArgs(Args):
    path: WinPathStr
    contains: list[str] = Field(default_factory=list)
    not_contains: list[str] = Field(default_factory=list)
    distractors: list[str] = _near_misses()


class WindowTitleArgs(Args):
    contains: str = Field(min_length=1)
    present: bool = True


class ElementTextArgs(Args):
    contains: str = Field(min_length=1)
    role: str | None = None
    window_title_contains: str | None = None
    present: bool = True


class SameFileArgs(Args):
    path: WinPathStr
    like: WinPathStr = Field(description="Another file whose content must be identical.")
