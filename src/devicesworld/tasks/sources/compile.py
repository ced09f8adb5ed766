"""Source family files (``tasks/data/sources/*.yaml``) compiled into task sources: one compiler, no kind named.

A source family is a task family whose values are drawn in order from one seeded
generator (``draw.rng``) or read from a table of rows (``draw.rows``); ``let`` names the
draws and derived values in order, ``task`` is the task document as a template (``${expr}``
inserts a value, ``${*expr}`` splices a list into a list, ``$merge`` merges a mapping into a
mapping). A file whose name starts with ``_`` is a *part*: its ``consts``, ``defs``,
``defaults``, ``draw`` and ``task`` are included by the families that name it
(``include:``), the family's own keys winning. The language of the expressions is
:mod:`devicesworld.tasks.sources.expr`; docs/scenarios.md "Source families" describes the
format. A kind's own step vocabulary (how its save dialog is driven, how its console runs a
command) is reached through its task-file macros (``macro(kind, name, device, **args)``,
:mod:`devicesworld.macros`), so this compiler names no kind and a kind's package holds no task.
"""

from __future__ import annotations

import ast
import functools
import inspect
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import yaml

from devicesworld import macros
from devicesworld.tasks.sources.expr import ExprError, Scope, bind_names, evaluate, parse
from devicesworld.worlds.drawn import TASK_PERSONAS, drawn_world

__all__ = ["SourceFamily", "TaskDraw", "TaskSource", "load_sources", "source_family"]

SECTIONS = ("consts", "defs", "defaults", "draw", "task")
KEYS = {"source", "family", "include", "full", "smoke", "let", *SECTIONS}


@dataclass(frozen=True)
class TaskDraw:
    """Which task a :class:`TaskSource` is asked for: a draw seed, its index, its id, and whether for smoke."""

    seed: int
    index: int
    task_id: str
    smoke: bool = False
    fresh: bool = False
    """A private draw (``tasks draw``): a source whose shipped rows are fixed may draw a new
    instance from ``seed`` (see :attr:`TaskSource.fresh_draws`); the shipped suites never ask."""


@dataclass(frozen=True)
class TaskSource:
    """A family of tasks the ``full`` and ``smoke`` suites draw from: ``build(draw)`` gives a task document.

    A solution item may be a macro of another device's kind, ``{"device": ID, "macro": NAME,
    "args": ...}`` (``devicesworld/macros.py``), which the suite builder expands and records
    (:mod:`devicesworld.tasks.kind_sources`). ``full`` is how many tasks ``full`` takes (task
    ``i`` is ``build(TaskDraw(seed_i, i, id))``), ``smoke`` how many ``smoke`` takes."""

    name: str
    build: Callable[[TaskDraw], dict[str, Any]]
    full: int
    smoke: int = 0
    redraw: bool = True
    """Whether another seed gives another task (False: the task is a fixed row of a table)."""
    fresh_draws: bool = False
    """For a source of fixed rows: whether a :attr:`TaskDraw.fresh` draw gives a new, unseen
    instance from its seed (a private split's), the shipped rows staying as they are."""


class SourceFileError(ValueError):
    """A source family file that cannot be compiled (the message names the file and what is wrong)."""


# ----------------------------------------------------------------------------- templates
def _closing(text: str, start: int) -> int:
    """Index of the ``}`` closing the ``${`` whose expression starts at ``start`` (quotes and nesting skipped)."""
    depth, quote, i = 0, "", start
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "{[(":
            depth += 1
        elif c in "}])":
            if depth == 0 and c == "}":
                return i
            depth -= 1
        i += 1
    raise ExprError(f"unclosed ${{ in {text!r}")


