"""The expressions of a source family file: a small, side-effect-free subset of Python's expression syntax.

A source family (``tasks/data/sources/*.yaml``, docs/scenarios.md "Source families") draws
its values in order from one seeded generator, so the same draw gives the same task byte
for byte. Its ``let`` entries and ``${...}`` templates are expressions in this language:
literals, names, arithmetic and comparisons, ``x if c else y``, subscripts and slices,
f-strings, list/set/dict displays and comprehensions, calls of the functions the scope
offers (the draws ``choice``/``randint``/``sample``…, a few builtins, the family's own
``defs``, the kinds' macros) and a short list of string and mapping methods. Nothing else
parses: no attribute but those methods, no assignment, no import, no lambda, so a family
file can say what it draws and how a task is laid out, never run code.

Why Python's syntax rather than a new one: the draws must happen in exactly the order the
former generators made them (the shipped tasks keep their bytes), and Python's evaluation
order (left to right, f-string parts in order, comprehensions element by element) is the
order those generators had; parsing with :mod:`ast` and walking a whitelist gives that
order without a grammar of our own.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = ["ExprError", "Scope", "evaluate", "parse"]


class ExprError(ValueError):
    """An expression that does not parse, uses what the language has not, or fails (the message says which)."""


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.BitOr: operator.or_,
    ast.BitAnd: operator.and_,
}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
    ast.Not: operator.not_,
}
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}
METHODS: dict[type, frozenset[str]] = {
    str: frozenset(
        [
            "capitalize",
            "casefold",
            "endswith",
            "isascii",
            "isdigit",
            "join",
            "lower",
            "partition",
            "replace",
            "rpartition",
            "rsplit",
            "split",
            "startswith",
            "strip",
            "title",
            "upper",
        ]
    ),
    dict: frozenset({"get", "items", "keys", "values"}),
    list: frozenset({"count", "index"}),
    tuple: frozenset({"count", "index"}),
}
"""The only attributes an expression may name: these methods (none changes its object)."""


class Scope:
    """Names an expression sees: its own (``let`` values, comprehension variables) over a parent's."""

    def __init__(self, names: Mapping[str, Any] | None = None, parent: Scope | None = None) -> None:
        self.names: dict[str, Any] = dict(names or {})
        self.parent = parent

    def lookup(self, name: str) -> Any:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        raise ExprError(f"unknown name {name!r}")

    def child(self, names: Mapping[str, Any] | None = None) -> Scope:
        return Scope(names, self)


_PARSED: dict[str, ast.expr] = {}


def parse(source: str) -> ast.expr:
    """The expression's tree (cached: a family's expressions are parsed once per process)."""
    tree = _PARSED.get(source)
    if tree is None:
        try:
            tree = ast.parse(
                f"(\n{source.strip()}\n)", mode="eval"
            ).body  # parenthesised: lines may break anywhere
        except SyntaxError as exc:
            raise ExprError(f"does not parse: {source!r} ({exc.msg})") from None
        _PARSED[source] = tree
    return tree


def evaluate(source: str, scope: Scope) -> Any:
    """The value of expression ``source`` in ``scope``; :class:`ExprError` for anything outside the language."""
    return _Eval(scope).run(parse(source))


