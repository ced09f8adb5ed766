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

from pydantic import ValidationError

from devicesworld.devices.base import OpSpec, format_validation_error, get_kind
from devicesworld.numbers import number_errors
from devicesworld.tasks.handwritten.yamlfile import plain
from devicesworld.tasks.scenarios import located
from devicesworld.tasks.scenarios.compile import FamilyError, check_family
from devicesworld.tasks.scenarios.model import Family, Macro, SetupOp
from devicesworld.tasks.scenarios.templates import walk_refs


def scenarios_dir() -> Path:
    return Path(str(resources.files("devicesworld.tasks") / "data" / "scenarios"))


def _read_yaml(path: Path) -> Any:
    return plain(located.read(path))


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
                raise located.validation_errors(path, located.read(path), exc, (str(name),)) from None
    return out


def load_family_file(
    path: Path, macros: dict[str, Macro] | None = None, *, check_name: bool = True
) -> Family:
    """One family file, validated and statically checked; every mistake ``FILE:LINE:COL: field: message``."""
    doc = located.read(path)
    if not isinstance(doc, dict):
        raise located.FamilyFileError(
            [located.error_at(path, doc, (), "a family file holds one mapping (family, pattern, roles, ...)")]
        )
    try:
        family = Family.model_validate(plain(doc))
    except ValidationError as exc:
        raise located.validation_errors(path, doc, exc) from None
    if check_name and path.stem != family.family:
        raise located.FamilyFileError(
            [
                located.error_at(
                    path,
                    doc,
                    ("family",),
                    f"the file of family {family.family!r} must be named {family.family}.yaml",
                )
            ]
        )
    try:
        check_family(family, shipped_macros() if macros is None else macros)
        _check_declared(family, doc, path)
    except FamilyError as exc:
        raise located.family_problem(path, doc, family.family, exc) from None
    return family


def _check_declared(family: Family, doc: Any, path: Path) -> None:
    """Setup ops and device checks must be ones the role's kind declares (found before any draw)."""
    problems: list[tuple[located.FieldPath, str]] = []
    ops: list[tuple[located.FieldPath, SetupOp]] = [(("setup", i), op) for i, op in enumerate(family.setup)]
    for vi, variant in enumerate(family.infeasible):
        ops += [(("infeasible", vi, "add_setup", j), op) for j, op in enumerate(variant.add_setup)]
    for at, op in ops:
        kind = get_kind(family.roles[op.role])
        if kind is not None and op.op not in kind.setup_ops:
            known = ", ".join(kind.setup_ops)
            problems.append(((*at, "op"), f"{kind.name} has no setup op {op.op!r} (known: {known})"))
        elif kind is not None:
            problems += [
                ((*at, "args", *loc), message)
                for loc, message in _literal_arg_errors(kind.setup_ops[op.op], op.args)
            ]
    for i, c in enumerate(family.evaluation.conditions):
        kind = get_kind(family.roles[c.role]) if c.role is not None else None
        if kind is not None and c.check not in kind.checks:
            known = ", ".join(kind.checks)
            problems.append(
                (
                    ("evaluation", "conditions", i, "check"),
                    f"{kind.name} has no check {c.check!r} (known: {known})",
                )
            )
    if problems:
        raise located.FamilyFileError([located.error_at(path, doc, at, message) for at, message in problems])


def _literal_arg_errors(spec: OpSpec, args: dict[str, Any]) -> list[tuple[located.FieldPath, str]]:
    """What is wrong with an op's arguments already, before any draw fills their ``{templates}``.

    An unknown or missing field is wrong whatever is drawn; a bad value counts only where
    the argument holds no template (``hour: "{wake.hour}"`` is a number once rendered).
    """
    raw = dict(args)
    found: list[ValidationError] = [e for e in (number_errors(spec.args_model, raw),) if e is not None]
    try:
        spec.args_model.model_validate(raw)
    except ValidationError as model_error:
        found.append(model_error)
    out: list[tuple[located.FieldPath, str]] = []
    seen: set[located.FieldPath] = set()
    for error in found:
        for err, (_, message) in zip(error.errors(), format_validation_error(error), strict=True):
            loc = tuple(k for k in err["loc"] if isinstance(k, str | int))
            top = loc[0] if loc else None
            templated = top in raw and next(iter(walk_refs(raw[top])), None) is not None
            if not templated and loc not in seen:
                seen.add(loc)
                out.append((loc, message))
    return out


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
