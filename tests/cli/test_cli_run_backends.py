"""`run` options for parallel backends: clear errors for misuse, a working local run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from tests.toykind import toy_task


def _tasks(tmp_path: Path, n: int = 3) -> str:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(toy_task(id=f"t{i}")) + "\n" for i in range(n)))
    return str(path)


def test_ray_address_without_the_ray_backend_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["run", "--tasks", _tasks(tmp_path), "--agent", "oracle", "--ray-address", "ray://x:1"]
    )
    assert result.exit_code == 2 and "--ray-address needs --backend ray" in result.output


def test_missing_ray_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    out = tmp_path / "run"
    args = ["run", "--tasks", _tasks(tmp_path), "--agent", "oracle", "--backend", "ray", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "needs Ray" in result.output and "'devicesworld[ray]'" in result.output
    assert "Traceback" not in result.output


def test_a_non_positive_timeout_is_refused(tmp_path: Path) -> None:
    args = ["run", "--tasks", _tasks(tmp_path), "--agent", "oracle", "--episode-timeout", "0"]
    assert CliRunner().invoke(main, args).exit_code == 2


def test_workers_timeout_and_no_prewarm_run_and_are_recorded(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--tasks", _tasks(tmp_path), "--agent", "oracle", "--out", str(out)]
    args += ["--workers", "2", "--episode-timeout", "60", "--no-prewarm"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert len((out / "results.jsonl").read_text().splitlines()) == 3
    config = json.loads((out / "run.json").read_text())["config"]
    assert config["workers"] == 2 and config["episode_timeout"] == 60 and config["prewarm"] is False
