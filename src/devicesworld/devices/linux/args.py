"""Argument models of the ``linux`` kind's actions, setup ops, getters and checks."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from devicesworld.devices.base import Args
from devicesworld.devices.linux.sites.model import Site

Path_ = Field(
    description="A path: `~/notes.txt`, `/home/user/x`, `/tmp/x`, relative to the cwd, or `~/Drive/...`."
)


class ScreenSize(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    width: int = Field(1280, ge=640, le=3840)
    height: int = Field(800, ge=480, le=2160)


class LinuxProfile(BaseModel):
    """Per-device configuration in the task's ``devices[].profile``."""

    model_config = ConfigDict(extra="forbid")
    browser: Literal["auto", "chromium", "builtin"] = Field(
        default="auto",
        description="auto: Chromium when Playwright and /usr/bin/chromium exist, else the built-in engine. "
        "The DEVICESWORLD_BROWSER environment variable overrides auto.",
    )
    desktop: Literal["api", "gui", "hybrid"] = Field(
        default="api",
        description="api: tool-style actions (read_document, write_file, ...); gui: a real X desktop with "
        "screenshots, an element list and mouse/keyboard actions only, the terminal being an app (docs/gui.md); "
        "hybrid: gui plus run_command (the paper's Linux setting). A schema_version 1 task's gui reads as hybrid.",
    )
    screen: ScreenSize = Field(default_factory=ScreenSize, description="The GUI desktop's screen size.")


class OpenAppOp(Args):
    """GUI desktops only: the task starts with this app open (and idle) on a file or folder."""

    app: str
    path: str | None = None


# --- actions ---------------------------------------------------------------------------


class RunCommandArgs(Args):
    command: str = Field(min_length=1, description="A bash command line, run in the current directory.")
    timeout_s: float = Field(default=30.0, gt=0, le=300)


class PathArgs(Args):
    path: str = Path_


class ReadFileArgs(Args):
    path: str = Path_
    max_chars: int = Field(default=8000, ge=1, le=100_000)


class WriteFileArgs(Args):
    path: str = Path_
    content: str
    append: bool = False


class ListDirArgs(Args):
    path: str = Field(default="~", description="Folder to list.")


class DeleteArgs(Args):
    path: str = Path_
    recursive: bool = Field(default=False, description="Needed to delete a non-empty folder.")


class WriteDocumentArgs(Args):
    """Office-style saving: the format follows the file extension."""

    path: str = Field(description="Ends in .xlsx, .docx, .pdf, .csv or .json.")
    rows: list[list[Any]] | None = Field(default=None, description="Table rows (xlsx, csv; a docx table).")
    paragraphs: list[str] | None = Field(default=None, description="Text paragraphs (docx, pdf).")
    title: str | None = None
    sheet: str = "Sheet1"
    data: Any = Field(default=None, description="JSON value (json).")


MAX_MAIL_AGE_MINUTES = 5 * 366 * 24 * 60
"""The oldest a seeded mail may be (five years): older is a typo, not a story."""


class MailArgs(Args):
    """What a mail says: shared by the draft action and the op that seeds a mail."""

    to: list[str] = Field(min_length=1)
    subject: str
    body: str
    cc: list[str] = Field(default_factory=list)


class WriteEmailArgs(MailArgs):
    filename: str | None = Field(default=None, description="Defaults to a name made from the subject.")


class OpenUrlArgs(Args):
    url: str = Field(min_length=1, description="e.g. `http://clinic.test/booking`.")


class ElementArgs(Args):
    index: int = Field(ge=1, description="Element number shown as [n] by browser_read.")


class TypeArgs(Args):
    index: int = Field(ge=1)
    text: str
    clear: bool = True


class SelectArgs(Args):
    index: int = Field(ge=1)
    option: str = Field(description="The visible text (or value) of the option.")


class SubmitArgs(Args):
    index: int | None = Field(
        default=None, description="A field or button of the form; defaults to the page's only form."
    )


# --- setup ops -------------------------------------------------------------------------


class FileOp(Args):
    """A setup op that writes one file (or folder) at ``path``."""

    path: str


class WriteTextOp(FileOp):
    content: str


class WriteCsvOp(FileOp):
    rows: list[list[Any]]


class WriteJsonOp(FileOp):
    data: Any


class WriteXlsxOp(FileOp):
    sheets: dict[str, list[list[Any]]] = Field(min_length=1)


class WriteDocxOp(FileOp):
    paragraphs: list[str]
    title: str | None = None
    table: list[list[str]] = Field(default_factory=list)


class WritePdfOp(FileOp):
    paragraphs: list[str]
    title: str | None = None


class WriteImageOp(FileOp):
    width: int = Field(ge=1, le=8000)
    height: int = Field(ge=1, le=8000)
    color: str = "#4a90d9"
    text: str | None = Field(default=None, description="Drawn into the pixels (not readable without OCR).")
    description: str | None = Field(
        default=None,
        description="Stored in the metadata (PNG text chunk / JPEG EXIF); read_document shows it.",
    )


class WriteWavOp(FileOp):
    seconds: float = Field(gt=0, le=600)
    frequency: float = Field(default=440.0, gt=0, le=20000)
    sample_rate: int = Field(default=16000, ge=1000, le=96000)
    channels: int = Field(default=1, ge=1, le=2)


class WriteTreeOp(FileOp):
    path: str = Field(description="Folder of the archive members or the project.")
    files: dict[str, str] = Field(min_length=1, description="Relative path -> text content.")


class WriteEmlOp(MailArgs):
    sender: str | None = Field(default=None, description="Defaults to the user's own address.")
    path: str | None = Field(default=None, description="Defaults to ~/Mail/Drafts/<subject>.eml.")
    minutes_ago: float = Field(
        default=60.0,
        ge=0,
        le=MAX_MAIL_AGE_MINUTES,
        description="How long before the task's clock the mail is dated (its Date header, which the mail "
        "client lists and sorts by), as a phone's texts are: 60 (an hour ago) unless the story says older, "
        "e.g. 44640 for last month's booking, 525600 for last year's quote.",
    )


class RunOp(Args):
    command: str
    timeout_s: float = Field(default=60.0, gt=0, le=600)


class AddSiteOp(Args):
    site: Site


# --- getters ---------------------------------------------------------------------------


class SheetArgs(Args):
    path: str
    sheet: str | None = None


class CommandGetterArgs(Args):
    command: str
    cwd: str = "~"
    timeout_s: float = Field(default=120.0, gt=0, le=600)


class SiteFilterArgs(Args):
    host: str | None = None
    form: str | None = None
    path: str | None = None


class DraftsArgs(Args):
    folder: str = "~/Mail/Drafts"
