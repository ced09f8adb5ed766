"""``tasks build`` builds shipped suites from data files only: without ``--suite`` it says so."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from devicesworld.cli import main


def test_build_without_a_suite_names_the_suites_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["tasks", "build", "--out", str(tmp_path / "built")])
    assert result.exit_code != 0
    assert "give --suite full|smoke|smoke-gui|bmoca" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "built").exists()