class _Eval:
    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def run(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.scope.lookup(node.id)
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            items = self._spread(node.elts)
            return (
                items
                if isinstance(node, ast.List)
                else tuple(items)
                if isinstance(node, ast.Tuple)
                else set(items)
            )
        if isinstance(node, ast.Dict):
            out: dict[Any, Any] = {}
            for key, value in zip(node.keys, node.values, strict=True):
                if key is None:
                    out.update(self.run(value))
                else:
                    out[self.run(key)] = self.run(value)
            return out
        if isinstance(node, ast.JoinedStr):
            return "".join(
                str(self.run(v)) if not isinstance(v, ast.FormattedValue) else self._fmt(v)
                for v in node.values
            )
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return _BINARY[type(node.op)](self.run(node.left), self.run(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](self.run(node.operand))
        if isinstance(node, ast.BoolOp):
            result: Any = None
            for part in node.values:
                result = self.run(part)
                if isinstance(node.op, ast.And) != bool(result):
                    return result
            return result
        if isinstance(node, ast.Compare):
            left = self.run(node.left)
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right = self.run(right_node)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return self.run(node.body) if self.run(node.test) else self.run(node.orelse)
        if isinstance(node, ast.Subscript):
            return self.run(node.value)[self._index(node.slice)]
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.ListComp | ast.GeneratorExp):
            return [self._in(s).run(node.elt) for s in self._generate(node.generators, 0, self.scope)]
        if isinstance(node, ast.SetComp):
            return {self._in(s).run(node.elt) for s in self._generate(node.generators, 0, self.scope)}
        if isinstance(node, ast.DictComp):
            return {
                self._in(s).run(node.key): self._in(s).run(node.value)
                for s in self._generate(node.generators, 0, self.scope)
            }
        raise ExprError(f"the expression language has no {type(node).__name__} ({ast.unparse(node)!r})")

    def _in(self, scope: Scope) -> _Eval:
        return _Eval(scope)

    def _fmt(self, node: ast.FormattedValue) -> str:
        value = self.run(node.value)
        if node.conversion == ord("r"):
            value = repr(value)
        elif node.conversion == ord("s"):
            value = str(value)
        spec = "" if node.format_spec is None else str(self.run(node.format_spec))
        return format(value, spec)

    def _index(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Slice):
            return slice(*(None if p is None else self.run(p) for p in (node.lower, node.upper, node.step)))
        return self.run(node)

    def _generate(self, gens: list[ast.comprehension], at: int, scope: Scope) -> Iterator[Scope]:
        if at == len(gens):
            yield scope
            return
        gen = gens[at]
        for item in _Eval(scope).run(gen.iter):
            inner = scope.child()
            _bind(gen.target, item, inner)
            if all(_Eval(inner).run(cond) for cond in gen.ifs):
                yield from self._generate(gens, at + 1, inner)

    def _spread(self, nodes: list[ast.expr]) -> list[Any]:
        """The values of a display's items or a call's arguments, ``*x`` unpacked in place."""
        values: list[Any] = []
        for node in nodes:
            if isinstance(node, ast.Starred):
                values += list(self.run(node.value))
            else:
                values.append(self.run(node))
        return values

    def _call(self, node: ast.Call) -> Any:
        args = self._spread(node.args)
        kwargs: dict[str, Any] = {}
        for k in node.keywords:
            if k.arg is None:
                kwargs.update(self.run(k.value))
            else:
                kwargs[k.arg] = self.run(k.value)
        if isinstance(node.func, ast.Attribute):
            target = self.run(node.func.value)
            allowed = next((m for t, m in METHODS.items() if isinstance(target, t)), frozenset())
            if node.func.attr not in allowed:
                raise ExprError(
                    f"no method {node.func.attr!r} of {type(target).__name__} in the expression language"
                )
            return getattr(target, node.func.attr)(*args, **kwargs)
        fn = self.run(node.func)
        if not callable(fn):
            raise ExprError(f"{ast.unparse(node.func)!r} is not a function")
        return fn(*args, **kwargs)


def _bind(target: ast.expr, value: Any, scope: Scope) -> None:
    if isinstance(target, ast.Name):
        scope.names[target.id] = value
    elif isinstance(target, ast.Tuple | ast.List):
        values = list(value)
        if len(values) != len(target.elts):
            raise ExprError(f"cannot unpack {len(values)} values into {ast.unparse(target)!r}")
        for t, v in zip(target.elts, values, strict=True):
            _bind(t, v, scope)
    else:
        raise ExprError(f"cannot bind {ast.unparse(target)!r}")


def bind_names(targets: str, value: Any, scope: Scope) -> None:
    """Bind ``value`` to the ``let`` key ``targets`` (``name`` or ``a, b`` to unpack)."""
    names = [t.strip() for t in targets.split(",")]
    if len(names) == 1:
        scope.names[names[0]] = value
        return
    values = list(value)
    if len(values) != len(names):
        raise ExprError(f"cannot unpack {len(values)} values into {targets!r}")
    scope.names.update(zip(names, values, strict=True))
