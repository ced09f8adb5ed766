"""``tasks draw``: a fresh private split in the strata of ``test``, proven, unseen, reproducible."""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.runner.selection import manifest_of
from devicesworld.spec.models import Task
from devicesworld.tasks import draw as draw_module
from devicesworld.tasks.draw import DrawError, GroupResult, Stratum, content_key, draw_split, spread, strata
from devicesworld.tasks.full import load_full
from devicesworld.tasks.manifest import read_manifest, task_hash
from devicesworld.tasks.suites import load_suite

FAMILY = "family:dehumidify_if_damp"
"""A phone and smart-home family of the test split with three strata (no system tool needed)."""


def _draw(out: Path, seed: int) -> tuple[bytes, bytes]:
    args = ["tasks", "draw", "--like", "test", "--seed", str(seed), "--count", "2", "--only", FAMILY]
    result = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_bytes(), out.with_suffix(".manifest.json").read_bytes()


def test_the_same_seed_draws_the_same_bytes_of_unseen_proven_tasks_in_the_strata(tmp_path: Path) -> None:
    first = _draw(tmp_path / "a" / "private.jsonl", 7)
    assert _draw(tmp_path / "b" / "private.jsonl", 7) == first
    lines = [json.loads(line) for line in first[0].decode().splitlines()]
    assert len(lines) == 2 and all(line["id"].startswith("p7-dehumidify-if-damp-") for line in lines)
    plan = spread(strata(load_suite("test"), FAMILY), 2)
    assert [line["metadata"]["difficulty"] for line in lines] == [s.difficulty for s in plan]
    drawn = [Task.model_validate(line) for line in lines]
    shipped = {content_key(t) for t in load_full()}
    assert not any(content_key(t) in shipped for t in drawn)
    manifest = read_manifest(tmp_path / "a" / "private.manifest.json")
    assert manifest.label == "private-v7" and [e.hash for e in manifest.tasks] == [
        task_hash(t) for t in drawn
    ]
    assert manifest_of(None, str(tmp_path / "a" / "private.jsonl")) == ("private-v7", manifest.hash)
    assert manifest.run_protocol is not None and manifest.run_protocol.max_steps == 50  # test's budget
    other = _draw(tmp_path / "c" / "private.jsonl", 8)[0]
    assert other != first[0]


def test_a_draw_refuses_an_unknown_split(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["tasks", "draw", "--like", "nope", "--seed", "1", "--out", str(tmp_path / "x")]
    )
    assert result.exit_code != 0 and "no manifest 'nope'" in result.output


def test_every_stratum_of_test_is_drawable_and_fixed_rows_draw_fresh_values() -> None:
    """The 28 strata from the Windows kind's fixed rows draw new instances in a private draw
    (``TaskDraw.fresh``), while the shipped rows stay as they are (``full`` is unchanged)."""
    from devicesworld.tasks.draw import fixed_rows
    from devicesworld.tasks.kind_sources import TaskDraw, source_by_name

    test = load_suite("test")
    plan = strata(test)
    assert len(plan) == len(test) and not any(fixed_rows(s.shard) for s in plan)
    sources = {s.shard.builder for s in plan if s.shard.builder.startswith("source:")}
    fixed = sorted(b for b in sources if not source_by_name(b.split(":", 1)[1]).redraw)
    assert len(fixed) == 8  # Windows GUI families whose shipped rows are a table (test-v2.6 draws from 8)
    for builder in fixed:
        source = source_by_name(builder.split(":", 1)[1])
        shipped = [repr(source.build(TaskDraw(0, i, "x"))) for i in range(source.full)]
        fresh = source.build(TaskDraw(11, 0, "x", fresh=True))
        assert repr(fresh) not in shipped, builder
        assert fresh == source.build(TaskDraw(11, 0, "x", fresh=True))  # the same seed, the same task
        assert fresh != source.build(TaskDraw(12, 0, "x", fresh=True)), builder


