"""``devicesworld play``: take the agent's seat on a task yourself."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    pass

from devicesworld.cli.common import (
    console,
    find_task,
    lookup_options,
)


# ------------------------------------------------------------------------------ play
@click.command()
@click.argument("task_id")
@lookup_options
@click.option(
    "--record",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Append the session to this demonstration file (JSONL; see docs/bmoca.md).",
)
@click.option("--preset", help="Put the task's phones on this profile preset (e.g. train_03, test_01).")
@click.option(
    "--screens",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the screen PNGs after each step (default: a new temporary folder).",
)
def play(
    task_id: str,
    suite: str | None,
    tasks_path: str | None,
    record: Path | None,
    preset: str | None,
    screens: Path | None,
) -> None:
    """Play a task yourself, one step per line.

    A step is JSON ({"device": ..., "action": ..., "args": {...}}) or the short form
    `DEVICE ACTION {json args}`; `finish` and `report_infeasible REASON` end the episode,
    `answer TEXT` answers a question; `help` lists the actions. `--record FILE` saves the session as a demonstration.
    """
    from devicesworld.runner.play import play_task

    task = find_task(task_id, suite, tasks_path)
    if preset is not None:
        from devicesworld.tasks.env_split import all_presets, with_preset

        if preset not in all_presets():
            raise click.BadParameter(f"unknown preset {preset!r}; e.g. train_00..train_34, test_00..test_09")
        task = with_preset(task, preset)
    if screens is None:
        import tempfile

        screens = Path(tempfile.mkdtemp(prefix=f"devicesworld-play-{task.id}-"))
    play_task(task, console, record=record, screens=screens)