def render(template: Any, scope: Scope) -> Any:
    """``template`` with its ``${...}`` filled from ``scope`` (see the module docstring)."""
    if isinstance(template, str):
        return _render_text(template, scope)
    if isinstance(template, list):
        out: list[Any] = []
        for item in template:
            if isinstance(item, str) and item.startswith("${*") and _closing(item, 2) == len(item) - 1:
                out += list(evaluate(item[3:-1], scope))
            else:
                out.append(render(item, scope))
        return out
    if isinstance(template, dict):
        done: dict[Any, Any] = {}
        for key, value in template.items():
            if key == "$merge":
                done.update(evaluate(value, scope))
            else:
                done[key] = render(value, scope)
        return done
    return template


def _render_text(text: str, scope: Scope) -> Any:
    if "$" not in text:
        return text
    if text.startswith("${") and _closing(text, 2) == len(text) - 1:
        return evaluate(text[2:-1], scope)
    parts: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith("$${", i):
            parts.append("${")
            i += 3
        elif text.startswith("${", i):
            end = _closing(text, i + 2)
            parts.append(str(evaluate(text[i + 2 : end], scope)))
            i = end + 1
        else:
            parts.append(text[i])
            i += 1
    return "".join(parts)


# ----------------------------------------------------------------------------- the draw's functions
def _shuffled(rng: random.Random, items: Any) -> list[Any]:
    out = list(items)
    rng.shuffle(out)
    return out


def _macro(kind: str, name: str, device: str, **args: Any) -> list[dict[str, Any]]:
    """A kind's task-file macro expanded now, its items as steps or ops of ``device``.

    Only macros whose items need no recording (no ``target`` to find on the device's screen)
    expand here; a recorded one is written as ``{device, macro, args}`` in the solution."""
    from devicesworld.devices.base import get_kind

    get_kind(kind)  # loading the kind registers its macros
    found = next((m for s in macros.SECTIONS if (m := macros.find(kind, s, name)) is not None), None)
    if found is None:
        raise ExprError(f"the {kind} kind has no macro {name!r}")
    items = found.fn(args, macros.MacroContext(device=device, kind=kind))
    out = []
    for item in items:
        if "target" in item:
            raise ExprError(
                f"macro {name!r} of {kind} needs recording: write it as a {{device, macro, args}} step"
            )
        out.append({"device": device, **item})
    return out


BUILTINS: dict[str, Any] = {
    "abs": abs,
    "all": all,
    "any": any,
    "dict": dict,
    "enumerate": enumerate,
    "float": float,
    "int": int,
    "len": len,
    "list": list,
    "max": max,
    "min": min,
    "range": range,
    "reversed": lambda x: list(reversed(x)),
    "round": round,
    "set": set,
    "sorted": sorted,
    "str": str,
    "sum": sum,
    "tuple": tuple,
    "zip": zip,
    "None": None,
    "drawn_world": drawn_world,
    "PERSONAS": TASK_PERSONAS,
    "macro": _macro,
}
"""What every expression may call besides the draws and the family's own ``defs``."""


def _draw_functions(rng: random.Random) -> dict[str, Any]:
    return {
        "choice": rng.choice,
        "randint": rng.randint,
        "randrange": rng.randrange,
        "random": rng.random,
        "sample": rng.sample,
        "shuffled": functools.partial(_shuffled, rng),
    }


def _signature(params: str, where: str) -> inspect.Signature:
    """The signature ``name(params)`` declares; defaults must be literals."""
    try:
        tree = ast.parse(f"lambda {params}: 0", mode="eval").body
    except SyntaxError as exc:
        raise SourceFileError(f"{where}: bad parameters ({exc.msg})") from None
    assert isinstance(tree, ast.Lambda)
    defaults = [*tree.args.defaults, *(d for d in tree.args.kw_defaults if d is not None)]
    for d in defaults:
        try:
            ast.literal_eval(d)
        except ValueError:
            raise SourceFileError(f"{where}: a default must be a literal ({ast.unparse(d)})") from None
    fn = eval(compile(ast.Expression(tree), where, "eval"), {"__builtins__": {}})
    return inspect.signature(fn)


