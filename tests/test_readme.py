"""The README's quick start works top to bottom, and its agent is the one the guide explains."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _quick_start() -> str:
    text = (ROOT / "README.md").read_text()
    return text.split("## Quick start", 1)[1].split("\n## ", 1)[0]


def _agent_block(text: str) -> str:
    return text.split("<!-- agent:begin -->", 1)[1].split("<!-- agent:end -->", 1)[0].strip()


def test_the_readme_keeps_its_first_lines() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[3].startswith("make run ") and lines[4].startswith("make test ")


def test_the_readme_agent_is_the_guides_agent() -> None:
    assert _agent_block(_quick_start()) == _agent_block((ROOT / "docs" / "writing-an-agent.md").read_text())


def test_every_quick_start_command_works_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    quick = _quick_start()
    source = _agent_block(quick).split("```python", 1)[1].split("```", 1)[0]
    (tmp_path / "my_agent.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    commands = [
        line.split("  #")[0].strip() for line in quick.splitlines() if line.startswith("devicesworld ")
    ]
    assert len(commands) >= 6
    runner = CliRunner()
    for command in commands:
        args = shlex.split(command)[1:]
        if args[0] == "view":  # serves until Ctrl-C; the viewer has its own tests
            continue
        result = runner.invoke(main, args)
        assert result.exit_code == 0, f"{command}\n{result.output}"
    assert (tmp_path / "runs" / "mine" / "results.jsonl").exists()
