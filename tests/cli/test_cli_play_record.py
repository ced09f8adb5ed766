"""``devicesworld play --record FILE --preset NAME``: a session becomes a demonstration on that profile."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.demos import read_demos


def test_play_records_on_a_preset(tmp_path: Path) -> None:
    out = tmp_path / "demo.jsonl"
    moves = 'android_0 open_app {"app_name": "Calculator"}\nfinish\n'
    args = ["play", "bmoca-open-calculator", "--suite", "bmoca", "--preset", "test_05", "--record", str(out)]
    result = CliRunner().invoke(main, args, input=moves)
    assert result.exit_code == 0, result.output
    (demo,) = read_demos(out)
    assert demo.profile == "test_05" and demo.success and len(demo.steps) == 2
    again = CliRunner().invoke(main, args, input="finish\n")
    assert again.exit_code == 0 and len(read_demos(out)) == 2  # sessions are appended


def test_an_unknown_preset_is_refused() -> None:
    result = CliRunner().invoke(main, ["play", "bmoca-open-clock", "--preset", "nope"], input="finish\n")
    assert result.exit_code != 0 and "unknown preset 'nope'" in result.output
