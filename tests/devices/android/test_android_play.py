"""A person completes a phone task through ``devicesworld play`` by typing actions."""

from __future__ import annotations

import io

from click.testing import CliRunner
from rich.console import Console

from devicesworld.cli import main
from devicesworld.runner.play import play_task
from devicesworld.spec.models import Task
from devicesworld.tasks.suites.smoke_android import build_android_smoke


def _task() -> Task:
    """The Bluetooth task of the phone smoke suite."""
    return next(t for t in build_android_smoke() if "Bluetooth" in t.instruction)


def test_play_shows_the_screen_as_text_and_completes_a_task() -> None:
    task = _task()
    out = io.StringIO()
    console = Console(file=out, width=140, color_system=None)
    # the player reads the screen and types steps by index, as printed
    lines = [
        'android_0 open_app {"app_name": "Settings"}',
        'android_0 click {"index": 11}',  # the printed "[11] TextView 'Connected devices'"
        'android_0 click {"index": 7}',  # the printed "[7] Switch 'Use Bluetooth' (off)"
        "finish",
    ]
    play_task(task, console, io.StringIO("\n".join(lines) + "\n"))
    text = out.getvalue()
    assert "[0] LinearLayout #status_bar" in text  # the launcher, as text
    assert "'Connected devices'" in text and "'Use Bluetooth' (off)" in text
    assert "success: True" in text, text


def test_play_command_from_the_cli() -> None:
    task = _task()
    script = 'android_0 open_app {"app_name": "Settings"}\nandroid_0 click {"index": 999}\nfinish\n'
    result = CliRunner().invoke(main, ["play", task.id, "--suite", "smoke"], input=script)
    assert result.exit_code == 0, result.output
    assert "STALE" in result.output or "has no element 999" in result.output
    assert "Network & internet" in result.output
    assert "success: False" in result.output
