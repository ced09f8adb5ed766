"""Typed replies of the in-sandbox controller (pydantic, validated as they cross the pipe).

The controller is plain Python on Debian's interpreter and writes JSON; everything it
sends back is parsed into these models on the host, so a malformed reply is a clear
:class:`~.client.DesktopError`, never a ``KeyError`` deep in a device.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Ready(_Reply):
    """The desktop is up: display name, screen size and how long each part took (s)."""

    display: str
    width: int
    height: int
    seconds: dict[str, float] = Field(default_factory=dict)
    fence: int | None = Field(
        None, description="Landlock ABI of the desktop's filesystem fence, if it has one."
    )


class Window(_Reply):
    """A top-level window managed by the window manager (``_NET_CLIENT_LIST``)."""

    id: int
    title: str
    app: str = Field(description="WM_CLASS class, e.g. 'Mousepad', 'libreoffice-writer'.")
    instance: str = ""
    pid: int | None = None
    box: tuple[int, int, int, int] = Field(description="x, y, width, height on the screen.")
    mapped: bool = True
    focused: bool = False
    owner_pid: int | None = Field(None, description="The creating client's pid as the X server knows it.")
    launched: bool = Field(
        True, description="Owned by an app the device launched (checks count only these windows)."
    )


class Windows(_Reply):
    windows: list[Window]


class Node(_Reply):
    """One accessible element (AT-SPI), in depth-first order of the walk."""

    role: str
    name: str = ""
    states: list[str] = Field(default_factory=list)
    box: tuple[int, int, int, int] | None = None
    depth: int = 0
    app: str = ""
    window: str = Field("", description="Name of the top-level window the element is in.")
    text: str | None = None
    text_len: int | None = Field(None, description="The text's full length when the walk shipped less.")
    value: float | None = None
    launched: bool = Field(True, description="Its app is one the device launched (checks read only these).")


class Tree(_Reply):
    nodes: list[Node]
    incomplete: str | None = Field(
        None, description="Why the walk stopped early (time budget, node cap), or None when complete."
    )


class Screenshot(_Reply):
    png: str = Field(description="base64 of the PNG bytes")
    width: int
    height: int
    grab_s: float = Field(0.0, description="Reading the screen from the X server.")
    encode_s: float = Field(0.0, description="PNG and base64 encoding in the controller.")


class Launched(_Reply):
    pid: int
    window: Window | None = None
    exited: int | None = None


class RunResult(_Reply):
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool = False
    cut_bytes: int = Field(0, description="Output bytes left out between the kept head and tail.")
    jail: dict[str, object] | None = Field(
        None, description="How the command was jailed (user namespace, Landlock ABI)."
    )


class Idle(_Reply):
    idle: bool
    seconds: float
    changes: int | None = Field(None, description="Redraws seen while settling (event-driven settle only).")
    marks: list[tuple[float, str]] = Field(
        default_factory=list,
        description="The first moments (s after the start) the settle saw a redraw (d) or a busy app (c).",
    )
    quiet_s: float | None = Field(None, description="The quiet time the settle used (the focused app's).")
    pinged: bool | None = Field(
        None, description="The focused window answered the settle's ping (None: it takes no pings)."
    )


class ShellProgram(BaseModel):
    """One of the desktop's own programs (a panel, the desktop icons) and its extra environment."""

    argv: list[str]
    env: dict[str, str] = Field(default_factory=dict)
    in_server_namespaces: bool = Field(
        default=False,
        description="Start it in the display server's namespaces, as `launch` starts apps (a Wine "
        "shell: the apps it opens must be readable by the server). Linux panels stay outside: "
        "started inside, the panel's session services broke the mail client's drafts.",
    )


class ShellStarted(_Reply):
    pids: list[int]
    mapped: bool = Field(description="Every program mapped a window before the timeout.")
    idle: bool = Field(description="The screen was still afterwards (the first screenshot shows them drawn).")
    exited: list[int] = Field(
        default_factory=list, description="Programs that exited (a missing display, a crash)."
    )
    stopped: int = Field(
        0, description="Services started on their behalf that were stopped (see start_shell)."
    )