PHONE_HOME = ("family:dehumidify_if_damp", "family:pm25_purifier_rule")
"""Phone and smart-home families of three strata each."""


def _strata() -> list[Stratum]:
    return [s for s in strata(load_suite("test")) if s.shard.builder in PHONE_HOME]


def _plan() -> list[Stratum]:
    return [s for s in _strata() if s.like != "dw-pm25-purifier-rule-0056"]


def _lines(tasks: list[Task]) -> list[str]:
    return [t.model_dump_json() for t in tasks]


def test_a_count_above_the_strata_repeats_strata_evenly() -> None:
    plan = _strata()
    assert len(plan) == 6
    padded = spread(plan, 8)
    assert len(padded) == 8 and set(map(id, padded)) == set(map(id, plan))
    assert [s.like for s in padded] == sorted((s.like for s in padded), key=[p.like for p in plan].index)
    assert spread(plan, 6) == plan and len(spread(plan, 3)) == 3


def test_workers_and_an_interrupted_draw_give_the_bytes_of_one_uninterrupted_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = _plan()
    one, _, notes = draw_split(plan, 7, set())
    assert len(one) == len(plan) == 5 and [t.metadata.difficulty for t in one] == [
        s.difficulty for s in plan
    ], notes
    two, _, _ = draw_split(plan, 7, set(), workers=2)
    assert _lines(two) == _lines(one)

    journal = tmp_path / "private.journal.jsonl"
    calls: list[str] = []
    real = draw_module.draw_group

    def cut_after_the_first(group: list[Stratum], build_seed: int, seen: Collection[bytes]) -> GroupResult:
        if calls:
            raise KeyboardInterrupt
        calls.append(group[0].shard.builder)
        return real(group, build_seed, seen)

    monkeypatch.setattr(draw_module, "draw_group", cut_after_the_first)
    with pytest.raises(KeyboardInterrupt):
        draw_split(plan, 7, set(), journal=journal)
    assert len(journal.read_text().splitlines()) == 2  # the head and the family that finished

    again: list[str] = []

    def counting(group: list[Stratum], build_seed: int, seen: Collection[bytes]) -> GroupResult:
        again.append(group[0].shard.builder)
        return real(group, build_seed, seen)

    monkeypatch.setattr(draw_module, "draw_group", counting)
    resumed, _, _ = draw_split(plan, 7, set(), journal=journal)
    assert again and calls[0] not in again  # the finished family was read back, not drawn again
    assert _lines(resumed) == _lines(one)

    with pytest.raises(DrawError, match="journal of another draw"):
        draw_split(plan, 8, set(), journal=journal)


def test_a_draw_cut_short_by_sigterm_continues_from_its_journal(tmp_path: Path) -> None:
    """The CLI turns SIGTERM into an interruption that keeps the journal and says so (exit 130)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "private.jsonl"
    args = [sys.executable, "-m", "devicesworld", "tasks", "draw", "--seed", "7", "--only", FAMILY]
    proc = subprocess.Popen(
        [*args, "--workers", "1", "--out", str(out)], stderr=subprocess.PIPE, text=True, env=os.environ
    )
    journal = out.with_suffix(".journal.jsonl")
    deadline = time.monotonic() + 600
    while not journal.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=600)
    if proc.returncode == 0:
        pytest.skip("the draw finished before the signal arrived")
    if proc.returncode == 130:  # the signal arrived while drawing: interrupted, nothing written
        assert "run the same command to continue" in err
        assert not out.exists()
    else:  # the draw had ended and the output was being written: killed, the journal still kept
        assert proc.returncode == -signal.SIGTERM, err
    assert journal.exists()
    done = subprocess.run([*args, "--out", str(out)], capture_output=True, text=True, env=os.environ)
    assert done.returncode == 0, done.stderr
    assert "continuing the draw kept in" in done.stderr and not journal.exists()
    assert len(out.read_text().splitlines()) == 3
