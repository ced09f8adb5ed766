"""Optional packages and the ``pip install 'devicesworld[EXTRA]'`` line that brings each.

A missing optional package must say how to get it — ``No module named 'openai'`` does
not — so the modules that need one import it through :func:`require`, and the CLI
turns any :class:`ImportError` for these packages into the same advice.
"""

from __future__ import annotations

import importlib
from types import ModuleType

EXTRAS = {
    "openai": "llm",
    "gymnasium": "rl",
    "ray": "ray",
    "playwright": "browser",
    "stable_baselines3": "sb3",
}
"""Top-level module name -> the extra that installs it."""


class MissingExtra(ModuleNotFoundError):
    """An optional package is not installed; the message names the extra that installs it."""


def advice(module: str, what: str = "this") -> str:
    top = module.split(".")[0]
    extra = EXTRAS.get(top)
    install = f"pip install 'devicesworld[{extra}]'" if extra else f"pip install {top}"
    return f"{what} needs the optional package {top!r}, which is not installed: {install}"


def require(module: str, what: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtra` saying which extra to install."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] != module.split(".")[0]:
            raise  # something else is missing inside the package: not ours to explain
        raise MissingExtra(advice(module, what), name=module) from None
