from __future__ import annotations

from devicesworld.runner.play import parse_command


def test_short_forms_of_the_global_actions() -> None:
    assert parse_command("finish") == {"action": "finish"}
    assert parse_command("report_infeasible no such contact") == {
        "action": "report_infeasible",
        "args": {"reason": "no such contact"},
    }
    assert parse_command("answer  7:20 AM ") == {"action": "answer", "args": {"text": "7:20 AM"}}
    assert parse_command('android_0 click {"index": 3}') == {
        "device": "android_0",
        "action": "click",
        "args": {"index": 3},
    }
    assert "answer TEXT" in str(parse_command("lonely"))


def test_a_global_action_takes_its_text_as_json_args_too() -> None:
    assert parse_command('report_infeasible {"reason": "no den lamp"}') == {
        "action": "report_infeasible",
        "args": {"reason": "no den lamp"},
    }
    assert parse_command('answer {"text": "18:15"}') == {"action": "answer", "args": {"text": "18:15"}}
    # braces that are not such an object stay the text
    assert parse_command("answer {not json}") == {"action": "answer", "args": {"text": "{not json}"}}


def test_a_gui_desktop_is_shown_as_its_windows_and_numbered_elements() -> None:
    from devicesworld.runner.play import desktop_text

    view = {
        "focused_window": {"title": "notes.txt - Mousepad", "app": "Mousepad", "focused": True},
        "windows": [{"title": "notes.txt - Mousepad", "app": "Mousepad", "focused": True}],
        "elements": [
            {
                "index": 0,
                "role": "frame",
                "name": "notes.txt - Mousepad",
                "states": [],
                "box": [0, 0, 800, 600],
            },
            {"index": 1, "role": "text", "name": "", "text": "Gate 4471", "states": ["focused"]},
            {"index": 2, "role": "panel", "name": "", "text": "\ufffc\ufffc", "states": []},
        ],
        "tree_incomplete": True,
    }
    assert desktop_text(view) == (
        "focused: 'notes.txt - Mousepad'\n"
        "window 'notes.txt - Mousepad' (Mousepad) *\n"
        "[0] frame 'notes.txt - Mousepad'  @(0,0) 800x600\n"
        "[1] text '' text='Gate 4471' (focused)\n"
        "[2] panel ''\n"
        "(element tree incomplete: observe again)"
    )
    assert desktop_text({"screen_text": "[0] Button"}) is None
