"""``devicesworld run --env-split``: phones on B-MoCA's training or test profiles, the oracle still solves."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from devicesworld.cli import main


def test_run_on_the_test_split(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--suite", "bmoca", "--agent", "oracle", "--limit", "6", "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--env-split", "test", "--no-prewarm"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 6 and all(r["success"] for r in rows)
    assert "env-split:test" in (out / "run.json").read_text()


def test_unknown_split_is_refused() -> None:
    result = CliRunner().invoke(main, ["run", "--suite", "bmoca", "--agent", "oracle", "--env-split", "dev"])
    assert result.exit_code != 0 and "dev" in result.output
