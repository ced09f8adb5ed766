"""`devicesworld play` on a GUI desktop: after each step the player sees its windows and elements."""

from __future__ import annotations

from click.testing import CliRunner

from devicesworld.cli import main
from tests.devices.desktop.desktop_harness import require_gui_stack


def test_play_shows_the_desktops_element_list_after_a_step() -> None:
    require_gui_stack()
    moves = 'linux_0 launch_app {"app": "text_editor"}\nfinish\n'
    result = CliRunner().invoke(
        main, ["play", "smoke-gui-lx-editor-append-1", "--suite", "smoke-gui"], input=moves
    )
    assert result.exit_code == 0, result.output
    after = result.output.split("text_editor opened", 1)[1]
    assert "focused: '" in after and "Mousepad" in after
    assert "[0] frame '" in after and " @(" in after  # numbered elements with their boxes
