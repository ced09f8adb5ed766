"""The layer contract holds, and docs/architecture.md draws the same layers.

The contract is ``[tool.importlinter]`` in pyproject.toml; `make lint` runs
``lint-imports`` and this test runs it too, so CI (which calls `make test`) fails when
a module imports upwards, with import-linter's own report of the offending chain.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUN_LINTER = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def _contracts() -> list[dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    contracts: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def test_lint_imports_keeps_every_contract() -> None:
    done = subprocess.run(
        [sys.executable, "-c", RUN_LINTER, "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"lint-imports failed:\n{done.stdout}\n{done.stderr}"
    assert f"Contracts: {len(_contracts())} kept, 0 broken." in done.stdout


def _drawn_layers(doc: str, contract_id: str) -> list[str]:
    """The lines of the fenced block that follows ``<!-- contract: ID -->`` in the doc."""
    match = re.search(rf"<!-- contract: {re.escape(contract_id)} -->\s*```text\n(.*?)```", doc, re.S)
    assert match, f"docs/architecture.md has no drawing of contract {contract_id!r}"
    return [line.strip() for line in match.group(1).splitlines() if line.strip() and line.strip() != "↓"]


def test_architecture_doc_draws_each_layer_contract_as_declared() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    layered = [c for c in _contracts() if c["type"] == "layers"]
    assert layered
    for contract in layered:
        assert _drawn_layers(doc, contract["id"]) == contract["layers"], contract["id"]
