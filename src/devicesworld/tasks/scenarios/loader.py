"""Finding and reading scenario family files; every mistake is one message naming the file.

Families ship as package data, one YAML document per file under
``tasks/data/scenarios/`` (``<family>.yaml``); macros — named, parameterised step
lists a family's solution may use — in files whose name starts with ``_macros``.
A family's file name must be its ``family`` id, so a build names its tasks after
files people can find.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from devicesworld.tasks.scenarios.compile import FamilyError, check_family
from devicesworld.tasks.scenarios.model import Family, Macro


def scenarios_dir() -> Path:
    return Path(str(resources.files("devicesworld.tasks") / "data" / "scenarios"))


def _read_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise FamilyError(f"{path}: cannot read: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise FamilyError(f"{path}: not valid YAML: {exc}") from None


def _explain(path: Path, exc: ValidationError, what: str = "scenario family") -> FamilyError:
    lines = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err["loc"]) or "(top)"
        lines.append(f"  {where}: {err['msg']}")
    return FamilyError(f"{path.name}: not a valid {what}:\n" + "\n".join(lines))


def load_macros(paths: Iterable[Path] | None = None) -> dict[str, Macro]:
    """Every macro of the ``_macros*.yaml`` files (the shipped ones by default)."""
    if paths is None:
        paths = sorted(scenarios_dir().glob("_macros*.yaml"))
    out: dict[str, Macro] = {}
    for path in paths:
        doc = _read_yaml(path) or {}
        if not isinstance(doc, dict):
            raise FamilyError(f"{path.name}: a macros file maps macro names to macros")
        for name, body in doc.items():
            if name in out:
                raise FamilyError(f"{path.name}: macro {name!r} is defined twice")
            try:
                out[str(name)] = Macro.model_validate(body)
            except ValidationError as exc:
                raise _explain(path, exc, f"macro {name!r}") from None
    return out


def load_family_file(
    path: Path, macros: dict[str, Macro] | None = None, *, check_name: bool = True
) -> Family:
    """One family file, validated and statically checked."""
    doc = _read_yaml(path)
    if not isinstance(doc, dict):
        raise FamilyError(f"{path.name}: a family file holds one mapping (family, pattern, roles, ...)")
    try:
        family = Family.model_validate(doc)
    except ValidationError as exc:
        raise _explain(path, exc) from None
    if check_name and path.stem != family.family:
        raise FamilyError(
            f"{path.name}: the file of family {family.family!r} must be named {family.family}.yaml"
        )
    check_family(family, shipped_macros() if macros is None else macros)
    return family


@cache
def shipped_macros() -> dict[str, Macro]:
    return load_macros()


@cache
def shipped_families() -> tuple[Family, ...]:
    """Every shipped family, in file-name order."""
    paths = sorted(p for p in scenarios_dir().glob("*.yaml") if not p.name.startswith("_"))
    return tuple(load_family_file(p) for p in paths)


def family_by_name(name: str) -> Family:
    for f in shipped_families():
        if f.family == name:
            return f
    raise FamilyError(
        f"no scenario family {name!r}; shipped: {', '.join(f.family for f in shipped_families())}"
    )
