"""What other layers need to know about a Windows desktop: how instructions name it, its apps.

Surfaces are the Wine apps a task opens (``launch_app``, the ``launch`` setup op) and cmd
for ``run_command``; every other GUI action works in whatever is open, so it names none.
Screenshots come with every observation, as on the GUI Linux desktop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from devicesworld.devices.traits import KindTraits, KindUse
from devicesworld.devices.windows.args import APPS


def _app(op: str, args: Mapping[str, Any]) -> str | None:
    if op in ("launch_app", "launch") and args.get("app") in APPS:
        return str(args["app"])
    if op == "run_command":
        return "cmd"
    return None


def surfaces(use: KindUse) -> set[str]:
    """``windows:<app>`` for each Wine app the task's setup or steps open."""
    return {f"windows:{app}" for op, args in (*use.setup, *use.steps) if (app := _app(op, args))}


def unavailable(profile: Mapping[str, Any]) -> str | None:
    """Why a Windows device cannot start here: no Wine, no GUI desktop stack, or no way to build
    the element-tree helper (mingw) when it is not built yet."""
    import shutil

    from devicesworld.devices.desktop.client import missing_stack
    from devicesworld.devices.windows.helper.build import COMPILER, INSTALL_HINT, source_hash
    from devicesworld.devices.windows.prefix import wine_missing
    from devicesworld.diskcache import cache_root

    problem = wine_missing() or missing_stack()
    built = (cache_root() / "wintree" / source_hash() / "wintree.exe").is_file()
    if problem is None and not built and shutil.which(COMPILER) is None:
        problem = f"{COMPILER} to build its element-tree helper ({INSTALL_HINT})"
    return None if problem is None else f"a Windows device needs {problem}"


TRAITS = KindTraits(
    services=frozenset({"drive"}),
    statement_checks=frozenset({"file_text"}),
    noun="Windows PC",
    noun_pattern=r"\bWindows (?:PC|computer|desktop)s?\b",
    place="on the Windows PC",
    surfaces=surfaces,
    screenshots="every_step",
    unavailable=unavailable,
)
