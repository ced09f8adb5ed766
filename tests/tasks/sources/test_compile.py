"""The source family compiler: its expression language, its templates, and clear errors for bad files."""

from __future__ import annotations

import random

import pytest

from devicesworld.tasks.sources import compile as sc
from devicesworld.tasks.sources.expr import ExprError, Scope, evaluate


def _scope(**names: object) -> Scope:
    return Scope({**sc.BUILTINS, **sc._draw_functions(random.Random(1)), **names})


def test_expressions_draw_in_python_order_and_compute() -> None:
    rng = random.Random(5)
    expected = [f"{rng.choice('ab')}{rng.randint(1, 9)}" for _ in range(3)]
    scope = Scope({**sc.BUILTINS, **sc._draw_functions(random.Random(5))})
    assert evaluate("[f'{choice(\"ab\")}{randint(1, 9)}' for _ in range(3)]", scope) == expected
    assert evaluate("{k: v * 2 for k, v in pairs if v > 1}", _scope(pairs=[("a", 1), ("b", 2)])) == {"b": 4}
    assert evaluate("'-'.join(sorted({'b', 'a'})) + str(len(x[1:]))", _scope(x=[1, 2, 3])) == "a-b2"
    assert evaluate("x if x > 2 else -x", _scope(x=1)) == -1


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("__import__('os')", "unknown name '__import__'"),
        ("x.__class__", "no Attribute"),
        ("'a'.format_map({})", "no method 'format_map'"),
        ("(lambda: 1)()", "no Lambda"),
        ("[y := 1]", "no NamedExpr"),
        ("1 +", "does not parse"),
    ],
)
def test_the_language_refuses_what_it_has_not(source: str, message: str) -> None:
    with pytest.raises(ExprError, match=message):
        evaluate(source, _scope(x=1))


def test_templates_fill_splice_merge_and_escape() -> None:
    scope = _scope(a=[1, 2], m={"k": 3}, n=7)
    template = {"x": "${n}", "s": "n=${n} $${n}", "l": [0, "${*a}", "${n}"], "$merge": "m"}
    assert sc.render(template, scope) == {"x": 7, "s": "n=7 ${n}", "l": [0, 1, 2, 7], "k": 3}


def test_a_family_file_compiles_and_bad_files_say_what_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    family = sc.source_family("gui-lx-editor-append")
    doc = family.source().build(sc.TaskDraw(1, 0, "t"))
    assert doc["id"] == "t" and doc["instruction"].startswith("In the text editor")
    files = {
        "bad-key": {"source": "x", "family": "x", "task": {}, "oops": 1},
        "bad-def": {"source": "x", "family": "x", "task": {"a": 1}, "defs": {"f(x=len)": "x"}},
        "bad-expr": {"source": "x", "family": "x", "task": {"a": "${1 +}"}, "draw": {"rng": "seed"}},
        "loop": {"source": "x", "family": "x", "include": ["loop"], "task": {}},
    }
    monkeypatch.setattr(sc, "_read", lambda name: files[name])
    with pytest.raises(sc.SourceFileError, match="unknown keys \\['oops'\\]"):
        sc.source_family("bad-key")
    with pytest.raises(sc.SourceFileError, match="a default must be a literal"):
        sc.source_family("bad-def")
    with pytest.raises(sc.SourceFileError, match=r"bad-expr.yaml: does not parse: '1 \+'"):
        sc.source_family("bad-expr")
    with pytest.raises(sc.SourceFileError, match="includes itself"):
        sc.source_family("loop")


def test_a_redraw_stops_when_its_condition_holds_and_defs_take_defaults() -> None:
    scope = _scope()
    sc._run_let((("v", {"expr": "randint(1, 3)", "redraw_while": "v != 2"}),), scope)
    assert scope.names["v"] == 2
    (greet,) = sc._defs({"greet(who, end='!')": "f'hi {who}{end}'"}, "t")
    assert greet.bound(scope)("Ana") == "hi Ana!"


def test_a_macro_that_needs_recording_is_refused_at_compile_time() -> None:
    from devicesworld import macros

    macros.register("probe-kind", "solution", "tap_it", "t")(
        lambda args, ctx: [{"action": "tap", "target": {}}]
    )
    macros.register("probe-kind", "solution", "wait_it", "t")(
        lambda args, ctx: [{"action": "wait", "args": args}]
    )
    assert sc._macro("probe-kind", "wait_it", "d0", seconds=1) == [
        {"device": "d0", "action": "wait", "args": {"seconds": 1}}
    ]
    with pytest.raises(ExprError, match="needs recording"):
        sc._macro("probe-kind", "tap_it", "d0")
    with pytest.raises(ExprError, match="has no macro 'nope'"):
        sc._macro("probe-kind", "nope", "d0")


def test_a_family_file_that_does_not_compile_is_a_task_file_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI shows a TaskLoadError in one line naming the file (never a traceback)."""
    from devicesworld.tasks import kind_sources
    from devicesworld.tasks.loading import TaskLoadError

    def broken() -> tuple[sc.TaskSource, ...]:
        raise sc.SourceFileError("sources/x.yaml: unknown keys ['oops']")

    monkeypatch.setattr(kind_sources, "load_sources", broken)
    with pytest.raises(TaskLoadError) as caught:
        kind_sources.sources()
    assert caught.value.shown_lines() == [
        "  tasks/data/sources/x.yaml (source family): unknown keys ['oops']"
    ]
