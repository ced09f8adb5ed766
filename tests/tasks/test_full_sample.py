"""Samples of the full recipe (`tasks build --shards/--per-shard/--skip`): later seeds of a shard
are built without the tasks `full` already holds (held-out `test` tasks, docs/scenarios.md)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.tasks import full


def test_skip_starts_each_shard_past_its_first_tasks() -> None:
    (shard,) = full.sample_shards("family:long_garage_mot", per_shard=5, skip=2)
    assert (shard.first, shard.count, shard.prefix) == (2, 5, "long-garage-mot")
    assert full.chunk_count([shard], chunk=2) == 2  # tasks 2, 3 | 4
    assert full.sample_shards("family:long_garage_mot", per_shard=2, skip=2) == []  # nothing past the skip
    (whole,) = full.sample_shards("family:long_garage_mot", per_shard=5)
    assert whole.first == 0


def test_a_skip_past_every_shards_tasks_is_a_clear_error(tmp_path: Path) -> None:
    args = ["tasks", "build", "--suite", "full", "--shards", "family:long_garage_mot", "--per-shard", "2"]
    out = CliRunner().invoke(main, [*args, "--skip", "2", "--out", str(tmp_path)])
    assert out.exit_code != 0 and "past --skip 2" in out.output
    smoke = CliRunner().invoke(
        main, ["tasks", "build", "--suite", "smoke", "--skip", "1", "--out", str(tmp_path)]
    )
    assert smoke.exit_code != 0 and "give --suite full" in smoke.output
