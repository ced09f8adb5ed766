"""The CLI imports a command group's modules only when that group is called or listed."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from devicesworld.cli import main

PROBE = """
import sys
from devicesworld.cli import main
try:
    main(["--version"])
except SystemExit:
    pass
print(len([m for m in sys.modules if m.split(".")[0] == "devicesworld"]))
"""


def test_version_imports_fewer_than_twenty_project_modules() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    lines = out.stdout.strip().splitlines()
    assert "version" in lines[0]  # the option ran
    assert int(lines[-1]) < 20, out.stdout


def test_lazy_groups_are_listed_in_help_and_run_when_called() -> None:
    runner = CliRunner()
    top = runner.invoke(main, ["--help"])
    assert top.exit_code == 0
    assert "serve" in top.output and "androidworld" in top.output
    tasks = runner.invoke(main, ["tasks", "--help"])
    assert tasks.exit_code == 0
    for name in ("scenarios", "compile", "macros", "list", "validate"):
        assert f"  {name}" in tasks.output, name
    calibrate = runner.invoke(main, ["tasks", "scenarios", "--help"])
    assert calibrate.exit_code == 0 and "calibrate" in calibrate.output
    serve = runner.invoke(main, ["serve", "--help"])
    assert serve.exit_code == 0 and "mcp" in serve.output


def test_an_unknown_command_is_still_a_clear_error() -> None:
    result = CliRunner().invoke(main, ["tasks", "nosuch"])
    assert result.exit_code == 2 and "No such command" in result.output