@dataclass(frozen=True)
class _Def:
    """A function a family file defines: parameters, then ordered ``let`` draws, then a value."""

    name: str
    signature: inspect.Signature
    let: tuple[tuple[str, Any], ...]
    value: str

    def bound(self, scope: Scope) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                bound = self.signature.bind(*args, **kwargs)
            except TypeError as exc:
                raise ExprError(f"{self.name}(): {exc}") from None
            bound.apply_defaults()
            inner = scope.child(bound.arguments)
            _run_let(self.let, inner)
            return evaluate(self.value, inner)

        return call


def _run_let(entries: tuple[tuple[str, Any], ...], scope: Scope) -> None:
    """Evaluate ``let`` entries in order: a string is an expression, a mapping with ``expr`` may be
    redrawn (``redraw_while``), anything else is a template."""
    for targets, value in entries:
        if isinstance(value, str):
            bind_names(targets, evaluate(value, scope), scope)
        elif isinstance(value, dict) and "expr" in value:
            bind_names(targets, evaluate(value["expr"], scope), scope)
            tries = 0
            while value.get("redraw_while") and evaluate(value["redraw_while"], scope):
                tries += 1
                if tries > 1000:
                    raise ExprError(f"{targets}: no draw satisfies {value['redraw_while']!r}")
                bind_names(targets, evaluate(value["expr"], scope), scope)
        else:
            bind_names(targets, render(value, scope), scope)


# ----------------------------------------------------------------------------- families
@dataclass(frozen=True)
class SourceFamily:
    """One compiled source family file (parts already merged in)."""

    name: str
    family: str
    file: str
    full: int
    smoke: int
    consts: Mapping[str, Any]
    defs: tuple[_Def, ...]
    defaults: Mapping[str, Any]
    let: tuple[tuple[str, Any], ...]
    task: Any
    draw: Mapping[str, Any] = field(default_factory=dict)

    def scope(self, rng: random.Random, names: Mapping[str, Any]) -> Scope:
        base = Scope({**BUILTINS, **_draw_functions(rng), **self.consts, "family": self.family, **names})
        for d in self.defs:
            base.names[d.name] = d.bound(base)
        base.names["render"] = lambda template, **names: render(template, base.child(names))
        return base

    def document(self, rng: random.Random, names: Mapping[str, Any]) -> dict[str, Any]:
        """The task document of one draw: ``let`` in order, then the defaults not drawn, then ``task``."""
        scope = self.scope(rng, names).child()
        try:
            _run_let(self.let, scope)
            for key, value in self.defaults.items():
                if key not in scope.names:
                    bind_names(key, evaluate(value, scope) if isinstance(value, str) else value, scope)
            doc = render(self.task, scope)
        except (ExprError, KeyError, IndexError, TypeError, ValueError, ZeroDivisionError) as exc:
            raise ValueError(f"{self.file}: {exc}") from None
        if not isinstance(doc, dict):
            raise ValueError(f"{self.file}: task is not a mapping")
        return doc

    def source(self) -> TaskSource:
        draw = self.draw
        if "rows" in draw:
            return self._rows_source()
        if "rng" not in draw:
            raise SourceFileError(f"{self.file}: draw needs rng (a seeded family) or rows (a table)")

        def build(d: TaskDraw) -> dict[str, Any]:
            names = {"seed": d.seed, "smoke": d.smoke, "tid": d.task_id, "index": d.index}
            seed = evaluate(draw["rng"], Scope({**names, "family": self.family}))
            return self.document(random.Random(seed), names)

        return TaskSource(name=self.name, build=build, full=self.full, smoke=self.smoke)

    def _rows_source(self) -> TaskSource:
        draw = self.draw
        scope = self.scope(random.Random(0), {})
        rows = list(evaluate(draw["rows"], scope) if isinstance(draw["rows"], str) else draw["rows"])
        smoke_rows = list(draw.get("smoke_rows", []))
        full_rows = [i for i in range(len(rows)) if i not in smoke_rows]
        fresh = draw.get("fresh")

        def build(d: TaskDraw) -> dict[str, Any]:
            names: dict[str, Any] = {"seed": d.seed, "smoke": d.smoke, "tid": d.task_id, "index": d.index}
            fresh_seed = None
            if d.fresh and fresh is not None:
                at = d.index % len(rows)
                row = rows[at]
                if isinstance(fresh, dict) and "field" in fresh:
                    row = fresh_row(str(fresh.get("salt", "fresh")), self.family, row, fresh["field"], d.seed)
                else:
                    fresh_seed = d.seed
            else:
                listed = smoke_rows if d.smoke else full_rows
                if not 0 <= d.index < len(listed):
                    raise ValueError(f"{self.name} has {len(listed)} rows, not a row {d.index}")
                at = listed[d.index]
                row = rows[at]
            names.update({"row": row, "at": at, "fresh_seed": fresh_seed})
            seed = evaluate(draw["rng"], Scope({**names, "family": self.family})) if "rng" in draw else 0
            return self.document(random.Random(seed), names)

        return TaskSource(
            name=self.name,
            build=build,
            full=len(full_rows),
            smoke=len(smoke_rows),
            redraw=False,
            fresh_draws=fresh is not None,
        )


