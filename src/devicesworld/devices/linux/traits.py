"""What other layers need to know about the desktop: nouns, the shared local web, surfaces."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from devicesworld.devices.desktop.actions import GUI_ACTION_NAMES
from devicesworld.devices.linux.gui.by_gui import GUI_PROFILE, gui_solution
from devicesworld.devices.traits import KindTraits, KindUse

ACTION_SURFACES = {
    "run_command": "terminal",
    "write_email_draft": "mail",
    "read_document": "office",
    "write_document": "office",
}
"""Actions that use one desktop surface; ``browser_*`` is the browser, anything else the files."""

DOCUMENT_TYPES = (
    "xlsx",
    "docx",
    "pdf",
    "csv",
    "json",
    "md",
    "txt",
    "png",
    "jpg",
    "wav",
    "zip",
    "tar",
    "eml",
    "py",
)
"""File formats counted as surfaces when a step's arguments name a file of that type."""


GUI_POINTER_AND_KEYS = frozenset(GUI_ACTION_NAMES) - {"launch_app", "run_command"}
"""GUI actions that work in whatever app is open: they name no surface of their own."""


def surfaces(use: KindUse) -> set[str]:
    """A desktop surface counts when an action uses it (terminal, browser, office, mail, files, formats).

    On a GUI desktop the surfaces are the apps a task opens (``open_app``, ``launch_app``:
    ``linux:writer``, ``linux:calc``, ...) and the terminal ``run_command`` types into.
    """
    out: set[str] = {f"linux:{args['app']}" for op, args in use.setup if op == "open_app" and "app" in args}
    for action, args in use.steps:
        if action == "launch_app" and "app" in args:
            out.add(f"linux:{args['app']}")
        elif action in GUI_POINTER_AND_KEYS:
            continue
        elif action.startswith("browser_"):
            out.add("linux:browser")
        elif action in ACTION_SURFACES:
            out.add(f"linux:{ACTION_SURFACES[action]}")
        else:
            out.add("linux:files")
        text = " ".join(str(v) for v in args.values())
        out |= {f"linux:{ext}" for ext in DOCUMENT_TYPES if f".{ext}" in text}
    return out


def unavailable(profile: Mapping[str, Any]) -> str | None:
    """Why a GUI desktop cannot start here (the X/AT-SPI stack is missing); an api desktop always can."""
    if profile.get("desktop") not in ("gui", "hybrid"):
        return None
    from devicesworld.devices.desktop.client import missing_stack

    problem = missing_stack()
    return None if problem is None else f"a GUI desktop needs {problem}"


TRAITS = KindTraits(
    services=frozenset({"drive", "linux_sites"}),
    noun="desktop",
    noun_pattern=r"\bdesktop(?:['\u2019]s|s)?\b",
    place="on the desktop",
    shared_checks=frozenset({"form_submitted", "page_visited"}),
    statement_checks=frozenset({"file_contains", "pdf_contains"}),
    surfaces=surfaces,
    screenshots="while_browsing",
    unavailable=unavailable,
    gui_profile=GUI_PROFILE,
    gui_solution=gui_solution,
)
