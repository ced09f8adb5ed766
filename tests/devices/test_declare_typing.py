"""mypy --strict rejects a handler whose argument or result disagrees with its declaration."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

SNIPPET = """
from devicesworld.devices.base import ActionResult, Args, NoArgs
from devicesworld.devices.declare import ActionTable, GetterTable

class RunArgs(Args):
    command: str

class ReadArgs(Args):
    path: str

ACTIONS: "ActionTable[Dev]" = ActionTable("t")
GETTERS: "GetterTable[Dev]" = GetterTable("t")

class Dev:
    @ACTIONS.register("run", doc="Run.", args=RunArgs)
    def run(self, args: RunArgs) -> ActionResult:  # fine
        return ActionResult.success(args.command)

    @ACTIONS.register("misspelled", doc="Wrong model.", args=RunArgs)  # rejected
    def misspelled(self, args: ReadArgs) -> ActionResult:
        return ActionResult.success(args.path)

    @ACTIONS.register("no_args", doc="Takes nothing.")  # rejected
    def no_args(self, args: ReadArgs) -> ActionResult:
        return ActionResult.success()

    @ACTIONS.register("returns_text", doc="Wrong result.", args=RunArgs)  # rejected
    def returns_text(self, args: RunArgs) -> str:
        return ""

    @GETTERS.register("state", doc="Fine: any JSON-able object.")
    def state(self, args: NoArgs) -> list[str]:
        return []
"""


@pytest.mark.slow
def test_mypy_catches_handlers_that_disagree_with_their_declaration(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    source = tmp_path / "kind_snippet.py"
    text = textwrap.dedent(SNIPPET)
    source.write_text(text, encoding="utf-8")
    rejected = {n for n, line in enumerate(text.splitlines(), 1) if line.endswith("# rejected")}
    out, err, status = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(source)])
    assert status == 1, out + err
    lines = {int(line.split(":")[1]) for line in out.splitlines() if ": error:" in line}
    assert len(rejected) == 3 and lines == rejected, out
    assert 'expected "Callable[[Dev, RunArgs], ActionResult]"' in out
    assert 'expected "Callable[[Dev, NoArgs], ActionResult]"' in out