def older(value: str) -> str:
    """A near-miss twin of ``value``: the same shape, every digit moved on by three."""
    return "".join(str((int(c) + 3) % 10) if c.isdigit() else c for c in value)


BUILTINS["older"] = older


def fresh_row(salt: str, family: str, row: Mapping[str, Any], key: str, seed: int) -> dict[str, Any]:
    """A private draw's row (``tasks draw``): the template row with field ``key`` drawn from ``seed`` —
    the digits of a code (a phone number's last four) redrawn in the same shape, a file name given a
    numbered suffix."""
    rng = random.Random(f"{salt}:{family}:{seed}")
    value = str(row[key])
    if key == "file":
        stem, dot, ext = value.rpartition(".")
        return {**row, key: f"{stem}-{rng.randint(10, 99)}{dot}{ext}"}
    keep = value[:-4] if key == "phone" else ""  # a phone number keeps its country and area code
    while True:
        drawn = keep + "".join(str(rng.randint(0, 9)) if c.isdigit() else c for c in value[len(keep) :])
        if drawn not in (value, older(value)) and older(drawn) != value:
            return {**row, key: drawn}


# ----------------------------------------------------------------------------- loading
def _read(name: str) -> dict[str, Any]:
    path = resources.files("devicesworld.tasks") / "data" / "sources" / f"{name}.yaml"
    try:
        data = yaml.safe_load(path.read_text("utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SourceFileError(f"sources/{name}.yaml: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise SourceFileError(f"sources/{name}.yaml: not a mapping")
    return data


def _merged(name: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The file with its parts merged in (parts first, each later one and the file itself winning)."""
    if name in seen:
        raise SourceFileError(f"sources/{name}.yaml: includes itself ({' -> '.join(seen)})")
    data = _read(name)
    unknown = set(data) - KEYS
    if unknown:
        raise SourceFileError(f"sources/{name}.yaml: unknown keys {sorted(unknown)}; known: {sorted(KEYS)}")
    out: dict[str, Any] = {s: {} for s in SECTIONS}
    for part in data.get("include", []):
        merged = _merged(part, (*seen, name))
        for s in SECTIONS:
            out[s].update(merged[s])
    for s in SECTIONS:
        out[s].update(data.get(s) or {})
    for k, v in data.items():
        if k not in SECTIONS:
            out[k] = v
    return out


def _defs(raw: Mapping[str, Any], where: str) -> tuple[_Def, ...]:
    out = []
    for head, body in raw.items():
        name, _, params = head.partition("(")
        if not params.endswith(")") or not name.isidentifier():
            raise SourceFileError(f"{where}: a def is written name(params), not {head!r}")
        sig = _signature(params[:-1], f"{where} {name}")
        if isinstance(body, str):
            out.append(_Def(name, sig, (), body))
        elif isinstance(body, dict) and isinstance(body.get("value"), str):
            out.append(_Def(name, sig, tuple((body.get("let") or {}).items()), body["value"]))
        else:
            raise SourceFileError(f"{where}: def {name} needs an expression or {{let, value}}")
    return tuple(out)


def _expressions(value: Any, *, code: bool) -> list[str]:
    """Every expression in a ``let``/``defs``/``defaults`` value (``code``) or a template."""
    if isinstance(value, str):
        if code:
            return [value]
        found, i = [], value.find("${")
        while i != -1:
            if not value.startswith("$${", i - 1 if i else 0) or i == 0:
                end = _closing(value, i + 2)
                found.append(value[i + 2 : end].removeprefix("*"))
                i = value.find("${", end)
            else:
                i = value.find("${", i + 2)
        return found
    if isinstance(value, dict):
        if code and "expr" in value:
            return [value["expr"], *([value["redraw_while"]] if value.get("redraw_while") else [])]
        if code and "value" in value:
            return [
                value["value"],
                *(e for v in (value.get("let") or {}).values() for e in _expressions(v, code=True)),
            ]
        return [
            e
            for k, v in value.items()
            for e in (_expressions(v, code=True) if k == "$merge" else _expressions(v, code=False))
        ]
    if isinstance(value, list):
        return [e for v in value for e in _expressions(v, code=False)]
    return []


def _check_syntax(data: Mapping[str, Any], where: str) -> None:
    """Parse every expression of the file now, so a typo is a load error naming the file, not a draw's."""
    parts = [
        *(e for v in (data.get("let") or {}).values() for e in _expressions(v, code=True)),
        *(e for v in data["defs"].values() for e in _expressions(v, code=True)),
        *(e for v in data["defaults"].values() for e in _expressions(v, code=True)),
        *_expressions(data["task"], code=False),
        *(e for k, v in data["draw"].items() if k in ("rng", "rows") for e in _expressions(v, code=True)),
    ]
    for source in parts:
        try:
            parse(source)
        except ExprError as exc:
            raise SourceFileError(f"{where}: {exc}") from None


def source_family(name: str) -> SourceFamily:
    """The compiled source family ``tasks/data/sources/<name>.yaml``."""
    data = _merged(name)
    where = f"sources/{name}.yaml"
    for key in ("source", "family", "task"):
        if not data.get(key):
            raise SourceFileError(f"{where}: needs {key!r}")
    _check_syntax(data, where)
    return SourceFamily(
        name=str(data["source"]),
        family=str(data["family"]),
        file=where,
        full=int(data.get("full", 0)),
        smoke=int(data.get("smoke", 0)),
        consts=data["consts"],
        defs=_defs(data["defs"], where),
        defaults=data["defaults"],
        let=tuple((data.get("let") or {}).items()),
        task=data["task"],
        draw=data["draw"],
    )


def family_files() -> list[str]:
    """The source family files (parts, ``_*.yaml``, left out), in the order ``full`` draws them."""
    folder = resources.files("devicesworld.tasks") / "data" / "sources"
    order = (
        yaml.safe_load((folder / "_order.yaml").read_text("utf-8"))
        if (folder / "_order.yaml").is_file()
        else []
    )
    names = sorted(
        p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml") and not p.name.startswith("_")
    )
    listed = [n for n in order if n in names]
    return [*listed, *(n for n in names if n not in listed)]


@functools.cache
def load_sources() -> tuple[TaskSource, ...]:
    """Every source family as a task source, in ``_order.yaml``'s order (the recipe of ``full``)."""
    return tuple(source_family(n).source() for n in family_files())
